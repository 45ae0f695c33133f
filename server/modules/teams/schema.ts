/**
 * The teams routes' request and response schemas. Responses and the list
 * queries come from `core/api/teams.ts`, which the browser shares.
 */
import { z } from 'zod';
import { TEAM_ASSIGNMENTS, TEAM_MEMBER_ROLES } from '../../../core/api/teams.js';

export {
  teamListQuery,
  teamListSchema,
  teamMemberListQuery,
  teamMemberListSchema,
  teamMemberSchema,
  teamSchema,
  teamUserOptionSchema,
} from '../../../core/api/teams.js';
export { idParams } from '../../../core/api/list.js';

export const teamBody = z.object({
  name: z.string({ error: 'validation.required' }).trim().min(1, { error: 'validation.required' }).max(120, { error: 'validation.tooLong' }),
  description: z.string().trim().max(1000, { error: 'validation.tooLong' }).default(''),
  assignment: z.enum(TEAM_ASSIGNMENTS, { error: 'validation.chooseOption' }).default('least_loaded'),
  active: z.boolean().default(true),
});
export type TeamBody = z.infer<typeof teamBody>;

export const memberBody = z.object({
  teamId: z.number({ error: 'validation.chooseOption' }).int().positive(),
  userId: z.number({ error: 'validation.chooseOption' }).int().positive(),
  role: z.enum(TEAM_MEMBER_ROLES, { error: 'validation.chooseOption' }).default('member'),
  active: z.boolean().default(true),
});
export type MemberBody = z.infer<typeof memberBody>;
export const memberUpdateBody = memberBody.pick({ role: true, active: true });
export type MemberUpdate = z.infer<typeof memberUpdateBody>;

export const userOptionsQuery = z.strictObject({ search: z.string().max(100).optional() });
export const noContent = z.null();
