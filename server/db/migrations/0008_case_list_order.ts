import { type Kysely, sql } from 'kysely';

/**
 * The case list sorts by `doc_date desc nulls last, id desc`; PostgreSQL's
 * `desc` puts nulls first, so the index of 0005 could not give that order and
 * every page of a broad filter sorted the whole result. Same columns, the
 * list's null order.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists cases_entity_doc_date_idx`.execute(db);
  await sql`create index cases_entity_doc_date_idx on cases (entity_id, doc_date desc nulls last, id desc)`.execute(db);
}
