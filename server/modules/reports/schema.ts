/**
 * The reports routes' request and response schemas. Everything the browser
 * builds or reads comes from `core/api/reports.ts`, which it shares.
 */
import { z } from 'zod';

export {
  caseCommentsQuery,
  caseCommentsSchema,
  caseRowsQuery,
  caseRowsSchema,
  dashboardSchema,
  exportQueries,
  pivotQueries,
  pivotSchema,
  savedReportBody,
  savedReportListSchema,
  savedReportSchema,
  savedReportsQuery,
  taskRowsQuery,
  taskRowsSchema,
  userActionsQuery,
  userActionsSchema,
} from '../../../core/api/reports.js';
export { idParams } from '../../../core/api/list.js';

export const noContent = z.null();
