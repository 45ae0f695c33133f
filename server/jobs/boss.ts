/**
 * Background jobs on pg-boss, in the same PostgreSQL (schema `pgboss`):
 * nothing more to run, and every job runs once however many instances are
 * up (pg-boss claims jobs with SKIP LOCKED; a schedule fires once per minute
 * across instances). Queues are declared here with their retry rules; the
 * handlers live with the module that owns the work (mail/outbox.ts,
 * workflow/engine.ts, cases/import.ts, cases/export.ts, datatape/export.ts).
 *
 * A job is a pointer (an outbox message id, an import or export id, nothing
 * for a sweep): its record stays in our own tables, which remain the truth a
 * person sees (the outbox page, an import's progress), so a lost or
 * duplicated job never loses or repeats a message or a case.
 */
import { PgBoss } from 'pg-boss';
import { poolOf } from '../db/pool.js';
import type { Db } from '../db/pool.js';
import { AppError } from '../errors.js';

export const QUEUES = {
  /** One outbox message to deliver: { id }. Retried with backoff; past the last try it lands in `mailFailed`. */
  mailSend: 'mail-send',
  /** A message that failed every try: the handler marks it failed in the outbox. */
  mailFailed: 'mail-failed',
  /** Every minute: queued messages without a job (a process stopped between commit and enqueue) get one. */
  mailSweep: 'mail-sweep',
  /** Every minute: tasks due soon are reminded, overdue ones flagged and escalated, each once (workflow/engine.ts sweepDeadlines). */
  overdueSweep: 'overdue-sweep',
  /** Every minute: the request limits' ended windows are deleted (plugins/rate-limit-store.ts sweepRateLimits). */
  rateLimitSweep: 'rate-limit-sweep',
  /** Every minute: sessions past their hours or idle too long are deleted; the delete tells every instance to close their sockets (migration 0014). */
  sessionSweep: 'session-sweep',
  /** Every minute: parties of cases (issue 23) reminded every remindEveryDays and expired at their deadline (parties/commands.ts sweepParties). */
  partySweep: 'party-sweep',
  /** Every quarter hour: the daily digests of those whose 7:00 has come (notifications/commands.ts sendDigests). */
  digest: 'mail-digest',
  /**
   * One CSV import to run: { id, userId, lang } (cases/import.ts). Resumable (rows whose external
   * reference exists are skipped), so retried a few times with backoff; one job at a time per import.
   */
  caseImport: 'case-import',
  /** An import whose every try failed or was cut off: the handler marks it interrupted. */
  caseImportFailed: 'case-import-failed',
  /** One background export of the case list: { id, userId, query } (cases/export.ts); redone once. */
  caseExport: 'case-export',
  /** An export whose every try failed or was cut off: the handler marks it failed. */
  caseExportFailed: 'case-export-failed',
  /** One data tape file of a protocol: { id, userId } (datatape/export.ts); redone once, from the start. */
  dataTape: 'data-tape',
  /** A data tape whose every try failed or was cut off: the handler marks it failed. */
  dataTapeFailed: 'data-tape-failed',
  /**
   * Send the webhook deliveries that are due (webhooks/deliver.ts): no data, one queued and one running at a time
   * (`stately`), sent after each commit that made deliveries (a NOTIFY the instances hear) and by the minute sweep.
   * Each delivery is claimed with SKIP LOCKED and retried by its own row's backoff, not by the job's.
   */
  webhookSend: 'webhook-send',
  /** Every minute: start a sender for retries falling due (and anything a lost NOTIFY missed). */
  webhookSweep: 'webhook-sweep',
} as const;

export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

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
  /** Run the CSV import and export of cases and the data tape (the server does; so do the tests of import and export). */
  cases?: boolean;
  /** Send webhook deliveries (the server does; so do the webhook tests that go through the jobs). */
  webhooks?: boolean;
  mailRetry?: JobRetry;
}

/** Which try of its job a handler is running. */
export interface Attempt {
  /** 0 on the first try. */
  retryCount: number;
  /** No retry follows if this one fails: a handler that keeps a record says so on it now. */
  lastTry: boolean;
  /** Aborted when pg-boss finds this try's claim gone (it expired or missed its heartbeat): stop, touch nothing. */
  signal?: AbortSignal;
}

export type Handler = (data: Record<string, unknown>, attempt: Attempt) => Promise<void>;

export interface Jobs {
  boss: PgBoss;
  options: JobsOptions;
  /** `startAfter`: seconds from now before the job may run. */
  send(queue: string, data: object, options?: { singletonKey?: string; startAfter?: number }): Promise<string | null>;
  stop(): Promise<void>;
}

const DEFAULT_MAIL_RETRY: JobRetry = { retryLimit: 5, retryDelay: 30 };
/** An import resumes where its last try stopped: a few tries, 10 s, 20 s, 40 s apart (with jitter). */
const CASE_IMPORT_RETRY: JobRetry = { retryLimit: 3, retryDelay: 10 };
/** An export is simply redone, once. */
const CASE_EXPORT_RETRY: JobRetry = { retryLimit: 1, retryDelay: 5 };
/**
 * A running import or export sends a heartbeat (pg-boss, every 30 s): a try whose process died is retried (or dead-lettered)
 * within a minute or two, while a long one (20,000 rows) is not cut off; the expiry is only a bound.
 */
const CASE_JOB = { heartbeatSeconds: 30, expireInSeconds: 4 * 3600, retryBackoff: true, notify: true } as const;
/**
 * A message's try whose process died (kill -9, out of memory) is retried within a minute or two through the heartbeat,
 * not after pg-boss's default expiry of 15 minutes; delivering twice is harmless (outbox.ts: locked, sent while queued).
 */
const MAIL_JOB = { heartbeatSeconds: 30 } as const;
/**
 * The minute sweeps are `singleton` queues: one runs at a time, and a sweep whose process died (kill -9) would hold
 * its queue until pg-boss's default expiry of 15 minutes, every sweep after it waiting (the scale-out proof saw the
 * mail sweep stopped for 13 minutes). With a heartbeat, a dead sweep's claim ends within a minute or so.
 */
const SWEEP_JOB = { heartbeatSeconds: 30 } as const;

/** The jobs of an app that runs the case import and export, or 503 JOBS_UNAVAILABLE: without them a started import would wait for ever. */
export function caseJobs(jobs: Jobs | null): Jobs {
  if (!jobs?.options.cases) throw new AppError('JOBS_UNAVAILABLE');
  return jobs;
}

export async function startJobs(
  db: Db,
  options: JobsOptions,
  handlers: Partial<Record<QueueName, Handler>>,
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
  await boss.createQueue(QUEUES.mailSend, { retryLimit: retry.retryLimit, retryDelay: retry.retryDelay, retryBackoff: true, deadLetter: QUEUES.mailFailed, notify: true, ...MAIL_JOB });
  // createQueue leaves an existing queue as it was: a database made before the heartbeat gets it here.
  await boss.updateQueue(QUEUES.mailSend, MAIL_JOB);
  for (const sweep of [QUEUES.mailSweep, QUEUES.overdueSweep, QUEUES.digest, QUEUES.rateLimitSweep, QUEUES.sessionSweep, QUEUES.partySweep]) {
    await boss.createQueue(sweep, { policy: 'singleton', ...SWEEP_JOB });
    await boss.updateQueue(sweep, SWEEP_JOB);
  }
  // `singleton` with the import's or export's id as singletonKey: one try of a record at a time, however many jobs point at it.
  await boss.createQueue(QUEUES.caseImportFailed);
  await boss.createQueue(QUEUES.caseImport, { policy: 'singleton', ...CASE_IMPORT_RETRY, ...CASE_JOB, deadLetter: QUEUES.caseImportFailed });
  await boss.createQueue(QUEUES.caseExportFailed);
  await boss.createQueue(QUEUES.caseExport, { policy: 'singleton', ...CASE_EXPORT_RETRY, ...CASE_JOB, deadLetter: QUEUES.caseExportFailed });
  await boss.createQueue(QUEUES.dataTapeFailed);
  await boss.createQueue(QUEUES.dataTape, { policy: 'singleton', ...CASE_EXPORT_RETRY, ...CASE_JOB, deadLetter: QUEUES.dataTapeFailed });
  // A sender round holds no claim beyond its own rows' locks: a round whose process died is simply started again.
  await boss.createQueue(QUEUES.webhookSend, { policy: 'stately', retryLimit: 0, notify: true, ...SWEEP_JOB });
  await boss.createQueue(QUEUES.webhookSweep, { policy: 'singleton', ...SWEEP_JOB });

  // Jobs are fetched in batches, and fetched again at once while batches come full (a burst of mail after a
  // bulk change or the demo seed goes out in seconds, not one message per poll). Each job of a batch
  // succeeds or fails on its own: a failed one is failed by hand (and retried), the others complete.
  // Long jobs (imports, exports) are fetched one at a time: a batch would start every job's expiry at once.
  const work = async (queue: QueueName, retryLimit = 0, batchSize = 10) => {
    const handler = handlers[queue];
    if (!handler) return;
    await boss.work<Record<string, unknown>>(
      queue,
      { batchSize, burstWhenBatchFull: batchSize > 1, pollingIntervalSeconds: 2, notifyPollingIntervalSeconds: 5 },
      async (jobs) => {
        for (const job of jobs) {
          try {
            await handler(job.data ?? {}, { retryCount: job.retryCount, lastTry: job.retryCount >= retryLimit, signal: job.signal });
          } catch (err) {
            // This try only (id and retryCount): a try whose claim lapsed must not fail the retry now running.
            await boss.fail(queue, { id: job.id, retryCount: job.retryCount }, { message: String((err as Error)?.message ?? err) });
          }
        }
      },
    );
  };
  if (options.mail) {
    await work(QUEUES.mailSend, retry.retryLimit);
    await work(QUEUES.mailFailed);
    await work(QUEUES.mailSweep);
  }
  if (options.cases) {
    await work(QUEUES.caseImport, CASE_IMPORT_RETRY.retryLimit, 1);
    await work(QUEUES.caseImportFailed);
    await work(QUEUES.caseExport, CASE_EXPORT_RETRY.retryLimit, 1);
    await work(QUEUES.caseExportFailed);
    await work(QUEUES.dataTape, CASE_EXPORT_RETRY.retryLimit, 1);
    await work(QUEUES.dataTapeFailed);
  }
  if (options.webhooks) await work(QUEUES.webhookSend, 0, 1);
  if (options.schedules) {
    await work(QUEUES.overdueSweep);
    await boss.schedule(QUEUES.overdueSweep, '* * * * *');
    await work(QUEUES.digest);
    await boss.schedule(QUEUES.digest, '*/15 * * * *');
    await work(QUEUES.rateLimitSweep);
    await boss.schedule(QUEUES.rateLimitSweep, '* * * * *');
    await work(QUEUES.sessionSweep);
    await boss.schedule(QUEUES.sessionSweep, '* * * * *');
    await work(QUEUES.partySweep);
    await boss.schedule(QUEUES.partySweep, '* * * * *');
    if (options.mail) await boss.schedule(QUEUES.mailSweep, '* * * * *');
    if (options.webhooks) {
      await work(QUEUES.webhookSweep);
      await boss.schedule(QUEUES.webhookSweep, '* * * * *');
    }
  }

  return {
    boss,
    options,
    send: (queue, data, sendOptions) =>
      boss.send(queue, data, sendOptions?.singletonKey || sendOptions?.startAfter ? { singletonKey: sendOptions.singletonKey, startAfter: sendOptions.startAfter } : undefined),
    // In-flight handlers get a moment to finish; a job cut off is retried by the next instance (expiry).
    stop: async () => {
      stopping = true;
      await boss.stop({ graceful: true, timeout: 5_000 });
    },
  };
}
