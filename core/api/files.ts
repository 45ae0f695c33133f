/**
 * The files API's contract, shared by the server (its routes validate and
 * serialise with these) and the browser (which takes its types from them
 * through `Wire`).
 */
import { z } from 'zod';

/** An uploaded file as POST /api/files answers it. */
export const fileSchema = z.object({ id: z.string(), name: z.string(), extension: z.string(), size: z.number(), public: z.boolean(), createdAt: z.date() });

/** GET /api/files/:id/link: a download link valid for a few minutes. */
export const fileLinkSchema = z.object({ url: z.string(), expiresAt: z.date() });
