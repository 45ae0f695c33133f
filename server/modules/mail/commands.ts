/**
 * The outbox's verb: resend a failed (or kept) message. It goes back to the
 * queue (requeueMail, which only moves a failed or kept message of the
 * tenant, so two resends at once queue it once); the caller then gives it a
 * job (app.mailer.kick()).
 */
import type { Db } from '../../db/pool.js';
import { AppError } from '../../errors.js';
import type { Actor } from '../acl/policy.js';
import { requeueMail } from './outbox.js';
import { assertResend } from './policy.js';
import { messageState } from './repo.js';

export async function resendMessage(db: Db, actor: Actor, id: number, smtpConfigured: boolean): Promise<void> {
  const state = await messageState(db, actor, id);
  assertResend(actor, { state }, smtpConfigured);
  // Another resend (or the job) may have moved it since it was read: requeueMail decides.
  if (!(await requeueMail(db, actor.entityId, id))) throw new AppError('MAIL_NOT_RESENDABLE');
}
