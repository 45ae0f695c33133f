/**
 * The masters routes' request and response schemas. Responses and the list
 * queries come from `core/api/masters.ts`, which the browser shares.
 */
import { z } from 'zod';

export {
  masterImportSchema,
  masterItemListQuery,
  masterItemListSchema,
  masterItemSchema,
  masterListQuery,
  masterListSchema,
  masterSchema,
  publicMasterSchema,
} from '../../../core/api/masters.js';

export const codeParam = z.string().regex(/^[a-z][a-z0-9_-]{0,62}$/, 'masters.badCode');
export const codeParams = z.strictObject({ code: codeParam });
export const itemParams = z.strictObject({ code: codeParam, id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

const name = z.string({ error: 'validation.required' }).trim().min(1, { error: 'validation.required' }).max(300, { error: 'validation.tooLong' });

export const masterBody = z.object({
  code: codeParam,
  name,
  description: z.string().trim().max(1000, { error: 'validation.tooLong' }).default(''),
  public: z.boolean().default(false),
  parentCode: codeParam.nullable().default(null),
});
export type MasterBody = z.infer<typeof masterBody>;

/** An item, as the item dialog and each row of a CSV import give it. */
export const itemBody = z.object({
  code: z.string({ error: 'validation.required' }).trim().min(1, { error: 'validation.required' }).max(60, { error: 'validation.tooLong' }),
  name,
  nameEn: z.string().trim().max(500, { error: 'validation.tooLong' }).default(''),
  parentCode: z.string().trim().max(60).nullable().default(null),
  active: z.boolean().default(true),
  extra: z.record(z.string().max(60), z.union([z.string().max(1000), z.number(), z.boolean(), z.null()])).refine((o) => Object.keys(o).length <= 30).default({}),
});
export type ItemBody = z.infer<typeof itemBody>;

/** CSV uploads: the raw file as a text/csv body. */
export const MAX_IMPORT_BYTES = 10 * 1024 * 1024;
export const importQuery = z.strictObject({ dryRun: z.enum(['true', 'false']).transform((v) => v === 'true').default(false) });

export const publicParams = z.strictObject({ entity: z.string().max(40), code: codeParam });
export const publicQuery = z.strictObject({ parent: z.string().max(60).optional() });
export const noContent = z.null();
