import { type Kysely, sql } from 'kysely';
import { statementTriggers } from './0014_realtime.js';

/**
 * Issue 20, the application settings page (`/configuracion`) and landing pages:
 *
 * - `projects.block_indexing`: search engines are told not to index the
 *   project's pages (a robots meta tag, `X-Robots-Tag`, `/robots.txt`).
 * - `projects.logo_file_id`, `favicon_file_id`: the uploaded images behind
 *   `logo` and `favicon` (which stay the addresses the browser loads); the
 *   file row counts against the tenant's disk quota, and a project's image is
 *   served publicly only while the project names it.
 * - projects are announced like cases (0014): a saved setting reaches every
 *   open page of the tenant, which refetches the project's public settings.
 * - `entity_storage_usage`: the tenant's database use, estimated at most
 *   every few minutes (server/modules/settings/usage.ts) and kept here, so the
 *   settings page never counts rows on each view.
 * - `case_landing_links`: a case's printable public page, reached by a code
 *   of 256 random bits of which only the SHA-256 is kept; one live link per
 *   case (a new one revokes the old).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table projects
      add column block_indexing boolean not null default false,
      add column logo_file_id uuid references files(id) on delete set null,
      add column favicon_file_id uuid references files(id) on delete set null`.execute(db);

  await statementTriggers(db, 'projects', 'project', `select entity_id, array_agg(distinct id)::bigint[] ids, '{}'::bigint[] cases,
    '{}'::bigint[] users from rt_all group by entity_id`);

  await sql`
    create table entity_storage_usage (
      entity_id bigint primary key references entities(id) on delete cascade,
      database_bytes bigint not null,
      computed_at timestamptz not null default now()
    )`.execute(db);

  await sql`
    create table case_landing_links (
      id bigserial primary key,
      entity_id bigint not null references entities(id) on delete cascade,
      case_id bigint not null references cases(id) on delete cascade,
      code_hash bytea not null unique check (octet_length(code_hash) = 32),
      created_by bigint references users(id) on delete set null,
      created_at timestamptz not null default now(),
      revoked_at timestamptz
    )`.execute(db);
  await sql`create unique index case_landing_links_live_idx on case_landing_links (case_id) where revoked_at is null`.execute(db);
  await sql`create index case_landing_links_entity_idx on case_landing_links (entity_id, case_id)`.execute(db);
}
