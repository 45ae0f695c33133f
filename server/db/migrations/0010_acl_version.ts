import { type Kysely, sql } from 'kysely';

/**
 * A counter per tenant that moves on every change to its roles, modules,
 * actions or rules, whoever makes it (an API call on any instance, a seed, a
 * hand-written SQL statement). Each request reads it with the session, so a
 * cache of rules keyed by it is never stale: a changed rule still takes
 * effect on the next request, without a rules query on every request.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('entities').addColumn('acl_version', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
  await sql`
    create function bump_acl_version() returns trigger language plpgsql as $$
    begin
      update entities set acl_version = acl_version + 1 where id = coalesce(new.entity_id, old.entity_id);
      return null;
    end $$`.execute(db);
  for (const table of ['acl_rules', 'acl_modules', 'acl_actions', 'acl_roles']) {
    await sql`create trigger ${sql.raw(`${table}_acl_version`)} after insert or update or delete on ${sql.table(table)} for each row execute function bump_acl_version()`.execute(db);
  }
}
