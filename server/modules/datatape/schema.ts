/**
 * The data tape routes' request and response schemas. Responses and the
 * bodies the browser builds come from `core/api/datatape.ts`.
 */
import { z } from 'zod';

export {
  startTapeBody,
  tapeConfigBody,
  tapeConfigSchema,
  tapeExportListSchema,
  tapeExportSchema,
  tapeProtocolsSchema,
} from '../../../core/api/datatape.js';

export const protocolParams = z.strictObject({ protocolId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
/** An export's id: random, URL-safe (as the case exports'). */
export const exportParams = z.strictObject({ id: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, 'validation.invalid') });
