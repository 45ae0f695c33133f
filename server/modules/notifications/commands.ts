/**
 * What happens when something happens to someone (issue 16): `notify` is
 * called, inside the caller's transaction, by the commands that cause an
 * event (the task engine, a case's change of state, a comment, the deadline
 * sweep). Each recipient gets an in-app notification (the bell hears it
 * through the realtime trigger on `notifications`), and, when they chose the
 * event for email and do not take it in their daily digest, a message
 * queued in the outbox: the tenant's template for the event (or the one the
 * protocol task chose), filled with the case's facts in the recipient's
 * language, due dates in the recipient's time zone. It all commits with the
 * cause or not at all; the mail job delivers after the commit.
 *
 * `sendDigests` is the daily job: one message per person who chose the
 * digest, at 7:00 their time, listing their due and overdue tasks and the
 * mentions since the last one; `digest_sent_at` is moved in the same
 * transaction as the message is queued, so it goes out once a day however
 * many instances run the job.
 */
import type { Transaction } from 'kysely';
import { DIGESTED_KINDS, type NotificationKind, type NotificationPreferences } from '../../../core/api/comments.js';
import type { MailEvent, TemplateLanguage } from '../../../core/api/templates.js';
import { formatDateTime } from '../../../core/dates.js';
import type { PlaceholderValues } from '../../../core/templates/render.js';
import type { Db } from '../../db/pool.js';
import type { Database } from '../../db/types.js';
import { translate } from '../../i18n.js';
import type { Actor } from '../acl/policy.js';
import { queueMail } from '../mail/outbox.js';
import { renderTemplate } from '../templates/commands.js';
import { caseNoticeFacts, digestCandidates, programmeFacts, digestContents, insertNotifications, markDigestSent, type NoticeRecipient, recipientsOf, savePreferences, taskNoticeFacts } from './repo.js';
import { localName } from '../../lib/localName.js';

type Trx = Transaction<Database>;

/** What the notifications need from the application: where its pages are, and whether mail can go out. */
export interface NotifyEnv {
  publicUrl: string;
  smtpConfigured: boolean;
}

export interface Notice {
  event: NotificationKind;
  entityId: number;
  caseId: number;
  taskId?: number | null;
  commentId?: number | null;
  /** Who caused it (not notified of their own doing, unless `notifyDoer`). */
  byUserId?: number | null;
  /** Tell the one who caused it too (an applicant hears that their own application arrived). */
  notifyDoer?: boolean;
  /** The people to tell (inactive ones and the one who caused it are left out). */
  to: number[];
  /** The page the mail's link opens (a path under PUBLIC_URL); the task's or the case's page otherwise. */
  link?: string;
  /** The template the protocol task chose for this event; the event's default otherwise. */
  templateId?: number;
  /** Event facts the case does not hold: the reason of a return, the comment, who mentioned. */
  reason?: string | null;
  comment?: string | null;
  mentionedBy?: string | null;
}

const DIGESTED: ReadonlySet<NotificationKind> = new Set(DIGESTED_KINDS);

/** Whether `r` takes this event by email now (not in the digest, not turned off). */
export function wantsEmail(r: Pick<NoticeRecipient, 'emailEvents' | 'digest'>, event: NotificationKind): boolean {
  return r.emailEvents.includes(event) && !(r.digest && DIGESTED.has(event));
}

/** Tells the notice's recipients, in the caller's transaction. Returns how many messages were queued. */
export async function notify(trx: Trx, env: NotifyEnv, notice: Notice): Promise<number> {
  const ids = [...new Set(notice.to)].filter((id) => notice.notifyDoer || id !== notice.byUserId);
  if (ids.length === 0) return 0;
  const recipients = await recipientsOf(trx, notice.entityId, ids);
  if (recipients.length === 0) return 0;
  await insertNotifications(
    trx,
    recipients.map((r) => ({
      entityId: notice.entityId,
      userId: r.id,
      kind: notice.event,
      caseId: notice.caseId,
      taskId: notice.taskId ?? null,
      commentId: notice.commentId ?? null,
      byUserId: notice.byUserId ?? null,
      detail: notice.reason ?? null,
    })),
  );
  const mailed = recipients.filter((r) => wantsEmail(r, notice.event));
  if (mailed.length === 0) return 0;

  const c = await caseNoticeFacts(trx, notice.entityId, notice.caseId);
  const task = notice.taskId ? await taskNoticeFacts(trx, notice.entityId, notice.taskId) : null;
  const link = notice.link ? `${env.publicUrl}${notice.link}` : task ? `${env.publicUrl}/tasks/${task.id}` : `${env.publicUrl}/cases/${c.id}`;
  for (const r of mailed) {
    const language: TemplateLanguage = r.language;
    const values: PlaceholderValues = {
      recipientName: r.name,
      caseNumber: c.serial ?? `#${c.id}`,
      caseState: translate(language, `states.${c.state}`),
      applicantName: `${c.firstName} ${c.lastName}`.trim(),
      applicantFirstName: c.firstName,
      applicantLastName: c.lastName,
      applicantEmail: c.email,
      taskName: task ? localName(language, task.name, task.nameEn) : '',
      dueDate: task?.dueAt ? formatDateTime(task.dueAt, r.timeZone) : '',
      responsibleName: task?.responsible ?? '',
      teamName: task?.team ?? '',
      reason: notice.reason ?? '',
      comment: notice.comment ?? '',
      mentionedBy: notice.mentionedBy ?? '',
      recordLink: link,
      programTitle: c.title,
      supportPhone: c.supportPhone,
      supportEmail: '',
    };
    const mail = await renderTemplate(trx, notice.entityId, notice.event as MailEvent, language, values, notice.templateId);
    await queueMail(
      trx,
      {
        entityId: notice.entityId,
        to: r.email,
        subject: mail.subject,
        html: mail.html,
        text: mail.text,
        caseId: c.id,
        userId: r.id,
        event: notice.event,
        attachPrint: mail.printTemplateId ? { templateId: mail.printTemplateId, language } : null,
      },
      env.smtpConfigured,
    );
  }
  return mailed.length;
}

/** What a bulk import tells: each assignee once (`tasks_imported`, how many tasks), and its importer when it ends (`import_done`). */
export interface ImportNotice {
  event: 'tasks_imported' | 'import_done';
  entityId: number;
  importId: number;
  fileName: string;
  byUserId: number | null;
  /** Per recipient, the count the notice carries (tasks given to them, or cases created). */
  counts: Map<number, number>;
  /** For `import_done`: what else to say (rows rejected, nothing imported), per language. */
  note?: (language: TemplateLanguage) => string;
}

/** Tells the recipients of an import notice, in the caller's transaction (a few statements for any number of recipients). */
export async function notifyImport(trx: Trx, env: NotifyEnv, notice: ImportNotice): Promise<number> {
  const ids = [...notice.counts.keys()].filter((id) => notice.event === 'import_done' || id !== notice.byUserId);
  if (ids.length === 0) return 0;
  const recipients = await recipientsOf(trx, notice.entityId, ids);
  await insertNotifications(
    trx,
    recipients.map((r) => ({
      entityId: notice.entityId, userId: r.id, kind: notice.event, caseId: null, commentId: null,
      byUserId: notice.byUserId, detail: notice.fileName, importId: notice.importId, count: notice.counts.get(r.id) ?? 0,
    })),
  );
  const mailed = recipients.filter((r) => wantsEmail(r, notice.event));
  if (mailed.length === 0) return 0;
  const project = await programmeFacts(trx, notice.entityId);
  for (const r of mailed) {
    const mail = await renderTemplate(trx, notice.entityId, notice.event, r.language, {
      recipientName: r.name,
      count: String(notice.counts.get(r.id) ?? 0),
      fileName: notice.fileName,
      reason: notice.note?.(r.language) ?? '',
      recordLink: notice.event === 'import_done' ? `${env.publicUrl}/cases/imports` : `${env.publicUrl}/pendings`,
      programTitle: project.title,
      supportPhone: project.supportPhone,
    });
    await queueMail(trx, { entityId: notice.entityId, to: r.email, subject: mail.subject, html: mail.html, text: mail.text, userId: r.id, event: notice.event }, env.smtpConfigured);
  }
  return mailed.length;
}

/**
 * A notice about the tenant rather than a case (a webhook subscription turned
 * off): the bell's row for each recipient (`detail` says which) and, as each
 * chose, the event's template by email with a link to `link`.
 */
export interface TenantNotice {
  event: 'webhook_disabled';
  entityId: number;
  to: number[];
  detail: string;
  /** The page the mail's link opens (a path under PUBLIC_URL). */
  link: string;
}

/** Tells the recipients of a tenant notice, in the caller's transaction. Returns how many messages were queued. */
export async function notifyTenant(trx: Trx, env: NotifyEnv, notice: TenantNotice): Promise<number> {
  const ids = [...new Set(notice.to)];
  if (ids.length === 0) return 0;
  const recipients = await recipientsOf(trx, notice.entityId, ids);
  await insertNotifications(
    trx,
    recipients.map((r) => ({ entityId: notice.entityId, userId: r.id, kind: notice.event, caseId: null, commentId: null, byUserId: null, detail: notice.detail })),
  );
  const mailed = recipients.filter((r) => wantsEmail(r, notice.event));
  if (mailed.length === 0) return 0;
  const project = await programmeFacts(trx, notice.entityId);
  for (const r of mailed) {
    const mail = await renderTemplate(trx, notice.entityId, notice.event, r.language, {
      recipientName: r.name,
      reason: notice.detail,
      recordLink: `${env.publicUrl}${notice.link}`,
      programTitle: project.title,
      supportPhone: project.supportPhone,
    });
    await queueMail(trx, { entityId: notice.entityId, to: r.email, subject: mail.subject, html: mail.html, text: mail.text, userId: r.id, event: notice.event }, env.smtpConfigured);
  }
  return mailed.length;
}

/** Saves the actor's own choice of email events and digest. */
export async function setPreferences(db: Db, actor: Actor, prefs: NotificationPreferences): Promise<NotificationPreferences> {
  const emailEvents = [...new Set(prefs.emailEvents)];
  await savePreferences(db, actor, { emailEvents, digest: prefs.digest });
  return { emailEvents, digest: prefs.digest };
}

/** The hour of the day (in the person's time zone) the digest goes out. */
export const DIGEST_HOUR = 7;

/**
 * Queues the daily digest of everyone who chose it and whose local time is
 * past DIGEST_HOUR on a day they have not had one yet. Each person in a
 * transaction of their own, their row locked (SKIP LOCKED: two instances
 * share the work, never send twice). Returns how many digests were queued.
 */
export async function sendDigests(db: Db, env: NotifyEnv, now = new Date(), limit = 200): Promise<number> {
  let sent = 0;
  for (const candidate of await digestCandidates(db, now, DIGEST_HOUR, limit)) {
    const queued = await db.transaction().execute(async (trx) => {
      const contents = await digestContents(trx, candidate, now);
      // Locked by another instance, or already sent today: nothing to do.
      if (!contents) return false;
      await markDigestSent(trx, candidate.id, now);
      if (contents.tasks.length === 0 && contents.mentions.length === 0) return false;
      const language = contents.recipient.language;
      const t = (key: string, params: Record<string, unknown> = {}) => translate(language, `mail.digest.${key}`, params);
      const lines = [
        ...contents.tasks.map((k) =>
          t(k.overdue ? 'overdueLine' : 'dueLine', { task: localName(language, k.name, k.nameEn), number: k.serial ?? `#${k.caseId}`, due: k.dueAt ? formatDateTime(k.dueAt, contents.recipient.timeZone) : '' }),
        ),
        ...contents.mentions.map((m) => t('mentionLine', { name: m.byName ?? '', number: m.serial ?? `#${m.caseId}` })),
      ];
      const mail = await renderTemplate(trx, candidate.entityId, 'digest', language, {
        recipientName: contents.recipient.name,
        taskList: lines.join('\n'),
        recordLink: `${env.publicUrl}/tasks`,
        programTitle: contents.programTitle,
        supportPhone: contents.supportPhone,
      });
      await queueMail(trx, { entityId: candidate.entityId, to: contents.recipient.email, subject: mail.subject, html: mail.html, text: mail.text, userId: candidate.id, event: 'digest' }, env.smtpConfigured);
      return true;
    });
    if (queued) sent++;
  }
  return sent;
}
