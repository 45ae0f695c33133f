/**
 * The access-control routes' request and response schemas. Responses and
 * the list query come from `core/api/acl.ts`, which the browser shares.
 */
import { z } from 'zod';

export { catalogItemSchema, catalogListQuery, catalogListSchema, roleItemSchema, roleListSchema, roleRulesSchema, ruleRoleSchema } from '../../../core/api/acl.js';
export { idParams } from '../../../core/api/list.js';

const code = z
  .string({ error: 'validation.required' })
  .trim()
  .min(1, { error: 'validation.required' })
  .max(60, { error: 'validation.tooLong' })
  .regex(/^[A-Za-z][A-Za-z0-9_-]*$/, { error: 'acl.codeRule' });
const name = z.string({ error: 'validation.required' }).trim().min(1, { error: 'validation.required' }).max(120, { error: 'validation.tooLong' });
const description = z.string().trim().max(500, { error: 'validation.tooLong' }).default('');

/** An action, a module or a role, as its dialog sends it. */
export const catalogBody = z.object({ code, name, description });
export type CatalogBody = z.infer<typeof catalogBody>;

/** The whole of a role's rules: module code -> action codes. */
export const rulesBody = z.strictObject({
  granted: z.record(z.string().max(60), z.array(z.string().max(60)).max(100)).refine((g) => Object.keys(g).length <= 500),
});
export type RulesBody = z.infer<typeof rulesBody>;
export const noContent = z.null();
