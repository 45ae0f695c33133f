/**
 * The case list's current result as a CSV or Excel file: at once for small
 * results, or in the background with progress (`startExport`, a pg-boss job
 * on queue `case-export`, server/jobs/boss.ts). Cells that a spreadsheet
 * would run as formulas are neutralised by lib/csv and lib/xlsx (written
 * through lib/tableFile.ts).
 */
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import { errorCatalog } from '../../../core/errors.js';
import type { Db } from '../../db/pool.js';
import type { ReadRouter } from '../../db/read-replica.js';
import { AppError } from '../../errors.js';
import { type Attempt, caseJobs, type Jobs, QUEUES } from '../../jobs/boss.js';
import { type Cell, contentTypeOf, tableBytes, type TableFormat, XLSX_TYPE } from '../../lib/tableFile.js';
import type { Actor } from '../acl/policy.js';
import { actorForJob } from './import.js';
import { checkFilters, countForExport, exportBatch, insertExport, mainFormFields, updateExport } from './repo.js';
import type { ExportQuery } from './schema.js';

export const EXPORT_LIMIT = 100_000;
const EXPORT_BATCH = 2_000;
export type ExportFormat = TableFormat;
export { contentTypeOf, XLSX_TYPE };
export const exportName = (format: ExportFormat) => `cases-${new Date().toISOString().slice(0, 10)}.${format}`;

/**
 * The current result as a table: case columns, then the form fields (those
 * of the protocol asked for, else the union of the first rows' keys).
 * Rows come in batches, newest first, so a long export reports progress.
 */
export async function exportTable(db: Db, actor: Actor, query: ExportQuery, onBatch: (done: number, total: number) => Promise<void> = async () => {}) {
  const total = await countForExport(db, actor, query, EXPORT_LIMIT);
  const rows: Awaited<ReturnType<typeof exportBatch>> = [];
  let lastId: number | null = null;
  await onBatch(0, total);
  while (rows.length < total) {
    const batch = await exportBatch(db, actor, query, lastId, Math.min(EXPORT_BATCH, total - rows.length));
    if (batch.length === 0) break;
    rows.push(...batch);
    lastId = batch[batch.length - 1].id;
    await onBatch(rows.length, total);
  }
  let fields = query.protocolId ? ((await mainFormFields(db, actor, query.protocolId)) ?? []) : [];
  if (!query.protocolId) {
    const scalar = new Set<string>();
    const nested = new Set<string>();
    for (const r of rows.slice(0, 1000)) for (const [k, v] of Object.entries(r.data as object)) (Array.isArray(v) && v.some((x) => typeof x === 'object') ? nested : scalar).add(k);
    fields = [...scalar].filter((k) => !nested.has(k)).sort();
  }
  const header = ['number', 'state', 'protocol', 'applicant', 'owner', 'docDate', 'possibleDuplicated', ...fields];
  const body = rows.map((r) => [
    r.serial, r.state, r.protocol_name, r.applicant, r.owner_name, r.doc_date, r.possible_duplicated,
    ...fields.map((k) => {
      const v = (r.data as Record<string, unknown>)[k];
      return Array.isArray(v) ? v.join('; ') : (v as string | number | boolean | null | undefined);
    }),
  ]);
  return { header, body };
}

export function fileOf(format: ExportFormat, table: { header: string[]; body: unknown[][] }): Promise<Buffer> {
  return tableBytes(format, table.header, table.body as Cell[][], 'Cases');
}

/** The singletonKey of an export's jobs: one try of an export at a time. */
const exportKey = (id: string) => `export-${id}`;
const INTERRUPTED = 'cases.errors.exportInterrupted';

/** Starts an export in the background (a `case-export` job) and returns its id; bad filters are refused now, not reported later by a failed job. */
export async function startExport(db: Db, jobs: Jobs | null, actor: Actor, input: { format: ExportFormat; query: ExportQuery }): Promise<string> {
  await checkFilters(db, actor, input.query);
  const queue = caseJobs(jobs);
  const id = randomBytes(18).toString('base64url');
  await insertExport(db, actor, id, input.format);
  try {
    // The query as parsed (JSON as it is: strings, numbers, booleans); the format is on the row.
    await queue.send(QUEUES.caseExport, { id, userId: actor.userId, query: input.query }, { singletonKey: exportKey(id) });
  } catch (e) {
    await giveUpExport(db, id, errorCatalog.INTERNAL.key);
    throw e;
  }
  return id;
}

/** An export given up: failed, with the reason as a translation key (the export screen translates it). */
export async function giveUpExport(db: Db, id: string, error = INTERRUPTED): Promise<void> {
  await db.updateTable('case_exports').set({ state: 'failed', error, updated_at: new Date() }).where('id', '=', id).where('state', '=', 'running').execute();
}

/**
 * The `case-export` job: { id, userId, query } points at a running export of
 * that user. Anything else (done, failed, another user's) does nothing, so a
 * second job never redoes a finished export. A try that fails is redone once;
 * the last one, or an AppError, marks the export failed with its reason. A
 * try cut off with its process is dead-lettered once the retry is spent
 * (`case-export-failed`, giveUpExport).
 */
export async function exportJob(db: Db, log: FastifyBaseLogger, data: Record<string, unknown>, attempt: Attempt, reads?: ReadRouter): Promise<void> {
  const id = String(data.id);
  const job = await db
    .updateTable('case_exports')
    .set({ state: 'running', updated_at: new Date() })
    .where('id', '=', id)
    .where('user_id', '=', Number(data.userId))
    .where('state', '=', 'running')
    .returning(['id', 'entity_id', 'user_id', 'format', 'created_at'])
    .executeTakeFirst();
  if (!job) return;
  const actor = await actorForJob(db, job.user_id, job.entity_id);
  if (!actor) {
    log.warn({ exportId: id }, 'case export given up: its user is blocked or gone');
    return giveUpExport(db, id, errorCatalog.ACCOUNT_INACTIVE.key);
  }
  const format = job.format as ExportFormat;
  try {
    // The list's rows are read where the list reads them (the replica when there is one, once the window after the
    // request, a write, has passed); the progress is written on the primary.
    if (reads) await reads.waitOutWindow(job.created_at.getTime());
    const read = <T>(run: (r: Db) => Promise<T>) => (reads ? reads.read(null, run) : run(db));
    const table = await read((r) =>
      exportTable(r, actor, (data.query ?? {}) as ExportQuery, async (done, total) => {
        if (attempt.signal?.aborted) throw new Error(`export ${id}: this try's claim is gone`);
        await updateExport(db, id, { done, total });
      }),
    );
    await updateExport(db, id, { state: 'done', content: await fileOf(format, table), filename: exportName(format) });
  } catch (e) {
    if (attempt.signal?.aborted) throw e;
    if (!(e instanceof AppError) && !attempt.lastTry) {
      log.warn({ err: e, exportId: id, retryCount: attempt.retryCount }, 'case export failed; its job will retry');
      throw e;
    }
    log.error({ err: e, exportId: id }, 'case export failed');
    await giveUpExport(db, id, e instanceof AppError ? e.key : errorCatalog.INTERNAL.key);
  }
}

/**
 * An export without a live job (its process stopped between the insert and
 * the send, or the job is gone) would say 'running' for ever: still needed
 * next to the dead letter, which only sees jobs that exist. Left 10 minutes,
 * then checked with pg-boss, so an export waiting in the queue is left alone.
 */
export async function failInterruptedExports(db: Db, jobs: Jobs | null): Promise<void> {
  const stale = await db.selectFrom('case_exports').where('state', '=', 'running').where('updated_at', '<', sql<Date>`now() - interval '10 minutes'`).select('id').execute();
  for (const { id } of stale) {
    const live = jobs ? (await jobs.boss.findJobs(QUEUES.caseExport, { key: exportKey(id) })).some((j) => ['created', 'retry', 'active'].includes(j.state)) : false;
    if (!live) await db.updateTable('case_exports').set({ state: 'failed', error: INTERRUPTED }).where('id', '=', id).where('state', '=', 'running').where('updated_at', '<', sql<Date>`now() - interval '10 minutes'`).execute();
  }
}
