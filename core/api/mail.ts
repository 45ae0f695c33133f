/**
 * The mail outbox API's contract (`/configuracion/correos`, target
 * reenviarcorreos), shared by the server's routes and the browser.
 *
 * Every message the application sends is a row of the tenant's outbox:
 * queued (waiting for its job), sent, failed (every try failed; the reason
 * is kept) or kept (no SMTP server configured). A failed or kept message
 * may be resent: it goes back to the queue and is delivered once.
 */
import { z } from 'zod';
import { dayText, listQuery, listResponse } from './list.js';

export const MAIL_STATES = ['queued', 'sent', 'failed', 'kept'] as const;
export type MailState = (typeof MAIL_STATES)[number];

/** What an actor may do on one message (mail/policy.ts decides; the web shows buttons from it). */
export const MAIL_ACTIONS = ['resend'] as const;
export type MailActionName = (typeof MAIL_ACTIONS)[number];

export const outboxListQuery = listQuery(['created_at', 'sent_at', 'status', 'to_address']).extend({
  state: z.enum(MAIL_STATES).optional(),
  /** Part of the recipient's address. */
  recipient: z.string().trim().max(200).optional(),
  /** A case's number (exactly) or its id. */
  case: z.string().trim().min(1).max(60).optional(),
  /** Days of the tenant's time zone (YYYY-MM-DD), both ends included, on when the message was written. */
  from: dayText.optional(),
  to: dayText.optional(),
});
export type OutboxListQuery = z.infer<typeof outboxListQuery>;

export const outboxItemSchema = z.object({
  id: z.number(),
  to: z.string(),
  subject: z.string(),
  state: z.enum(MAIL_STATES),
  attempts: z.number(),
  lastError: z.string().nullable(),
  event: z.string().nullable(),
  caseId: z.number().nullable(),
  caseNumber: z.string().nullable(),
  createdAt: z.date(),
  sentAt: z.date().nullable(),
  actions: z.array(z.enum(MAIL_ACTIONS)),
});
export const outboxListSchema = listResponse(outboxItemSchema);

/** One message with its plain-text body (the HTML part is never shown as HTML). */
export const outboxMessageSchema = outboxItemSchema.extend({ bodyText: z.string() });
