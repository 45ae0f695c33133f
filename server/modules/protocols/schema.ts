/**
 * The protocols routes' request and response schemas. Responses, the list
 * query, the body and the export file come from `core/api/protocols.ts`
 * (the BPMN routes' from `core/api/protocolBpmn.ts`), which the browser
 * shares.
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
export { bpmnExportQuery, bpmnImportQuery, bpmnImportResultSchema } from '../../../core/api/protocolBpmn.js';

/** The types a BPMN file may be sent as (a browser sends a .bpmn file as application/octet-stream or with no type). */
export const BPMN_CONTENT_TYPES = ['application/xml', 'text/xml', 'application/bpmn+xml', 'application/octet-stream'];

export const noContent = z.null();
