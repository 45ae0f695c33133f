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

export function openDb(connectionString: string, options: { max?: number; onError?: (e: Error) => void } = {}): DbHandle {
  const pool = new pg.Pool({ connectionString, max: options.max ?? 10, connectionTimeoutMillis: 5_000 });
  // An idle client losing its connection (database restart) must not crash the process.
  pool.on('error', (e) => options.onError?.(e));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  pools.set(db, pool);
  return { db, pool, close: () => db.destroy() };
}
