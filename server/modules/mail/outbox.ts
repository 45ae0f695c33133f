/**
 * Mail: every message is written to the outbox table first (in the caller's
 * transaction, so it exists exactly when the change that caused it does).
 * With SMTP_URL set, each queued message gets a job (server/jobs/boss.ts,
 * queue `mail-send`) that delivers it; without it, messages stay in the
 * outbox ('kept') for admins to read.
 *
 * Delivering is idempotent: the job locks its message, sends it only while
 * it is 'queued', and marks it sent in the same transaction. Every send
 * carries the message's own Message-ID, so a send repeated after a crash
 * between the SMTP answer and the commit is the same message to the
 * receiving server. A failed try is recorded (attempts, last error) and the
 * job is retried with backoff; after the last try the message is 'failed',
 * with its reason, until someone resends it.
 */
import nodemailer, { type Transporter } from 'nodemailer';
import { sql, type Transaction } from 'kysely';
import type { Db } from '../../db/pool.js';
import type { Database } from '../../db/types.js';

export interface MailMessage {
  entityId: number | null;
  to: string;
  subject: string;
  text: string;
  html?: string | null;
  /** What the message is about, for the outbox page's filters. */
  caseId?: number | null;
  userId?: number | null;
  event?: string | null;
  /** A print template whose PDF for `caseId`, in `language`, is made and attached when the message is delivered. */
  attachPrint?: { templateId: number; language: 'en' | 'es' } | null;
}

/** A file sent with a message. */
export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

/**
 * Makes the attachments of a message at delivery: the case's PDF printed
 * with the message's print template, as the system of its tenant. Null when
 * that template or case is gone (the message goes without it); throws on a
 * passing fault (the delivery is retried).
 */
export type AttachmentMaker = (m: { entityId: number; caseId: number; templateId: number; language: 'en' | 'es' }) => Promise<MailAttachment | null>;

export async function queueMail(db: Db | Transaction<Database>, message: MailMessage, smtpConfigured: boolean): Promise<number> {
  const row = await db
    .insertInto('mail_outbox')
    .values({
      entity_id: message.entityId,
      to_address: message.to,
      subject: message.subject,
      body_text: message.text,
      body_html: message.html ?? null,
      case_id: message.caseId ?? null,
      user_id: message.userId ?? null,
      event: message.event ?? null,
      print_template_id: message.caseId && message.attachPrint ? message.attachPrint.templateId : null,
      print_language: message.caseId && message.attachPrint ? message.attachPrint.language : null,
      status: smtpConfigured ? 'queued' : 'kept',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Most jobs made by one enqueue round (the next round takes the rest). */
const ENQUEUE_BATCH = 500;

export class MailDelivery {
  private transport: Transporter;

  constructor(
    private readonly db: Db,
    smtpUrl: string,
    private readonly from: string,
    private readonly host: string,
    private readonly log: (msg: string, err?: unknown) => void,
    private readonly makeAttachment: AttachmentMaker | null = null,
  ) {
    this.transport = nodemailer.createTransport(smtpUrl);
  }

  /**
   * Gives a job to queued messages: after a commit that queued mail (`kick`)
   * and every minute (the sweep). Returns how many jobs were made.
   *
   * New messages (no job yet) are claimed in one statement with SKIP LOCKED,
   * so that instances kicking at once split them rather than each making a
   * job for every one, and their jobs are inserted in one call with ids
   * chosen here. A process that dies between the two leaves job ids that name
   * no job: the sweep (`recheck`) finds those, and jobs that ended with the
   * message still queued, among messages unchanged for a minute, and gives
   * them a job again.
   */
  async enqueuePending(
    insert: (jobs: Array<{ id: string; data: { id: number } }>) => Promise<unknown>,
    jobAlive: (jobId: string) => Promise<boolean>,
    options: { recheck?: boolean } = {},
  ): Promise<number> {
    let made = 0;
    for (;;) {
      const claimed = await this.db
        .updateTable('mail_outbox')
        .set({ job_id: sql<string>`gen_random_uuid()::text`, updated_at: new Date() })
        .where('id', 'in', (eb) =>
          eb.selectFrom('mail_outbox').select('id').where('status', '=', 'queued').where('job_id', 'is', null).orderBy('id').limit(ENQUEUE_BATCH).forUpdate().skipLocked(),
        )
        .returning(['id', 'job_id'])
        .execute();
      if (claimed.length) await insert(claimed.map((r) => ({ id: r.job_id as string, data: { id: r.id } })));
      made += claimed.length;
      if (claimed.length < ENQUEUE_BATCH) break;
    }
    if (!options.recheck) return made;
    const stale = await this.db
      .selectFrom('mail_outbox')
      .select(['id', 'job_id'])
      .where('status', '=', 'queued')
      .where('job_id', 'is not', null)
      .where('updated_at', '<', sql<Date>`now() - interval '1 minute'`)
      .orderBy('id')
      .limit(ENQUEUE_BATCH)
      .execute();
    const lost: number[] = [];
    for (const row of stale) if (!(await jobAlive(row.job_id as string))) lost.push(row.id);
    if (lost.length) {
      // Back to "no job" (unless sent or changed meanwhile), then claimed like new ones.
      await this.db.updateTable('mail_outbox').set({ job_id: null }).where('id', 'in', lost).where('status', '=', 'queued').where('updated_at', '<', sql<Date>`now() - interval '1 minute'`).execute();
      made += await this.enqueuePending(insert, jobAlive);
    }
    return made;
  }

  /** The `mail-send` job: delivers one message once; throws on a failed try so the job is retried. */
  async deliver(id: number): Promise<'sent' | 'skipped'> {
    try {
      return await this.db.transaction().execute(async (trx) => {
        // A second job for the same message (a sweep raced a commit) waits for the first and then finds it
        // sent. Not SKIP LOCKED: the lock may be the enqueue round's own brief update of job_id, and
        // skipping then would complete the job with the message still queued until the minute sweep.
        const row = await trx.selectFrom('mail_outbox').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
        if (!row || row.status !== 'queued') return 'skipped' as const;
        const attachment =
          row.print_template_id && row.case_id && row.entity_id && this.makeAttachment
            ? await this.makeAttachment({ entityId: row.entity_id, caseId: row.case_id, templateId: row.print_template_id, language: row.print_language ?? 'en' })
            : null;
        if (row.print_template_id && !attachment) this.log(`mail ${id}: its print template or case is gone; sent without the attachment`);
        await this.transport.sendMail({
          from: this.from,
          to: row.to_address,
          subject: row.subject,
          text: row.body_text,
          ...(row.body_html ? { html: row.body_html } : {}),
          messageId: `<outbox-${row.id}@${this.host}>`,
          ...(attachment ? { attachments: [attachment] } : {}),
        });
        await trx
          .updateTable('mail_outbox')
          .set({ status: 'sent', sent_at: new Date(), attempts: row.attempts + 1, last_error: null, updated_at: new Date() })
          .where('id', '=', row.id)
          .execute();
        return 'sent' as const;
      });
    } catch (e) {
      const message = String((e as Error).message ?? e).slice(0, 500);
      this.log(`mail ${id} could not be delivered; the job will retry`, e);
      await this.db
        .updateTable('mail_outbox')
        .set((eb) => ({ attempts: eb('attempts', '+', 1), last_error: message, updated_at: new Date() }))
        .where('id', '=', id)
        .where('status', '=', 'queued')
        .execute();
      throw e;
    }
  }

  /** The dead letter of `mail-send`: every try failed; the message waits, failed with its reason, for a resend. */
  async markFailed(id: number): Promise<void> {
    await this.db.updateTable('mail_outbox').set({ status: 'failed', job_id: null, updated_at: new Date() }).where('id', '=', id).where('status', '=', 'queued').execute();
  }

  close(): void {
    this.transport.close();
  }
}

/** Puts a failed (or kept) message back in the queue; the caller enqueues it. False when it was not the tenant's or is already queued or sent. */
export async function requeueMail(db: Db, entityId: number, id: number): Promise<boolean> {
  const res = await db
    .updateTable('mail_outbox')
    .set({ status: 'queued', attempts: 0, last_error: null, job_id: null, updated_at: new Date() })
    .where('id', '=', id)
    .where('entity_id', '=', entityId)
    .where('status', 'in', ['failed', 'kept'])
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}
