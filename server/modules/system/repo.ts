import { sql } from 'kysely';
import type { Db } from '../../db/pool.js';

/** Throws when the database does not answer. */
export async function pingDatabase(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}

export interface QueueDepth {
  queue: string;
  waiting: number;
  active: number;
}

/**
 * Jobs waiting (created or retry) and running per pg-boss queue, counted live
 * (the partial index pg-boss keeps on waiting jobs serves it); null until
 * pg-boss first started on this database and made its tables.
 */
export async function countQueuedJobs(db: Db): Promise<QueueDepth[] | null> {
  const { rows: exists } = await sql<{ found: boolean }>`select to_regclass('pgboss.job') is not null as found`.execute(db);
  if (!exists[0]?.found) return null;
  const { rows } = await sql<QueueDepth>`
    select name as queue,
           count(*) filter (where state < 'active') as waiting,
           count(*) filter (where state = 'active') as active
      from pgboss.job
     where state <= 'active'
     group by name`.execute(db);
  return rows;
}

/**
 * How far a streaming replica's replay is behind, in seconds: 0 when it has
 * replayed all it received (an idle primary sends nothing, which is not
 * lag), else the age of the last transaction it replayed. null when the
 * database is not a standby (no replica set up, or a test's copy).
 */
export async function replicaLagSeconds(db: Db): Promise<number | null> {
  const { rows } = await sql<{ lag: number | null }>`
    select case
             when not pg_is_in_recovery() then null
             when pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() then 0
             else extract(epoch from now() - pg_last_xact_replay_timestamp())::float8
           end as lag`.execute(db);
  return rows[0]?.lag ?? null;
}
