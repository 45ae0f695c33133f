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
