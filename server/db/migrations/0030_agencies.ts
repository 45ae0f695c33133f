import { type Kysely, sql } from 'kysely';

/**
 * Agencies registering themselves, and the platform operator.
 *
 * - `users.platform_operator`: a person above the tenants, who lists and
 *   edits agencies (`/crear-entidad`). It is not a role of any tenant: a
 *   tenant's super-admin is never an operator, and an operator holds only
 *   the rights of their own role in their own tenant.
 * - `agency_registrations`: a registration waiting for its emailed link (the
 *   token kept hashed, the administrator's password already hashed); used
 *   once, within its expiry, by the transaction that makes the tenant.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users add column platform_operator boolean not null default false`.execute(db);

  await db.schema
    .createTable('agency_registrations')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('docnumber', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('plan', 'text', (c) => c.notNull().check(sql`plan in ('standard', 'premium')`))
    .addColumn('admin_name', 'text', (c) => c.notNull())
    .addColumn('admin_email', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull().check(sql`language in ('en', 'es')`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('entity_id', 'bigint', (c) => c.references('entities.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}
