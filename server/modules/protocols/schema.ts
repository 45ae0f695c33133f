/**
 * The protocols routes' request and response schemas. Responses, the list
 * query, the body and the export file come from `core/api/protocols.ts`,
 * which the browser shares.
 */
import { z } from 'zod';

export {
  protocolBodySchema,
  protocolDetailSchema,
  protocolFileSchema,
  protocolListQuery,
  protocolListSchema,
  protocolTasksQuery,
  protocolTaskOptionsSchema,
  protocolTasksSchema,
} from '../../../core/api/protocols.js';
export { idParams } from '../../../core/api/list.js';

export const noContent = z.null();
