/**
 * The mail outbox routes' request and response schemas, all from
 * `core/api/mail.ts`, which the browser shares.
 */
export { outboxItemSchema, outboxListQuery, outboxListSchema, outboxMessageSchema } from '../../../core/api/mail.js';
export { idParams } from '../../../core/api/list.js';
