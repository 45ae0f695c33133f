import { type Kysely, sql } from 'kysely';

/**
 * The data tape (issue 19, target `reporte_data_tape`): the funder's file of
 * every application of a protocol with its form's fields flattened.
 * - data_tape_configs: the columns and their headers chosen for a protocol
 *   of the tenant (none saved: every field, in form order).
 * - data_tape_exports: one run of the background job (pg-boss queue
 *   `data-tape`), its progress and outcome, with the columns it was started
 *   with. Like case exports (0007), the file stays in the database so that
 *   any instance serves it; unlike them it is kept in chunks of about 1 MiB
 *   (data_tape_chunks), written as the job streams and read back as a
 *   stream, so a file of 100,000 applications is never whole in memory.
 *   Exports older than a day are removed when a new one starts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('data_tape_configs')
    .addColumn('entity_id', 'bigint', (c) => c.notNull().references('entities.id').onDelete('cascade'))
    .addColumn('protocol_id', 'bigint', (c) => c.notNull().references('protocols.id').onDelete('cascade'))
    .addColumn('columns', 'jsonb', (c) => c.notNull())
    .addColumn('updated_by', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('data_tape_configs_pkey', ['entity_id', 'protocol_id'])
    .execute();

  await db.schema
    .createTable('data_tape_exports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('entity_id', 'bigint', (c) => c.notNull().references('entities.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('protocol_id', 'bigint', (c) => c.notNull().references('protocols.id').onDelete('cascade'))
    .addColumn('format', 'text', (c) => c.notNull().check(sql`format in ('csv', 'xlsx')`))
    .addColumn('headers', 'text', (c) => c.notNull().check(sql`headers in ('es', 'en', 'keys')`))
    .addColumn('columns', 'jsonb', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('running').check(sql`state in ('running', 'done', 'failed')`))
    .addColumn('done', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('column_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('filename', 'text')
    .addColumn('bytes', 'bigint')
    .addColumn('error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('data_tape_exports_user_idx').on('data_tape_exports').columns(['entity_id', 'user_id', 'created_at']).execute();

  await db.schema
    .createTable('data_tape_chunks')
    .addColumn('export_id', 'text', (c) => c.notNull().references('data_tape_exports.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('content', 'bytea', (c) => c.notNull())
    .addPrimaryKeyConstraint('data_tape_chunks_pkey', ['export_id', 'seq'])
    .execute();

  // The job reads a protocol's applications a thousand at a time in id order (keyset): without this each batch
  // read every application of the protocol again and sorted them (100,000 applications: 46 s instead of some 10).
  await sql`create index cases_entity_protocol_id_idx on cases (entity_id, protocol_id, id)`.execute(db);
}
