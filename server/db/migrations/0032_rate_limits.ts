import { type Kysely, sql } from 'kysely';

/**
 * Issue 21: the request limits per address (`config.rateLimit`) and per
 * account (`config.accountLimit`) count in the database, so that several
 * instances share them (server/plugins/rate-limit-store.ts). One row per key
 * (the route and the client's address, or the account and the route): how
 * many requests its current window has seen and when that window ends.
 *
 * Unlogged: a counter that lives a minute is not worth the write-ahead log
 * (a limited request commits without waiting for a WAL flush); a crash of
 * PostgreSQL empties the table, which only starts every window afresh.
 * No index on `expires_at`: the sweep of ended windows reads the table once
 * a minute, and without it every increment is a HOT update.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('rate_limits')
    .modifyFront(sql`unlogged`)
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();
}
