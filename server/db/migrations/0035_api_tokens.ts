import { type Kysely, sql } from 'kysely';

/**
 * Issue 22: API tokens. A person's personal access tokens, and service
 * accounts (a user flagged `service_account`, with a role like any other,
 * who never signs in with a password) whose tokens an administrator makes.
 * A token is shown once; only its SHA-256 is kept (`token_hash`) with the
 * first characters (`prefix`) to tell tokens apart in a list. `read_only`
 * tokens may only read (GET); `expires_at` null means "never" (service
 * accounts only). Revoking deletes the row; blocking the user (`active`)
 * ends its tokens at once, since every request reads the user afresh.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('service_account', 'boolean', (c) => c.notNull().defaultTo(false)).execute();
  await db.schema
    .createTable('api_tokens')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('entity_id', 'bigint', (c) => c.notNull().references('entities.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('read_only', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('expires_at', 'timestamptz')
    .addColumn('last_used_at', 'timestamptz')
    .addColumn('created_by', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // Tenant-led (tenant-layout test): a user's tokens, listed on their profile or the service account's page.
  await db.schema.createIndex('api_tokens_entity_user_idx').on('api_tokens').columns(['entity_id', 'user_id']).execute();
}
