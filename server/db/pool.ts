import { type Compilable, Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './types.js';

// int8 and int8[] come back as numbers everywhere; a value past 2^53 would be
// silently wrong, so it throws instead. numeric stays a string.
function parseInt8(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new RangeError(`int8 value out of safe range: ${value}`);
  return n;
}
// 1016 (int8[]) is missing from pg's TypeId list, hence the widened signature.
const setParser = pg.types.setTypeParser as (oid: number, parse: (value: string) => unknown) => void;
setParser(20, parseInt8);
setParser(1016, (value: string) =>
  value === '{}' ? [] : value.slice(1, -1).split(',').map(parseInt8),
);

export type Db = Kysely<Database>;

export interface DbHandle {
  db: Db;
  pool: pg.Pool;
  close(): Promise<void>;
}

const pools = new WeakMap<Db, pg.Pool>();

/**
 * Runs `query` as a named statement, parsed and planned once per connection
 * instead of on every call. Only for statements whose plan cannot depend on
 * their values (a lookup by a unique key): after five runs PostgreSQL may
 * keep one generic plan for all values. A Db not opened here (none today)
 * runs it as usual.
 */
export async function executeNamed<R>(db: Db, name: string, query: Compilable<R>): Promise<R[]> {
  const compiled = query.compile();
  const pool = pools.get(db);
  if (!pool) return (await db.executeQuery(compiled)).rows;
  const result = await pool.query({ name, text: compiled.sql, values: compiled.parameters as unknown[] });
  return result.rows as R[];
}

/** The pool behind a Db opened here (realtime opens its own small pool with the same settings). */
export function poolOf(db: Db): pg.Pool {
  const pool = pools.get(db);
  if (!pool) throw new Error('this database handle was not opened by openDb');
  return pool;
}

/** `connectTimeoutMs`: how long to wait for a connection (5 s; the read replica's pool waits less, since its reads can go to the primary). */
export function openDb(connectionString: string, options: { max?: number; onError?: (e: Error) => void; connectTimeoutMs?: number } = {}): DbHandle {
  const pool = new pg.Pool({ connectionString, max: options.max ?? 10, connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000 });
  // A client losing its connection (a database restart or failover) must not
  // crash the process. The pool listens on idle clients only; a client that
  // is checked out, mid-transaction, needs its own listener. Its query fails
  // (503 below) and the pool drops it when it is released.
  pool.on('error', (e) => options.onError?.(e));
  pool.on('connect', (client) => client.on('error', (e) => options.onError?.(e)));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  pools.set(db, pool);
  return { db, pool, close: () => db.destroy() };
}

/** SQLSTATEs of a database that is gone or not yet back: connection exceptions (08), shutdown (57P01-57P03), too many connections. */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300']);
const UNAVAILABLE_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
const UNAVAILABLE_MESSAGES = /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable|Cannot use a pool after calling end/;

/** Whether `e` says the database cannot be reached right now (answer 503 and retry later), rather than that the query was wrong. */
export function isDatabaseUnavailable(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  const code = (e as { code?: unknown }).code;
  if (typeof code === 'string' && (code.startsWith('08') || UNAVAILABLE_STATES.has(code) || UNAVAILABLE_ERRNOS.has(code))) return true;
  return UNAVAILABLE_MESSAGES.test(e.message);
}
