/**
 * The files routes' request and response schemas. Responses come from
 * `core/api/files.ts`, which the browser shares.
 */
import { z } from 'zod';

export { fileLinkSchema, fileSchema } from '../../../core/api/files.js';

export const fileParams = z.strictObject({ id: z.uuid() });

/** A download link: the signed path parts and its query (exp, token). */
export const downloadParams = z.strictObject({ entity: z.string().max(120), file: z.string().max(80) });
export const downloadQuery = z.strictObject({
  exp: z.coerce.number().int().positive(),
  token: z.string().max(100),
  /** `inline=1`: shown in the page (a PDF or an image, by its checked type) instead of downloaded. */
  inline: z.enum(['1']).optional(),
});
