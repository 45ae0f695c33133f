import { type Kysely, sql } from 'kysely';

/**
 * What the case screens need beyond the workflow: participants of a case,
 * saved searches per user, and indexes for every filter the list offers
 * (form fields are searched through a GIN index on the case data).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('case_participants')
    .addColumn('case_id', 'bigint', (c) => c.notNull().references('cases.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('entity_id', 'bigint', (c) => c.notNull().references('entities.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('case_participants_pk', ['case_id', 'user_id'])
    .execute();
  await db.schema.createIndex('case_participants_user_idx').on('case_participants').column('user_id').execute();

  await db.schema
    .createTable('saved_searches')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('entity_id', 'bigint', (c) => c.notNull().references('entities.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('query', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('saved_searches_name', ['user_id', 'name'])
    .execute();

  await sql`create index cases_data_gin on cases using gin (data jsonb_path_ops)`.execute(db);
  await sql`create index cases_entity_doc_date_idx on cases (entity_id, doc_date desc, id desc)`.execute(db);
  await sql`create index cases_entity_protocol_idx on cases (entity_id, protocol_id, state)`.execute(db);
  await sql`create index cases_entity_serial_idx on cases (entity_id, serial)`.execute(db);
  await sql`create index cases_dup_idx on cases (entity_id, id) where possible_duplicated`.execute(db);
}
