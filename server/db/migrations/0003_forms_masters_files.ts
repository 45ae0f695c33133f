import { type Kysely, sql } from 'kysely';

/**
 * Master data (generic code/name tables, optionally public, optionally
 * children of another master), form definitions with versions, uploaded
 * files, and the hosts an admin allows forms to fetch options from.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('masters')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('entity_id', 'bigint', (c) => c.notNull().references('entities.id').onDelete('cascade'))
    .addColumn('code', 'text', (c) => c.notNull().check(sql`code ~ '^[a-z][a-z0-9_-]{0,62}$'`))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('public', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('parent_id', 'bigint', (c) => c.references('masters.id').onDelete('restrict'))
    .addColumn('system', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('masters_code', ['entity_id', 'code'])
    .execute();

  await db.schema
    .createTable('master_items')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('entity_id', 'bigint', (c) => c.notNull().references('entities.id').onDelete('cascade'))
    .addColumn('master_id', 'bigint', (c) => c.notNull().references('masters.id').onDelete('cascade'))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('parent_item_id', 'bigint', (c) => c.references('master_items.id').onDelete('restrict'))
    .addColumn('active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('extra', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('master_items_code', ['master_id', 'code'])
    .execute();
  await db.schema.createIndex('master_items_parent_idx').on('master_items').column('parent_item_id').execute();
  await sql`create index master_items_search_idx on master_items (master_id, lower(name))`.execute(db);

  await db.schema
    .createTable('forms')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('entity_id', 'bigint', (c) => c.notNull().references('entities.id').onDelete('cascade'))
    .addColumn('code', 'text', (c) => c.notNull().check(sql`code ~ '^[a-z][a-z0-9_-]{0,62}$'`))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('current_version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('forms_code', ['entity_id', 'code'])
    .execute();
  await sql`create index forms_search_idx on forms (entity_id, lower(name))`.execute(db);

  await db.schema
    .createTable('form_versions')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('entity_id', 'bigint', (c) => c.notNull().references('entities.id').onDelete('cascade'))
    .addColumn('form_id', 'bigint', (c) => c.notNull().references('forms.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('definition', 'jsonb', (c) => c.notNull())
    // Set once a task or case uses this version: from then on, saving makes a new one.
    .addColumn('in_use', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_by', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('form_versions_unique', ['form_id', 'version'])
    .execute();

  await db.schema
    .createTable('files')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('entity_id', 'bigint', (c) => c.notNull().references('entities.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('extension', 'text', (c) => c.notNull())
    .addColumn('mime', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('public', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_by', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('files_entity_idx').on('files').columns(['entity_id', 'created_at']).execute();

  await db.schema
    .createTable('external_hosts')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('entity_id', 'bigint', (c) => c.notNull().references('entities.id').onDelete('cascade'))
    .addColumn('host', 'text', (c) => c.notNull().check(sql`host ~ '^[a-z0-9.-]{1,253}$'`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('external_hosts_unique', ['entity_id', 'host'])
    .execute();
}
