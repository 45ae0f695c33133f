/**
 * The cases routes' request and response schemas. Responses and the list
 * filters come from `core/api/cases.ts`, which the browser shares.
 */
import { z } from 'zod';
import { caseFiltersSchema } from '../../../core/api/cases.js';
import { listQuery } from '../../../core/api/list.js';
import { formDataSchema } from '../../../core/forms/data.js';

export {
  bulkResultSchema,
  caseCountSchema,
  caseDetailSchema,
  caseEventSchema,
  caseExportSchema,
  caseItemSchema,
  caseListSchema,
  correctionSchema,
  draftSchema,
  newOptionsSchema,
  publicStatusesQuery,
  publicStatusesSchema,
  publicTimelineSchema,
  resubmitCorrectionBody,
  returnForCorrectionBody,
  savedSearchSchema,
} from '../../../core/api/cases.js';
export { idParams } from '../../../core/api/list.js';

/** The list's filters without paging: what a count, an export and a saved search take. */
export const filtersOnly = caseFiltersSchema.omit({ page: true, limit: true, sortBy: true, descending: true });
export type FiltersOnly = z.infer<typeof filtersOnly>;

export const pageQuery = caseFiltersSchema.extend({
  /** false: no count; the screens ask …/count once per filter instead of once per page. */
  count: z.enum(['true', 'false']).transform((v) => v === 'true').default(true),
});

/** An export takes the list's filters and sort. */
export const exportQuery = caseFiltersSchema.omit({ page: true, limit: true });
export type ExportQuery = z.infer<typeof exportQuery>;
export const exportFileQuery = exportQuery.extend({ format: z.enum(['csv', 'xlsx']).default('csv') });
export const startExportBody = z.strictObject({ format: z.enum(['csv', 'xlsx']), query: exportQuery.default({}) });
export const exportParams = z.strictObject({ id: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, 'validation.invalid') });

export const draftsQuery = listQuery(['updated_at']);
export const newDraftBody = z.object({ protocolId: z.number().int().positive(), data: formDataSchema.default({}) });
export const saveDraftBody = z.object({ data: formDataSchema, version: z.number().int().positive().optional() });
export const savedDraftSchema = z.object({ version: z.number(), updatedAt: z.date() });
export const submitDraftBody = z.object({ data: formDataSchema.optional() });
export const submittedSchema = z.object({ id: z.number(), number: z.string() });

const reason = z.string().trim().max(2000);
export const transitionBody = z.object({ reason: reason.optional() }).optional();
export const stateSchema = z.object({ state: z.string() });
export const correctDataBody = z.object({ data: formDataSchema, version: z.number().int().positive() });
export const versionSchema = z.object({ version: z.number() });
export const ownerBody = z.object({ userId: z.number().int().positive() });
export const ownerSchema = z.object({ ownerId: z.number() });
export const participantsBody = z.object({ userIds: z.array(z.number().int().positive()).max(50) });
export const participantsSchema = z.object({ userIds: z.array(z.number()) });

const bulkIds = z.object({ ids: z.array(z.number().int().positive()).min(1).max(500) });
export const bulkCloseBody = bulkIds.extend({ reason: reason.optional() });
export const bulkReassignBody = bulkIds.extend({ userId: z.number().int().positive() });

export const saveSearchBody = z.object({
  name: z.string({ error: 'validation.required' }).trim().min(1, { error: 'validation.required' }).max(100, { error: 'validation.tooLong' }),
  query: z.record(z.string().max(40), z.union([z.string().max(20_000), z.array(z.string().max(100)).max(20)])),
});
export const noContent = z.null();
