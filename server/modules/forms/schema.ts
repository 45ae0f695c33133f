/**
 * The forms routes' request and response schemas. Responses and the bodies
 * the browser builds come from `core/api/forms.ts`, which the browser shares.
 */
import { z } from 'zod';
import { idParams } from '../../../core/api/list.js';

export {
  checkedValuesSchema,
  checkValuesBody,
  createFormBody,
  externalHostBody,
  externalHostSchema,
  fieldOptionsSchema,
  formListQuery,
  formListSchema,
  formViewSchema,
  saveFormBody,
} from '../../../core/api/forms.js';
export { idParams };

export const versionQuery = z.strictObject({ version: z.coerce.number().int().positive().optional() });
export const optionsParams = z.strictObject({ id: idParams.shape.id, field: z.string().max(63) });
export const optionsQuery = z.strictObject({ version: versionQuery.shape.version, parent: z.string().max(60).optional() });
export const noContent = z.null();
