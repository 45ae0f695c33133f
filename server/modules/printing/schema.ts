/**
 * The print templates routes' request and response schemas, from
 * `core/api/printing.ts`, which the browser shares.
 */
import { z } from 'zod';

export {
  casePrintOptionsSchema,
  printCaseOptionSchema,
  printCaseOptionsQuery,
  printCaseParams,
  printSourcesQuery,
  printSourcesSchema,
  printTemplateCreateBody,
  printTemplateListQuery,
  printTemplateListSchema,
  printTemplateSchema,
  printTemplateUpdateBody,
} from '../../../core/api/printing.js';
export { idParams } from '../../../core/api/list.js';

export const noContent = z.null();
/** The PDF answered by a print. */
export const pdfAnswer = z.any().describe('application/pdf');
