/**
 * The email templates routes' request and response schemas, all from
 * `core/api/templates.ts`, which the browser shares (the editor validates
 * with the same rules).
 */
import { z } from 'zod';

export {
  templateBody,
  templateCaseOptionSchema,
  templateCaseOptionsQuery,
  templateListQuery,
  templateListSchema,
  templatePreviewBody,
  templatePreviewSchema,
  templateSchema,
  templateTestBody,
  templateTestSchema,
  templateUpdateBody,
} from '../../../core/api/templates.js';
export { idParams } from '../../../core/api/list.js';

export const noContent = z.null();
