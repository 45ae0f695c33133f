import { type Kysely, sql } from 'kysely';

/** Tenants (entities) and their projects: branding and behaviour settings. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('entities')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('docnumber', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('plan', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('account_limit', 'integer', (c) => c.notNull().defaultTo(50))
    .addColumn('disk_quota_mb', 'integer', (c) => c.notNull().defaultTo(1024))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('projects')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('uid', 'text', (c) => c.notNull().unique().check(sql`uid ~ '^[a-z0-9][a-z0-9-]{0,62}$'`))
    .addColumn('entity_id', 'bigint', (c) => c.notNull().references('entities.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('color_primary', 'text', (c) => c.notNull().defaultTo('#0288D1'))
    .addColumn('color_secondary', 'text', (c) => c.notNull().defaultTo('#757575'))
    .addColumn('color_accent', 'text', (c) => c.notNull().defaultTo('#9E9E9E'))
    .addColumn('color_text', 'text', (c) => c.notNull().defaultTo('#212121'))
    .addColumn('favicon', 'text')
    .addColumn('logo', 'text')
    .addColumn('support_phone', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('time_zone', 'text', (c) => c.notNull().defaultTo('America/Bogota'))
    .addColumn('language', 'text', (c) => c.notNull().defaultTo('en').check(sql`language in ('en', 'es')`))
    .addColumn('idle_timeout_seconds', 'integer', (c) => c.notNull().defaultTo(3000).check(sql`idle_timeout_seconds > 0`))
    .addColumn('autosave_seconds', 'integer', (c) => c.notNull().defaultTo(300).check(sql`autosave_seconds > 0`))
    // Wall-clock time read in US Eastern (spec section 9), e.g. 2021-12-01T00:00:00.
    .addColumn('new_applications_deadline', 'text')
    .addColumn('allow_new_applications', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('maintenance', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('is_default', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema.createIndex('projects_entity_idx').on('projects').column('entity_id').execute();
  // At most one default project: the one shown when the browser names none.
  await sql`create unique index projects_one_default on projects (is_default) where is_default`.execute(db);
}
