import { type Kysely, sql } from 'kysely';

/** CSV imports of cases: the uploaded file, its mapping, and the progress of its run. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('case_imports')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('entity_id', 'bigint', (c) => c.notNull().references('entities.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('protocol_id', 'bigint', (c) => c.notNull().references('protocols.id').onDelete('cascade'))
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('header', 'jsonb', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('mapping', 'jsonb')
    .addColumn('ref_column', 'text')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('uploaded').check(sql`status in ('uploaded', 'running', 'done', 'interrupted')`))
    .addColumn('processed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('skipped', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('errors', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('case_imports_entity_idx').on('case_imports').columns(['entity_id', 'id']).execute();
}
