/**
 * Mail: every message is written to the outbox table first (in the caller's
 * transaction, so it exists exactly when the change that caused it does).
 * With SMTP_URL set, a sender delivers queued messages and retries failures;
 * without it, messages stay in the outbox ('kept') for admins to read.
 */
import nodemailer, { type Transporter } from 'nodemailer';
import type { Db } from '../../db/pool.js';

export interface MailMessage {
  entityId: number | null;
  to: string;
  subject: string;
  text: string;
}

const MAX_ATTEMPTS = 5;

export async function queueMail(db: Db, message: MailMessage, smtpConfigured: boolean): Promise<number> {
  const row = await db
    .insertInto('mail_outbox')
    .values({
      entity_id: message.entityId,
      to_address: message.to,
      subject: message.subject,
      body_text: message.text,
      status: smtpConfigured ? 'queued' : 'kept',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export class MailSender {
  private transport: Transporter;
  private running: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Db,
    smtpUrl: string,
    private readonly from: string,
    private readonly log: (msg: string, err?: unknown) => void,
  ) {
    this.transport = nodemailer.createTransport(smtpUrl);
  }

  /** Deliver what is queued now; calls made while a round runs start one more round. */
  kick(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.deliverQueued();
      } while (this.again);
    })().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** Retries failed deliveries now and then. */
  startRetries(everyMs = 30_000): void {
    this.timer = setInterval(() => void this.kick(), everyMs);
    this.timer.unref();
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
    this.transport.close();
  }

  private async deliverQueued(): Promise<void> {
    for (;;) {
      const sent = await this.db.transaction().execute(async (trx) => {
        // SKIP LOCKED: several instances may deliver side by side.
        const row = await trx
          .selectFrom('mail_outbox')
          .selectAll()
          .where('status', '=', 'queued')
          .where('attempts', '<', MAX_ATTEMPTS)
          .orderBy('id')
          .limit(1)
          .forUpdate()
          .skipLocked()
          .executeTakeFirst();
        if (!row) return false;
        try {
          await this.transport.sendMail({ from: this.from, to: row.to_address, subject: row.subject, text: row.body_text });
          await trx.updateTable('mail_outbox').set({ status: 'sent', sent_at: new Date(), attempts: row.attempts + 1, last_error: null }).where('id', '=', row.id).execute();
        } catch (e) {
          const attempts = row.attempts + 1;
          this.log(`mail ${row.id} to ${row.to_address} failed (attempt ${attempts})`, e);
          await trx
            .updateTable('mail_outbox')
            .set({ attempts, last_error: String((e as Error).message).slice(0, 500), status: attempts >= MAX_ATTEMPTS ? 'failed' : 'queued' })
            .where('id', '=', row.id)
            .execute();
          return 'failed' as const;
        }
        return true;
      });
      if (sent === false || sent === 'failed') return;
    }
  }
}

