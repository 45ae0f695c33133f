import { type Kysely, sql } from 'kysely';

/**
 * The case list's search box (`search=`) served by indexes instead of a scan
 * of every case (server/modules/cases/textSearch.ts says what a word
 * matches; bench/case-list.ts and docs/performance.md measure it):
 *
 * - names: `search_name`, a stored generated column holding ' first last'
 *   accent-folded and lower-cased, with a trigram GIN index for LIKE. A
 *   stored column rather than an index over the expression: a trigram match
 *   is always rechecked, and so is every row that a walk of the date index
 *   filters; over the expression each of those ran `unaccent` again (about
 *   4 µs a row: 40 ms of PostgreSQL CPU for the first page of a common name
 *   at 100,000 cases), over the column it is a plain LIKE. The column has
 *   statistics of its own, so the planner tells a common name (walk the
 *   newest cases) from a rare one (the index).
 * - the case number and the document number: b-trees for a prefix (LIKE
 *   'x%'). Digits make poor trigrams (a thousand of them, and '000' or '202'
 *   are in nearly every number): a trigram search for a document number read
 *   600 index pages at a million cases (6 ms), a b-tree reads three.
 *
 * `unaccent` is only STABLE (it reads a dictionary); a generated column needs
 * an IMMUTABLE function: `search_fold` wraps it. Its body is SQL-standard
 * (`return ...`), so the dictionary and the function are bound when it is
 * created, not looked up on the search_path of whoever runs it (autovacuum
 * and pg_restore run with an empty one).
 *
 * Adding the column rewrites the table once (5 s at 100,000 cases, 86 s at
 * a million on this machine under load). Drafts are never listed: the name
 * index leaves them out, so their autosaves do not pay for it; like the
 * form-data index (0011), it has no pending list.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Both ship with PostgreSQL's contrib (the embedded binaries, Debian's postgresql-15-contrib) and are
  // trusted extensions: a database owner who is not a superuser may create them.
  await sql`create extension if not exists unaccent`.execute(db);
  await sql`create extension if not exists pg_trgm`.execute(db);
  // Wherever they are (a managed database may keep extensions in a schema of their own).
  const schemaOf = async (extension: string) =>
    (await sql<{ schema: string }>`select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = ${extension}`.execute(db)).rows[0].schema;
  const unaccentSchema = await schemaOf('unaccent');
  const trgmSchema = await schemaOf('pg_trgm');
  const dictionary = sql.lit(`"${unaccentSchema.replace(/"/g, '""')}".unaccent`);

  await sql`
    create function search_fold(text) returns text
    language sql immutable parallel safe strict
    return lower(${sql.id(unaccentSchema, 'unaccent')}(${dictionary}::regdictionary, $1))`.execute(db);
  // A space before each name, so that "starts a word" is LIKE '% word%' (textSearch.ts).
  await sql`
    alter table cases add column search_name text not null
    generated always as (' ' || search_fold(coalesce(data->>'firstName', '') || ' ' || coalesce(data->>'lastName', ''))) stored`.execute(db);
  await sql`
    create index cases_search_name_trgm on cases using gin (search_name ${sql.id(trgmSchema, 'gin_trgm_ops')})
    with (fastupdate = off) where state <> 'DRAFT'`.execute(db);
  // Not partial, so that the planner has the statistics of the document's expression.
  await sql`create index cases_document_prefix_idx on cases (entity_id, lower(data->>'documentNumber') text_pattern_ops)`.execute(db);
  await sql`create index cases_serial_prefix_idx on cases (entity_id, serial text_pattern_ops)`.execute(db);
  // Statistics of the new column and expression now, rather than after autovacuum's next analyze (which
  // a large, steady table may not need for weeks): without them every search looks rare to the planner.
  await sql`analyze cases`.execute(db);
}
