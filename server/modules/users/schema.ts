/**
 * The users routes' request and response schemas. Responses and the list
 * queries come from `core/api/users.ts`, which the browser shares.
 */
import { z } from 'zod';
import { emailSchema, isTimeZone, passwordSchema } from '../../../core/auth.js';

export {
  blockedUserListQuery,
  planSchema,
  resetLinkSentSchema,
  roleOptionSchema,
  userListQuery,
  userListSchema,
  userSchema,
} from '../../../core/api/users.js';
export { idParams } from '../../../core/api/list.js';

const userFields = {
  email: emailSchema,
  name: z.string({ error: 'validation.required' }).trim().min(1, { error: 'validation.required' }).max(120, { error: 'validation.tooLong' }),
  docnumber: z.string().trim().max(40, { error: 'validation.tooLong' }).nullable().default(null),
  roleId: z.number({ error: 'validation.chooseOption' }).int().positive(),
  active: z.boolean().default(true),
  language: z.enum(['en', 'es'], { error: 'validation.chooseOption' }).default('en'),
  timeZone: z.string().refine(isTimeZone, { error: 'validation.chooseOption' }).default('America/Bogota'),
};
/** Without a password the new user gets a reset link to choose one. */
export const createUserBody = z.object({ ...userFields, password: passwordSchema.optional() });
export type CreateUser = z.infer<typeof createUserBody>;
export const updateUserBody = z.object(userFields);
export type UpdateUser = z.infer<typeof updateUserBody>;
export const noContent = z.null();
