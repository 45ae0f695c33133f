/** The notifications routes' schemas; responses from `core/api/comments.ts`, which the browser shares. */
import { z } from 'zod';

export { notificationListSchema, notificationPreferencesSchema as preferencesSchema, notificationSchema } from '../../../core/api/comments.js';
export { idParams } from '../../../core/api/list.js';
export const noContent = z.null();
export const readAllSchema = z.object({ unread: z.number() });
