/**
 * The tasks routes' request and response schemas. Responses and the list
 * filters come from `core/api/tasks.ts`, which the browser shares.
 */
import { z } from 'zod';
import { formDataSchema } from '../../../core/forms/data.js';
import { awardInputSchema } from '../../../core/api/payments.js';

export {
  caseTimelineSchema,
  decidedSchema,
  pendingListSchema,
  pendingQuerySchema,
  rejectedSchema,
  taskBulkResultSchema,
  taskDetailSchema,
  taskFiltersSchema,
  taskListSchema,
} from '../../../core/api/tasks.js';
export { idParams } from '../../../core/api/list.js';
export { adhocTaskSchema } from '../../../core/workflow/adhoc.js';

export const createdSchema = z.object({ id: z.number() });

const version = z.number().int().positive().optional();
export const saveDataBody = z.object({ data: formDataSchema, version });
export const savedSchema = z.object({ version: z.number() });
export const decideBody = z.object({
  data: formDataSchema.optional(),
  version,
  /** Issue 23: the award, when the task sets it (its template's `award: true`); ignored otherwise. */
  award: awardInputSchema.optional(),
});
export const rejectBody = decideBody.omit({ award: true }).extend({
  reason: z.string({ error: 'validation.required' }).trim().min(1, { error: 'validation.required' }).max(2000, { error: 'validation.tooLong' }),
});

const to = { userId: z.number().int().positive().optional(), teamId: z.number().int().positive().optional() };
export const assignBody = z.object(to).refine((b) => b.userId !== undefined || b.teamId !== undefined, { path: ['userId'], error: 'validation.chooseOption' });

const ids = z.array(z.number().int().positive()).min(1).max(200);
export const bulkAssignBody = z.object({ ids, ...to });
export const bulkRestartBody = z.object({ ids });
