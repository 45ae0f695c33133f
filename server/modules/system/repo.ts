import { sql } from 'kysely';
import pg from 'pg';
import { type Db, poolOf } from '../../db/pool.js';

/** How long the health and readiness checks wait for the database: under the balancer's check interval (2 s). */
const PING_TIMEOUT_MS = 1_500;

/**
 * Pings the database on a connection of its own, never queued behind the
 * requests waiting for the app's pool: a saturated pool is no reason to take
 * an instance out of the balancer (every instance would follow), and while
 * the database is away the answer is a quick "no", not a hang. Throws when
 * the database does not answer within 1.5 s.
 */
export function databasePinger(db: Db): { ping(): Promise<void>; close(): Promise<void> } {
  const pool = new pg.Pool({
    ...poolOf(db).options,
    max: 1,
    connectionTimeoutMillis: PING_TIMEOUT_MS,
    query_timeout: PING_TIMEOUT_MS,
    idleTimeoutMillis: 30_000,
    allowExitOnIdle: true,
  });
  // A lost connection (a restart) is dropped by the pool; the next ping connects again.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  return {
    async ping() {
      // Bounded as a whole: a connection that opens but does not answer (a database shutting down) is a "no" too.
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('the database did not answer within 1.5 s')), PING_TIMEOUT_MS);
      });
      try {
        await Promise.race([pool.query('select 1'), late]);
      } finally {
        clearTimeout(timer);
      }
    },
    close: () => pool.end(),
  };
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
