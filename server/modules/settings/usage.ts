/**
 * The tenant's plan state for the settings page: the users module's plan
 * (`GET /api/entity/plan`: accounts, and the disk its files use) plus what
 * its rows take in the database.
 *
 * The database use is an ESTIMATE, kept in `entity_storage_usage` and
 * measured again only when older than `MEASURE_EVERY_MS`, so a page view
 * reads one row and a busy tenant is measured at most every few minutes,
 * whichever instance asks. Measuring never reads the rows themselves: for
 * each large table it counts the tenant's rows (an index-only scan of an
 * `entity_id` index) and multiplies by the table's bytes per row as
 * PostgreSQL already knows them (`pg_total_relation_size`, heap, indexes
 * and TOAST, over `pg_class.reltuples`, kept by autovacuum). A table never
 * analysed yet (reltuples < 1) is small: it is counted whole instead.
 */
import { sql } from 'kysely';
import { PLAN_WARNING_SHARE, type PlanState } from '../../../core/api/applicationSettings.js';
import type { Db } from '../../db/pool.js';
import type { Actor } from '../acl/policy.js';
import { planOf } from '../users/repo.js';

export const MEASURE_EVERY_MS = 5 * 60 * 1000;

/**
 * The tables that grow with a tenant's work (every one has `entity_id` first in an index).
 * Not `file_blobs`: files count once, by `files.size`, as the files' use, whatever their store.
 */
const LARGE_TABLES = ['cases', 'tasks', 'case_events', 'comments', 'case_document_marks', 'notifications', 'mail_outbox', 'files', 'users', 'case_participants'] as const;

/** The tenant's rows' share of the large tables, in bytes. */
export async function measureDatabaseBytes(db: Db, entityId: number): Promise<number> {
  let total = 0;
  for (const table of LARGE_TABLES) {
    const ref = sql.table(table);
    const tenantRows = sql<string>`select count(*) from ${ref} where entity_id = ${entityId}`;
    const { rows } = await sql<{ n: string; size: string; tuples: number }>`
      select (${tenantRows}) n, pg_total_relation_size(${table}::regclass) size, c.reltuples tuples
      from pg_class c where c.oid = ${table}::regclass`.execute(db);
    const { n, size, tuples } = rows[0];
    if (Number(n) === 0) continue;
    const all = tuples >= 1 ? tuples : Number((await sql<{ n: string }>`select count(*) n from ${ref}`.execute(db)).rows[0].n);
    total += Math.round((Number(n) * Number(size)) / Math.max(all, Number(n)));
  }
  return total;
}

/** The estimate, measured again when missing or older than `MEASURE_EVERY_MS`. */
export async function databaseUse(db: Db, entityId: number, now = new Date()): Promise<{ bytes: number; measuredAt: Date }> {
  const kept = await db.selectFrom('entity_storage_usage').where('entity_id', '=', entityId).select(['database_bytes', 'computed_at']).executeTakeFirst();
  if (kept && now.getTime() - kept.computed_at.getTime() < MEASURE_EVERY_MS) return { bytes: kept.database_bytes, measuredAt: kept.computed_at };
  const bytes = await measureDatabaseBytes(db, entityId);
  await db
    .insertInto('entity_storage_usage')
    .values({ entity_id: entityId, database_bytes: bytes, computed_at: now })
    .onConflict((oc) => oc.column('entity_id').doUpdateSet({ database_bytes: bytes, computed_at: now }))
    .execute();
  return { bytes, measuredAt: now };
}

const mb = (bytes: number) => Math.round((bytes / (1024 * 1024)) * 100) / 100;

export async function planState(db: Db, actor: Actor): Promise<PlanState> {
  const [plan, database] = await Promise.all([planOf(db, actor), databaseUse(db, actor.entityId)]);
  const databaseMb = mb(database.bytes);
  const warnings: PlanState['warnings'] = [];
  if (plan.accountsUsed >= plan.accountLimit * PLAN_WARNING_SHARE) warnings.push('accounts');
  if (plan.diskUsedMb + databaseMb >= plan.diskQuotaMb * PLAN_WARNING_SHARE) warnings.push('disk');
  return {
    plan: plan.plan,
    accountLimit: plan.accountLimit,
    accountsUsed: plan.accountsUsed,
    accountsAvailable: Math.max(0, plan.accountLimit - plan.accountsUsed),
    diskQuotaMb: plan.diskQuotaMb,
    filesMb: plan.diskUsedMb,
    databaseMb,
    databaseMeasuredAt: database.measuredAt,
    warnings,
  };
}
