import { type Kysely, sql } from 'kysely';

/**
 * Identity and access: the ACL catalogue per tenant (actions, modules =
 * permission targets, roles, rules = role x module -> actions), users,
 * server-side sessions, password-reset tokens, the mail outbox, sign-in
 * throttling and used captcha challenges.
 */
export async function up(db: Kysely<unknown>): Promise<void> {

  await db.schema
    .createTable('acl_actions')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('entity_id', 'bigint', (c) => c.notNull().references('entities.id').onDelete('cascade'))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    // Seeded rows the server's checks rely on: their code cannot change, they cannot be deleted.
    .addColumn('system', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('acl_actions_code', ['entity_id', 'code'])
    .execute();

  await db.schema
    .createTable('acl_modules')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('entity_id', 'bigint', (c) => c.notNull().references('entities.id').onDelete('cascade'))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('system', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('acl_modules_code', ['entity_id', 'code'])
    .execute();

  await db.schema
    .createTable('acl_roles')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('entity_id', 'bigint', (c) => c.notNull().references('entities.id').onDelete('cascade'))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    // A super-admin role holds every action on every module, whatever its rules say.
    .addColumn('super_admin', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('system', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('acl_roles_code', ['entity_id', 'code'])
    .execute();

  await db.schema
    .createTable('acl_rules')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('entity_id', 'bigint', (c) => c.notNull().references('entities.id').onDelete('cascade'))
    .addColumn('role_id', 'bigint', (c) => c.notNull().references('acl_roles.id').onDelete('cascade'))
    .addColumn('module_id', 'bigint', (c) => c.notNull().references('acl_modules.id').onDelete('cascade'))
    .addColumn('action_id', 'bigint', (c) => c.notNull().references('acl_actions.id').onDelete('cascade'))
    .addUniqueConstraint('acl_rules_unique', ['role_id', 'module_id', 'action_id'])
    .execute();
  await db.schema.createIndex('acl_rules_role_idx').on('acl_rules').column('role_id').execute();

  await db.schema
    .createTable('users')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('entity_id', 'bigint', (c) => c.notNull().references('entities.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('docnumber', 'text')
    .addColumn('role_id', 'bigint', (c) => c.notNull().references('acl_roles.id'))
    .addColumn('active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('language', 'text', (c) => c.notNull().defaultTo('en').check(sql`language in ('en', 'es')`))
    .addColumn('time_zone', 'text', (c) => c.notNull().defaultTo('America/Bogota'))
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('failed_logins', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('locked_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // One account per address, whatever its case.
  await sql`create unique index users_email_unique on users (lower(email))`.execute(db);
  await sql`create unique index users_docnumber_unique on users (entity_id, docnumber) where docnumber is not null`.execute(db);
  await db.schema.createIndex('users_entity_idx').on('users').columns(['entity_id', 'id']).execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('project_id', 'bigint', (c) => c.references('projects.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_seen_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('idle_seconds', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('password_resets')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('mail_outbox')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('entity_id', 'bigint', (c) => c.references('entities.id').onDelete('cascade'))
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body_text', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('queued').check(sql`status in ('queued', 'sent', 'failed', 'kept')`))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('sent_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('mail_outbox_status_idx').on('mail_outbox').columns(['status', 'id']).execute();

  // Failed sign-ins per key ('account:<email>' or 'address:<ip>') in a sliding window.
  await db.schema
    .createTable('auth_throttle')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('window_start', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  // ALTCHA accepts a solution twice: remember the used ones until they expire.
  await db.schema
    .createTable('captcha_used')
    .addColumn('signature', 'text', (c) => c.primaryKey())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();

  // Instance-wide secrets (captcha HMAC keys), shared by every instance on this database.
  await db.schema
    .createTable('app_secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
}
