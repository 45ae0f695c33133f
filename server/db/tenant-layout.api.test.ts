import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../tests/support/app.js';
import { type DbHandle, openDb } from './pool.js';

/**
 * The tenant-keyed layout (issue 21): every table carries `entity_id` and
 * every index of such a table leads with it, so that the large tables can be
 * partitioned or distributed by tenant (Citus with `entity_id` as the
 * distribution column) and every query of one tenant reads that tenant's part
 * of an index only. What does not follow the rule is listed below with its
 * reason, read from the migrated database itself (pg_catalog), so a new table
 * or index outside the rule fails here by name and is a conscious choice.
 *
 * The pg-boss schema (`pgboss`) is pg-boss's own and not ours to shape.
 */

/** Tables without an `entity_id` column. */
const GLOBAL_TABLES: Record<string, string> = {
  entities: 'the tenants themselves',
  kysely_migration: "Kysely's record of the applied migrations (platform-wide)",
  kysely_migration_lock: "Kysely's migration lock row (platform-wide)",
  app_secrets: 'platform secrets (the captcha key), one set for every tenant',
  auth_throttle: 'sign-in throttling by account or address, looked up before anyone knows the tenant',
  rate_limits: "the request limits' counters per route and address or per account, counted before the tenant is known (unlogged, a minute's life)",
  captcha_used: 'used captcha solutions, checked before the tenant is known (a solution is valid once, anywhere)',
  sessions: 'looked up by the cookie token hash on every request, before the tenant is known; belongs to a user',
  password_resets: 'looked up by the emailed token hash, before the tenant is known; belongs to a user',
  socket_io_attachments: "@socket.io/postgres-adapter's own table (its shape is the library's)",
  case_counters: "a project's application numbers per month, keyed by project (one tenant's) and only read with it",
  case_import_rows: "an import's outcome per CSV line, reached only through its case_imports row (tenant-checked first); keyed by (import_id, line)",
  data_tape_chunks: "a data tape file's bytes, reached only through its data_tape_exports row (tenant-checked first); keyed by (export_id, seq)",
};

/**
 * Indexes of tenant tables whose first column is not `entity_id`, which are
 * right as they are: looked up across tenants on purpose (a token, a sign-in
 * email, a sweep over every tenant), or small configuration tables reached by
 * a parent's id once that parent was read in the tenant.
 */
const GLOBAL_INDEXES: Record<string, string> = {
  // Looked up before the tenant is known.
  users_email_unique: 'sign-in finds the user by email before the tenant is known; an email is one account platform-wide',
  projects_uid_key: "a project's uid is unique platform-wide (the address of its pages)",
  projects_one_default: 'one default project on the whole platform',
  agency_registrations_token_hash_key: 'an agency registration is confirmed by its emailed token hash, before any tenant exists',
  api_tokens_token_hash_key: 'an API token is found by its hash alone: the request says no tenant before the token is read',
  case_landing_links_code_hash_key: 'a landing page is opened by the hash of its code alone (public, no tenant in the request)',
  case_parties_token_hash_key: "a party's invitation link is opened by the hash of its token alone (public, no tenant in the request)",
  // Sweeps over every tenant (one run a minute across instances).
  tasks_due_idx: 'the deadline sweep: pending tasks past due in every tenant (workflow/engine.ts sweepDeadlines)',
  tasks_remind_idx: 'the deadline sweep: pending tasks to remind, in every tenant',
  tasks_escalate_idx: 'the deadline sweep: pending tasks whose escalation moment came, in every tenant',
  mail_outbox_status_idx: "the mail sweep: queued messages of every tenant that have no job yet (mail/outbox.ts enqueuePending)",
  case_parties_sweep_idx: 'the parties sweep: invited and joined parties of every tenant, by deadline (parties/commands.ts sweepParties)',
  webhook_deliveries_due_idx: 'the webhook sender and its minute sweep: pending deliveries of every tenant whose next try is due (webhooks/deliver.ts sendNext)',
  // Small configuration tables, read by their parent's id after the parent was read in the tenant.
  acl_rules_unique: "a role's rules (role, module, action); a few hundred rows per tenant, read with the role",
  acl_rules_role_idx: "a role's rules, read with the role",
  form_versions_unique: "a form's versions, read with the form",
  protocol_versions_unique: "a protocol's versions, read with the protocol",
  team_members_unique: "a team's members, read with the team",
  team_members_user_idx: "a user's teams, read with the user (the session's actor)",
  saved_searches_name: "a user's saved searches, read by their owner",
  saved_reports_name: "a user's saved reports, read by their owner",
  saved_reports_team_idx: 'reports shared with a team, read with the reader’s teams',
  project_protocols_pkey: 'which project a protocol belongs to, keyed by the protocol (one tenant’s)',
  project_protocols_project_idx: "a project's protocols, read with the project",
};

/**
 * Indexes of the large tables that do not lead with `entity_id` although the
 * queries using them filter by tenant. Migration 0034 replaced the b-trees
 * (and made the case children's foreign keys (entity_id, case_id)); what is
 * left is kept on purpose, with its reason. Listed, not hidden: an index that
 * is replaced leaves the list, and the test then keeps the new one in line.
 */
const NOT_YET_TENANT_LED: Record<string, string> = {
  // The GIN indexes of cases. btree_gin (trusted; in the embedded PostgreSQL 18 and Debian's 15 contrib) would let
  // them lead with entity_id, but a GIN index keeps one posting list per key: entity_id's would hold every case of a
  // tenant, and a search of a large tenant would intersect that list with the word's or the value's. Kept: every
  // query that uses them filters c.entity_id on the heap, and partitioning cases by tenant (or Citus) makes each
  // partition's (shard's) GIN tenant-local without changing the index (docs/operations.md).
  cases_data_gin: 'kept: duplicate probes and form filters (cases/filters.ts, commands.ts) with c.entity_id; tenant-local once cases are partitioned by tenant',
  cases_search_name_trgm: 'kept: the name search (cases/textSearch.ts) with c.entity_id; tenant-local once cases are partitioned by tenant',
};

/**
 * Let through by rule, not by name: a primary key on `id` alone (a bigserial,
 * or the uuid of files). An id is unique across tenants and every finder by id also filters
 * entity_id; distributing a table by tenant (Citus) would make it
 * (entity_id, id).
 */
const isPrimaryKeyOnId = (i: IndexRow) => i.is_primary && /\(id\)$/.test(i.definition);

interface IndexRow {
  table_name: string;
  index_name: string;
  first_column: string;
  is_primary: boolean;
  definition: string;
}

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let handle: DbHandle;
let tables: { table_name: string; has_entity: boolean }[];
let indexes: IndexRow[];

beforeAll(async () => {
  database = await createTestDatabase();
  handle = openDb(database.url, { max: 1 });
  // Ordinary and partitioned tables of our schemas (not the system's, not pg-boss's).
  const t = await sql<{ table_name: string; has_entity: boolean }>`
    select c.relname as table_name,
           exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'entity_id' and not a.attisdropped) as has_entity
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where c.relkind in ('r', 'p') and not c.relispartition
       and n.nspname not in ('pg_catalog', 'information_schema', 'pgboss') and left(n.nspname, 3) <> 'pg_'
     order by 1`.execute(handle.db);
  tables = t.rows;
  // Every index of those tables with its first key column (or expression).
  const i = await sql<IndexRow>`
    select c.relname as table_name, ic.relname as index_name, pg_get_indexdef(x.indexrelid, 1, true) as first_column,
           x.indisprimary as is_primary, pg_get_indexdef(x.indexrelid) as definition
      from pg_index x
      join pg_class ic on ic.oid = x.indexrelid
      join pg_class c on c.oid = x.indrelid
      join pg_namespace n on n.oid = c.relnamespace
     where c.relkind in ('r', 'p') and not c.relispartition
       and n.nspname not in ('pg_catalog', 'information_schema', 'pgboss') and left(n.nspname, 3) <> 'pg_'
     order by 1, 2`.execute(handle.db);
  indexes = i.rows;
});

afterAll(async () => {
  await handle?.close();
  await database?.drop();
});

describe('the tenant-keyed layout', () => {
  it('every table has entity_id, or is a global table listed with its reason', () => {
    const global = tables.filter((t) => !t.has_entity).map((t) => t.table_name);
    const unlisted = global.filter((name) => !(name in GLOBAL_TABLES));
    expect(unlisted, `tables without entity_id and not in GLOBAL_TABLES (add entity_id, or list it with its reason): ${unlisted.join(', ')}`).toEqual([]);
    const stale = Object.keys(GLOBAL_TABLES).filter((name) => !global.includes(name));
    expect(stale, `GLOBAL_TABLES names tables that are gone or now have entity_id: ${stale.join(', ')}`).toEqual([]);
    expect(tables.filter((t) => t.has_entity).length).toBeGreaterThan(30);
  });

  it('every index of a tenant table leads with entity_id, or is listed with its reason', () => {
    const tenantTables = new Set(tables.filter((t) => t.has_entity).map((t) => t.table_name));
    const offRule = indexes.filter((i) => tenantTables.has(i.table_name) && i.first_column !== 'entity_id');
    const listed = (i: IndexRow) => i.index_name in GLOBAL_INDEXES || i.index_name in NOT_YET_TENANT_LED;
    const unlisted = offRule.filter((i) => !isPrimaryKeyOnId(i) && !listed(i));
    expect(
      unlisted.map((i) => `${i.index_name}: ${i.definition}`),
      'indexes of tenant tables not leading with entity_id and not listed (lead with entity_id, or list it with its reason)',
    ).toEqual([]);
    const names = new Set(offRule.map((i) => i.index_name));
    const stale = [...Object.keys(GLOBAL_INDEXES), ...Object.keys(NOT_YET_TENANT_LED)].filter((name) => !names.has(name));
    expect(stale, 'listed indexes that are gone or now lead with entity_id: remove them from the list').toEqual([]);
    expect(Object.keys(GLOBAL_INDEXES).filter((n) => n in NOT_YET_TENANT_LED), 'an index is in both lists').toEqual([]);
  });
});
