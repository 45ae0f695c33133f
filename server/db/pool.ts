import { Kysely, PostgresDialect } from 'kysely';
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

export function openDb(connectionString: string, options: { max?: number; onError?: (e: Error) => void } = {}): DbHandle {
  const pool = new pg.Pool({ connectionString, max: options.max ?? 10, connectionTimeoutMillis: 5_000 });
  // An idle client losing its connection (database restart) must not crash the process.
  pool.on('error', (e) => options.onError?.(e));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, pool, close: () => db.destroy() };
}
