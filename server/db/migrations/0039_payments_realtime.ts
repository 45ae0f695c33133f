import { type Kysely, sql } from 'kysely';
import { statementTriggers } from './0014_realtime.js';

/**
 * Issue 23: payment batches and awards announce their changes (kind
 * `payment`, ids only), so the batches list and page, a case's award panel
 * and the payee report refetch when a colleague builds, exports or pays a
 * batch. They reach the tenant's staff; an award's also the case's room.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await statementTriggers(db, 'payment_batches', 'payment', `select entity_id, array_agg(distinct id) ids, '{}'::bigint[] cases,
    '{}'::bigint[] users from rt_all group by entity_id`);
  await statementTriggers(db, 'awards', 'payment', `select entity_id, array_agg(distinct id) ids, array_agg(distinct case_id) cases,
    '{}'::bigint[] users from rt_all group by entity_id`);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['payment_batches', 'awards']) {
    for (const op of ['insert', 'update', 'delete']) await sql.raw(`drop trigger if exists ${table}_rt_${op} on ${table}`).execute(db);
    await sql.raw(`drop function if exists rt_${table}()`).execute(db);
  }
}
