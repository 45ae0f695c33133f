/**
 * A data tape file made in the background, as the case export is
 * (cases/export.ts): the request checks the protocol, records a running
 * export with the columns of the moment and sends a pg-boss job (queue
 * `data-tape`, server/jobs/boss.ts); whichever instance takes it streams
 * every visible application of the protocol, a thousand at a time in id
 * order, through the CSV or Excel writer (lib/tableFile.ts: every cell
 * neutralised against formulas) into chunks of about 1 MiB in
 * `data_tape_chunks`, saying how far it is after each thousand. Memory
 * stays a batch of rows and a chunk, whatever the number of applications.
 * With a read replica the applications are read there (each read falling
 * back to the primary on its own), from READ_AFTER_WRITE_SECONDS after the
 * request on, as that session's list reads would.
 */
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { MAX_TAPE_COLUMNS, type TapeColumn } from '../../../core/api/datatape.js';
import { errorCatalog } from '../../../core/errors.js';
import type { Db } from '../../db/pool.js';
import { AppError } from '../../errors.js';
import type { Lang } from '../../i18n.js';
import { type Attempt, caseJobs, type Jobs, QUEUES } from '../../jobs/boss.js';
import { tableWriter } from '../../lib/tableFile.js';
import type { ReadRouter } from '../../db/read-replica.js';

/** Runs a read where the app's reads go (the replica when there is one), or on the job's own handle. */
type TapeRead = <T>(read: (db: Db) => Promise<T>) => Promise<T>;
import type { Actor } from '../acl/policy.js';
import { actorForJob } from '../cases/import.js';
import { flatten, flatWidth, repeatPaths } from './columns.js';
import { assertMayExport } from './policy.js';
import {
  applicationBatch,
  claimTapeExport,
  countApplications,
  deleteChunks,
  failTapeExport,
  findTapeProtocol,
  insertChunk,
  insertTapeExport,
  repeatCounts,
  staleTapeExports,
  tapeConfig,
  updateTapeExport,
} from './repo.js';

/** Applications read, written and reported per step. */
export const TAPE_BATCH = 1_000;
/** The size of the file's pieces in the database. */
const CHUNK_BYTES = 1024 * 1024;
const INTERRUPTED = 'dataTape.errors.interrupted';

/** The singletonKey of an export's jobs: one try of an export at a time. */
const exportKey = (id: string) => `tape-${id}`;

const fileName = (protocolCode: string, format: 'csv' | 'xlsx') =>
  `data-tape-${protocolCode.replace(/[^A-Za-z0-9_-]/g, '-')}-${new Date().toISOString().slice(0, 10)}.${format}`;

/**
 * Starts a tape of the protocol in the background and returns the export's
 * id. The protocol is checked now (another tenant's: 404; not published:
 * 409); the columns are the saved ones (or the default) as they are now.
 */
export async function startTapeExport(
  db: Db,
  jobs: Jobs | null,
  actor: Actor,
  input: { protocolId: number; format: 'csv' | 'xlsx'; headers?: 'es' | 'en' | 'keys' },
  lang: Lang,
): Promise<string> {
  const config = await tapeConfig(db, actor, input.protocolId);
  const queue = caseJobs(jobs);
  const id = randomBytes(18).toString('base64url');
  await insertTapeExport(db, actor, { id, protocolId: config.protocolId, format: input.format, headers: input.headers ?? lang, columns: config.columns });
  try {
    await queue.send(QUEUES.dataTape, { id, userId: actor.userId }, { singletonKey: exportKey(id) });
  } catch (e) {
    await failTapeExport(db, id, errorCatalog.INTERNAL.key);
    throw e;
  }
  return id;
}

/** An export given up: failed, with the reason as a translation key (the API translates it for the reader). */
export async function giveUpTapeExport(db: Db, id: string, error = INTERRUPTED): Promise<void> {
  await failTapeExport(db, id, error);
}

/** Where the file's bytes go: pieces of about CHUNK_BYTES, each one row of `data_tape_chunks`, written in order. */
class ChunkSink extends Writable {
  bytes = 0;
  private seq = 0;
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(
    private readonly db: Db,
    private readonly exportId: string,
  ) {
    super({ highWaterMark: CHUNK_BYTES });
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    this.bytes += chunk.length;
    if (this.pendingBytes < CHUNK_BYTES) return done();
    this.flush().then(() => done(), done);
  }

  override _final(done: (error?: Error | null) => void): void {
    this.flush().then(() => done(), done);
  }

  private async flush(): Promise<void> {
    if (this.pendingBytes === 0) return;
    const content = Buffer.concat(this.pending);
    this.pending = [];
    this.pendingBytes = 0;
    await insertChunk(this.db, this.exportId, this.seq++, content);
  }
}

interface ClaimedExport {
  id: string;
  protocol_id: number;
  format: 'csv' | 'xlsx';
  headers: 'es' | 'en' | 'keys';
  columns: TapeColumn[];
}

/** Writes the whole file of a claimed export for `actor`, reporting progress; `stop` is checked between batches. */
async function writeTape(db: Db, read: TapeRead, actor: Actor, job: ClaimedExport, stop: () => void): Promise<{ done: number; bytes: number; filename: string }> {
  // A try starts afresh: what an earlier, cut-off try wrote is not part of this file.
  await deleteChunks(db, job.id);
  const protocol = await findTapeProtocol(db, actor, job.protocol_id);
  const counts = await read((r) => repeatCounts(r, actor, protocol.id, repeatPaths(job.columns)));
  const width = flatWidth(job.columns, counts);
  if (width > MAX_TAPE_COLUMNS) throw new AppError('DATA_TAPE_TOO_WIDE', { columns: width, max: MAX_TAPE_COLUMNS });
  const columns = flatten(job.columns, counts, job.headers);
  const total = await read((r) => countApplications(r, actor, protocol.id));
  await updateTapeExport(db, job.id, { done: 0, total, column_count: columns.length });

  const sink = new ChunkSink(db, job.id);
  const writer = await tableWriter(job.format, sink, protocol.name);
  await writer.row(columns.map((c) => c.header));
  let done = 0;
  let lastId = 0;
  for (;;) {
    stop();
    const batch = await read((r) => applicationBatch(r, actor, protocol.id, lastId, TAPE_BATCH));
    if (batch.length === 0) break;
    for (const application of batch) await writer.row(columns.map((c) => c.get(application)));
    done += batch.length;
    lastId = batch[batch.length - 1]?.id as number;
    // Applications submitted meanwhile are written too: the total grows with them.
    await updateTapeExport(db, job.id, { done, total: Math.max(total, done) });
  }
  await writer.end();
  return { done, bytes: sink.bytes, filename: fileName(protocol.code, job.format) };
}

/**
 * The `data-tape` job: { id, userId } points at a running export of that
 * user; anything else (done, failed, another's) does nothing, so a second
 * job never redoes a finished export. The tape is written with the rights
 * its starter has now (blocked or gone: failed; no longer allowed to
 * export tapes: failed). A try that fails is redone once from the start;
 * the last one, or an AppError, marks the export failed with its reason.
 */
export async function tapeExportJob(db: Db, log: FastifyBaseLogger, data: Record<string, unknown>, attempt: Attempt, reads?: ReadRouter): Promise<void> {
  const id = String(data.id);
  const job = await claimTapeExport(db, id, Number(data.userId));
  if (!job) return;
  const actor = await actorForJob(db, job.user_id, job.entity_id);
  if (!actor) {
    log.warn({ exportId: id }, 'data tape given up: its user is blocked or gone');
    return giveUpTapeExport(db, id, errorCatalog.ACCOUNT_INACTIVE.key);
  }
  try {
    assertMayExport(actor);
    // The request was a write: the replica may not have what the session wrote just before it until the window has passed.
    if (reads) await reads.waitOutWindow(job.created_at.getTime());
    const read: TapeRead = reads ? (r) => reads.read(null, r) : (r) => r(db);
    const file = await writeTape(db, read, actor, job, () => {
      if (attempt.signal?.aborted) throw new Error(`data tape ${id}: this try's claim is gone`);
    });
    await updateTapeExport(db, id, { state: 'done', done: file.done, filename: file.filename, bytes: file.bytes });
  } catch (e) {
    if (attempt.signal?.aborted) throw e;
    if (!(e instanceof AppError) && !attempt.lastTry) {
      log.warn({ err: e, exportId: id, retryCount: attempt.retryCount }, 'data tape failed; its job will retry');
      throw e;
    }
    log.error({ err: e, exportId: id }, 'data tape failed');
    await giveUpTapeExport(db, id, e instanceof AppError ? e.key : errorCatalog.INTERNAL.key);
  }
}

/**
 * An export without a live job (its process stopped between the insert and
 * the send, or the job is gone) would say 'running' for ever: left 10
 * minutes without progress, then checked with pg-boss, so one waiting in the
 * queue is left alone.
 */
export async function failInterruptedTapeExports(db: Db, jobs: Jobs | null): Promise<void> {
  for (const id of await staleTapeExports(db, 10)) {
    const live = jobs ? (await jobs.boss.findJobs(QUEUES.dataTape, { key: exportKey(id) })).some((j) => ['created', 'retry', 'active'].includes(j.state)) : false;
    if (!live) await failTapeExport(db, id, INTERRUPTED, 10);
  }
}
