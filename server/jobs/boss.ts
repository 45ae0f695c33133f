/**
 * Background jobs on pg-boss, in the same PostgreSQL (schema `pgboss`):
 * nothing more to run, and every job runs once however many instances are
 * up (pg-boss claims jobs with SKIP LOCKED; a schedule fires once per minute
 * across instances). Queues are declared here with their retry rules; the
 * handlers live with the module that owns the work (mail/outbox.ts,
 * workflow/engine.ts).
 *
 * A job is a pointer (an outbox message id, nothing for a sweep): its record
 * stays in our own tables, which remain the truth a person sees (the outbox
 * page), so a lost or duplicated job never loses or repeats a message.
 */
import { PgBoss } from 'pg-boss';
import { poolOf } from '../db/pool.js';
import type { Db } from '../db/pool.js';

export const QUEUES = {
  /** One outbox message to deliver: { id }. Retried with backoff; past the last try it lands in `mailFailed`. */
  mailSend: 'mail-send',
  /** A message that failed every try: the handler marks it failed in the outbox. */
  mailFailed: 'mail-failed',
  /** Every minute: queued messages without a job (a process stopped between commit and enqueue) get one. */
  mailSweep: 'mail-sweep',
  /** Every minute: tasks due soon are reminded, overdue ones flagged and escalated, each once (workflow/engine.ts sweepDeadlines). */
  overdueSweep: 'overdue-sweep',
  /** Every quarter hour: the daily digests of those whose 7:00 has come (notifications/commands.ts sendDigests). */
  digest: 'mail-digest',
} as const;

export interface JobRetry {
  /** Tries after the first. */
  retryLimit: number;
  /** Seconds before the first retry; doubled each time (pg-boss backoff). */
  retryDelay: number;
}

export interface JobsOptions {
  /** Deliver mail through the queue (needs SMTP_URL). */
  mail: boolean;
  /** Run the minute schedules (the sweeps). Tests that call sweeps themselves leave this off. */
  schedules: boolean;
  mailRetry?: JobRetry;
}

export type Handler = (data: Record<string, unknown>) => Promise<void>;

export interface Jobs {
  boss: PgBoss;
  send(queue: string, data: object, options?: { singletonKey?: string }): Promise<string | null>;
  stop(): Promise<void>;
}

const DEFAULT_MAIL_RETRY: JobRetry = { retryLimit: 5, retryDelay: 30 };

export async function startJobs(
  db: Db,
  options: JobsOptions,
  handlers: Partial<Record<(typeof QUEUES)[keyof typeof QUEUES], Handler>>,
  log: { warn(obj: object, msg: string): void },
): Promise<Jobs> {
  const { connectionString } = poolOf(db).options;
  const boss = new PgBoss({ connectionString, schema: 'pgboss', max: 4, useListenNotify: true });
  let stopping = false;
  // While stopping, its connections may be cut by the database stopping too (the embedded one): not an error.
  boss.on('error', (err) => {
    if (!stopping) log.warn({ err }, 'jobs: pg-boss error');
  });
  await boss.start();

  const retry = options.mailRetry ?? DEFAULT_MAIL_RETRY;
  await boss.createQueue(QUEUES.mailFailed);
  await boss.createQueue(QUEUES.mailSend, { retryLimit: retry.retryLimit, retryDelay: retry.retryDelay, retryBackoff: true, deadLetter: QUEUES.mailFailed, notify: true });
  await boss.createQueue(QUEUES.mailSweep, { policy: 'singleton' });
  await boss.createQueue(QUEUES.overdueSweep, { policy: 'singleton' });
  await boss.createQueue(QUEUES.digest, { policy: 'singleton' });

  // Jobs are fetched in batches, and fetched again at once while batches come full (a burst of mail after a
  // bulk change or the demo seed goes out in seconds, not one message per poll). Each job of a batch
  // succeeds or fails on its own: a failed one is failed by hand (and retried), the others complete.
  const work = async (queue: string, handler: Handler | undefined) => {
    if (!handler) return;
    await boss.work<Record<string, unknown>>(
      queue,
      { batchSize: 10, burstWhenBatchFull: true, pollingIntervalSeconds: 2, notifyPollingIntervalSeconds: 5 },
      async (jobs) => {
        for (const job of jobs) {
          try {
            await handler(job.data ?? {});
          } catch (err) {
            await boss.fail(queue, job.id, { message: String((err as Error)?.message ?? err) });
          }
        }
      },
    );
  };
  if (options.mail) {
    await work(QUEUES.mailSend, handlers[QUEUES.mailSend]);
    await work(QUEUES.mailFailed, handlers[QUEUES.mailFailed]);
    await work(QUEUES.mailSweep, handlers[QUEUES.mailSweep]);
  }
  if (options.schedules) {
    await work(QUEUES.overdueSweep, handlers[QUEUES.overdueSweep]);
    await boss.schedule(QUEUES.overdueSweep, '* * * * *');
    await work(QUEUES.digest, handlers[QUEUES.digest]);
    await boss.schedule(QUEUES.digest, '*/15 * * * *');
    if (options.mail) await boss.schedule(QUEUES.mailSweep, '* * * * *');
  }

  return {
    boss,
    send: (queue, data, sendOptions) => boss.send(queue, data, sendOptions?.singletonKey ? { singletonKey: sendOptions.singletonKey } : undefined),
    // In-flight handlers get a moment to finish; a job cut off is retried by the next instance (expiry).
    stop: async () => {
      stopping = true;
      await boss.stop({ graceful: true, timeout: 5_000 });
    },
  };
}
