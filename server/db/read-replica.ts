/**
 * Where the report and list reads go (DATABASE_READ_URL): a streaming
 * replica of the primary, or the primary itself when there is none. Only
 * reads that run outside any transaction come here (the case and task
 * lists, the reports and their downloads, the dashboard); writes, and
 * anything read inside a write's transaction, stay on the primary.
 *
 * A replica lags, so a read goes to the primary instead when its session
 * wrote a moment ago (`lastWrite`, from the read-after-write cookie:
 * plugins/reads.ts), and when the replica fails it falls back to the
 * primary once rather than answering 503. Reads are pure, so running one
 * again on the primary is safe.
 */
import { type Db, isDatabaseUnavailable } from './pool.js';

export type ReadTarget = 'primary' | 'replica';
/** Why a read went where it did: the metrics' `reason` label. */
export type ReadReason = 'replica' | 'no_replica' | 'recent_write' | 'replica_down' | 'fallback';
/** What made a read leave the replica for the primary. */
export type FallbackCause = 'unavailable' | 'conflict' | 'behind';

export type ReadEvent = { kind: 'read'; target: ReadTarget; reason: ReadReason } | { kind: 'fallback'; cause: FallbackCause };

/** After the replica could not be reached, reads go straight to the primary this long before it is tried again. */
export const REPLICA_RETRY_MS = 5_000;

/**
 * Recovery conflicts: a standby cancels a query whose rows the primary's
 * changes remove ("canceling statement due to conflict with recovery",
 * 40001; 40P01 when it held a lock the replay needed).
 */
const CONFLICT_STATES = new Set(['40001', '40P01']);
/**
 * A replica that is not there for us: dropped or missing database (57P04,
 * 3D000), refused login (28000, 28P01), besides what pool.ts counts as
 * unavailable (connection lost or refused, starting up 57P03, shutting down).
 */
const UNREACHABLE_STATES = new Set(['57P04', '3D000', '28000', '28P01']);
/** A replica that has not yet replayed the migration new code reads (a table, column or function missing). */
const BEHIND_STATES = new Set(['42P01', '42703', '42883']);

/** Whether a read that failed on the replica should be run on the primary instead, and why; null for an error the primary would give too. */
export function replicaFailure(e: unknown): FallbackCause | null {
  if (!(e instanceof Error)) return null;
  const code = (e as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (CONFLICT_STATES.has(code)) return 'conflict';
    if (UNREACHABLE_STATES.has(code)) return 'unavailable';
    if (BEHIND_STATES.has(code)) return 'behind';
  }
  return isDatabaseUnavailable(e) ? 'unavailable' : null;
}

export interface ReadRouterOptions {
  /** How long after a write a session's reads stay on the primary (READ_AFTER_WRITE_SECONDS). */
  readAfterWriteMs: number;
  warn(err: unknown, message: string): void;
  now?: () => number;
}

export class ReadRouter {
  private downUntil = 0;
  private readonly listeners = new Set<(event: ReadEvent) => void>();
  private readonly now: () => number;

  constructor(
    readonly primary: Db,
    /** null: no DATABASE_READ_URL, every read is the primary's. */
    readonly replica: Db | null,
    private readonly options: ReadRouterOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  /** The read handle: the replica, or the primary when there is none. */
  get readDb(): Db {
    return this.replica ?? this.primary;
  }

  /** Told of every read answered (by where and why) and of every fallback (metrics). */
  observe(listener: (event: ReadEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Whether a session that last wrote at `lastWrite` (ms since the epoch) still reads from the primary. */
  wroteRecently(lastWrite: number | null): boolean {
    // A time in the future (a clock ahead, or a forged cookie) also counts as recent: it only sends that client to the primary.
    return lastWrite !== null && this.now() - lastWrite < this.options.readAfterWriteMs;
  }

  /**
   * With a replica, waits until a write made at `since` (ms since the epoch)
   * is READ_AFTER_WRITE_SECONDS old: a background job started by a request
   * (the data tape) then reads the replica as that session's lists would.
   */
  async waitOutWindow(since: number): Promise<void> {
    if (!this.replica) return;
    const ms = Math.min(this.options.readAfterWriteMs, since + this.options.readAfterWriteMs - this.now());
    if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
  }

  /**
   * Runs `read` on the replica, unless there is none, the session wrote
   * recently, or the replica was just found unreachable: then on the
   * primary. A replica failure (unreachable, a recovery conflict, a schema
   * not yet replayed) runs it once more on the primary, with a warning; any
   * other error (a bad query, a 404) is the caller's.
   */
  async read<T>(lastWrite: number | null, read: (db: Db) => Promise<T>): Promise<T> {
    if (!this.replica) return this.onPrimary('no_replica', read);
    if (this.wroteRecently(lastWrite)) return this.onPrimary('recent_write', read);
    if (this.now() < this.downUntil) return this.onPrimary('replica_down', read);
    let result: T;
    try {
      result = await read(this.replica);
    } catch (e) {
      const cause = replicaFailure(e);
      if (!cause) throw e;
      // Without this pause every read would first wait for the unreachable replica (up to its connect timeout).
      if (cause === 'unavailable') this.downUntil = this.now() + REPLICA_RETRY_MS;
      this.options.warn(e, `a read on the replica failed (${cause}: ${(e as Error).message}); it is answered from the primary`);
      this.emit({ kind: 'fallback', cause });
      return this.onPrimary('fallback', read);
    }
    this.emit({ kind: 'read', target: 'replica', reason: 'replica' });
    return result;
  }

  private async onPrimary<T>(reason: ReadReason, read: (db: Db) => Promise<T>): Promise<T> {
    const result = await read(this.primary);
    this.emit({ kind: 'read', target: 'primary', reason });
    return result;
  }

  private emit(event: ReadEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}
