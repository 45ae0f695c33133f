import { type Kysely, sql } from 'kysely';

/**
 * Exports of a case list (CSV or Excel) made in the background: progress
 * while they run, then the file, kept in the database so that any instance
 * can serve it. Old ones are removed when a new one starts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('case_exports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('entity_id', 'bigint', (c) => c.notNull().references('entities.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('format', 'text', (c) => c.notNull().check(sql`format in ('csv', 'xlsx')`))
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('running').check(sql`state in ('running', 'done', 'failed')`))
    .addColumn('done', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('filename', 'text')
    .addColumn('content', 'bytea')
    .addColumn('error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('case_exports_user_idx').on('case_exports').columns(['entity_id', 'user_id', 'created_at']).execute();
}
