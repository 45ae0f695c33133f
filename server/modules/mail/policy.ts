/**
 * Who may do what in the outbox. Seeing the tenant's messages is
 * reenviarcorreos show (the routes declare it); resending one takes
 * reenviarcorreos update, an SMTP server to send through, and a message
 * that is failed or kept (a queued one is on its way, a sent one arrived).
 */
import type { MailActionName, MailState } from '../../../core/api/mail.js';
import { AppError } from '../../errors.js';
import { type Actor, can } from '../acl/policy.js';

export const resendable = (state: MailState) => state === 'failed' || state === 'kept';

export function mailActions(actor: Actor, m: { state: MailState }, smtpConfigured: boolean): MailActionName[] {
  return can(actor, 'reenviarcorreos', 'update') && smtpConfigured && resendable(m.state) ? ['resend'] : [];
}

/** Refuses a resend: FORBIDDEN without the right, MAIL_NOT_RESENDABLE for a queued or sent message or without SMTP. */
export function assertResend(actor: Actor, m: { state: MailState }, smtpConfigured: boolean): void {
  if (!can(actor, 'reenviarcorreos', 'update')) throw new AppError('FORBIDDEN');
  if (!smtpConfigured || !resendable(m.state)) throw new AppError('MAIL_NOT_RESENDABLE');
}
