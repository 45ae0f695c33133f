/**
 * The comments routes' request and response schemas. Responses, bodies and
 * the dashboard's filters come from `core/api/comments.ts`, which the
 * browser shares.
 */
import { z } from 'zod';

export {
  acceptDocumentSchema,
  checklistSchema,
  commentFiltersSchema,
  commentListSchema,
  commentSchema,
  commentThreadQuerySchema,
  commentThreadSchema,
  editCommentSchema,
  mentionablesSchema,
  mentionQuerySchema,
  newCommentSchema,
  quickCommentsSchema,
} from '../../../core/api/comments.js';
export { idParams } from '../../../core/api/list.js';

/** A case and one code of its checklist (a code of the `definiciones` master). */
export const checklistParams = z.strictObject({
  id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  code: z.string().trim().min(1).max(100),
});
export const noContent = z.null();
