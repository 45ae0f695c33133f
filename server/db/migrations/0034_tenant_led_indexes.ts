import { type Kysely, sql } from 'kysely';

/**
 * The tenant-keyed layout (issue 21): the indexes of the large tables that
 * did not lead with `entity_id` now do, so that every query of one tenant
 * reads that tenant's part of an index, and the tables can be partitioned or
 * distributed by tenant (Citus with `entity_id` as the distribution column)
 * without changing an index again. server/db/tenant-layout.api.test.ts keeps
 * every index in line; docs/performance.md ("Tenant-led indexes") has the
 * plans before and after.
 *
 * Each index keeps its name, its uniqueness and its WHERE: a unique index on
 * (case_id, number) becomes unique (entity_id, case_id, number), the same
 * guarantee since a case belongs to one tenant; the code's `on conflict`
 * names the new columns (masters/repo.ts upsertItems) and constraints.ts maps
 * the same names. New indexes are built before the old ones are dropped.
 *
 * The foreign keys from a case's rows to the case become (entity_id, case_id)
 * -> cases (entity_id, id): deleting a case (a draft) looks up each child
 * table by them, and with case_id no longer first in any index PostgreSQL 15
 * (no skip scan) would read each of those tables whole. They also make a row
 * of one tenant pointing at another tenant's case impossible, and are the
 * shape Citus asks of foreign keys between distributed tables.
 *
 * Kept as they were: the two GIN indexes of cases (cases_data_gin,
 * cases_search_name_trgm; the reason is in the test's list and
 * docs/operations.md "Tenant-keyed layout"). The outbox gets the tenant-led
 * index its page lacked (mail_outbox_entity_idx).
 */

interface Replacement {
  table: string;
  name: string;
  /** The new definition after `on <table>` (columns and WHERE). */
  next: string;
  /** The old one, for down. */
  previous: string;
  unique?: boolean;
  /** Backs a constraint of that kind (primary key or unique constraint), not a bare index. */
  constraint?: 'primary key' | 'unique';
}

const OPEN = `state in ('UNASSIGNED', 'PENDING', 'BLOCKED', 'INCONSISTENCY')`;

const REPLACEMENTS: Replacement[] = [
  // cases
  { table: 'cases', name: 'cases_owner_idx', next: '(entity_id, owner_id, state)', previous: '(owner_id, state)' },
  {
    table: 'cases',
    name: 'cases_serial_unique',
    unique: true,
    next: '(entity_id, project_id, serial_month, serial_seq) where serial is not null',
    previous: '(project_id, serial_month, serial_seq) where serial is not null',
  },
  // tasks
  { table: 'tasks', name: 'tasks_case_idx', next: '(entity_id, case_id, id)', previous: '(case_id, id)' },
  { table: 'tasks', name: 'tasks_open_user_idx', next: `(entity_id, responsible_user_id, due_at) where ${OPEN}`, previous: `(responsible_user_id, due_at) where ${OPEN}` },
  { table: 'tasks', name: 'tasks_open_team_idx', next: `(entity_id, responsible_team_id, due_at) where ${OPEN}`, previous: `(responsible_team_id, due_at) where ${OPEN}` },
  // history, comments, marks, participants, corrections, landing links
  { table: 'case_events', name: 'case_events_case_idx', next: '(entity_id, case_id, id)', previous: '(case_id, id)' },
  { table: 'comments', name: 'comments_case_number', constraint: 'unique', next: '(entity_id, case_id, number)', previous: '(case_id, number)' },
  { table: 'comments', name: 'comments_author_idx', next: '(entity_id, author_id, created_at)', previous: '(author_id, created_at)' },
  { table: 'comment_mentions', name: 'comment_mentions_pk', constraint: 'primary key', next: '(entity_id, comment_id, user_id)', previous: '(comment_id, user_id)' },
  { table: 'case_document_marks', name: 'case_document_marks_case_idx', next: '(entity_id, case_id, code, id)', previous: '(case_id, code, id)' },
  { table: 'case_document_marks', name: 'case_document_marks_comment_idx', next: '(entity_id, comment_id)', previous: '(comment_id)' },
  { table: 'case_participants', name: 'case_participants_pk', constraint: 'primary key', next: '(entity_id, case_id, user_id)', previous: '(case_id, user_id)' },
  { table: 'case_participants', name: 'case_participants_user_idx', next: '(entity_id, user_id, case_id)', previous: '(user_id)' },
  { table: 'case_corrections', name: 'case_corrections_one_open', unique: true, next: `(entity_id, case_id) where state = 'open'`, previous: `(case_id) where state = 'open'` },
  { table: 'case_corrections', name: 'case_corrections_case_idx', next: '(entity_id, case_id, id)', previous: '(case_id, id)' },
  { table: 'case_landing_links', name: 'case_landing_links_live_idx', unique: true, next: '(entity_id, case_id) where revoked_at is null', previous: '(case_id) where revoked_at is null' },
  // notifications, mail, masters
  { table: 'notifications', name: 'notifications_user_idx', next: '(entity_id, user_id, id)', previous: '(user_id, id)' },
  { table: 'mail_outbox', name: 'mail_outbox_case_idx', next: '(entity_id, case_id) where case_id is not null', previous: '(case_id) where case_id is not null' },
  { table: 'master_items', name: 'master_items_code', constraint: 'unique', next: '(entity_id, master_id, code)', previous: '(master_id, code)' },
  { table: 'master_items', name: 'master_items_parent_idx', next: '(entity_id, parent_item_id)', previous: '(parent_item_id)' },
  { table: 'master_items', name: 'master_items_search_idx', next: '(entity_id, master_id, lower(name))', previous: '(master_id, lower(name))' },
];

/** The foreign keys from a case's rows to the case: (case_id) before, (entity_id, case_id) after. */
const CASE_KEYS: Array<{ table: string; onDelete: 'cascade' | 'set null' }> = [
  { table: 'tasks', onDelete: 'cascade' },
  { table: 'case_events', onDelete: 'cascade' },
  { table: 'comments', onDelete: 'cascade' },
  { table: 'case_document_marks', onDelete: 'cascade' },
  { table: 'case_participants', onDelete: 'cascade' },
  { table: 'case_corrections', onDelete: 'cascade' },
  { table: 'case_landing_links', onDelete: 'cascade' },
  { table: 'mail_outbox', onDelete: 'set null' },
];

async function swap(db: Kysely<unknown>, r: Replacement, definition: string): Promise<void> {
  const temporary = `${r.name}_next`;
  const table = sql.table(r.table);
  await sql`create ${sql.raw(r.unique || r.constraint ? 'unique ' : '')}index ${sql.id(temporary)} on ${table} ${sql.raw(definition)}`.execute(db);
  if (r.constraint) {
    await sql`alter table ${table} drop constraint ${sql.id(r.name)}`.execute(db);
    // Takes the index over and renames it to the constraint's name.
    await sql`alter table ${table} add constraint ${sql.id(r.name)} ${sql.raw(r.constraint)} using index ${sql.id(temporary)}`.execute(db);
  } else {
    await sql`drop index ${sql.id(r.name)}`.execute(db);
    await sql`alter index ${sql.id(temporary)} rename to ${sql.id(r.name)}`.execute(db);
  }
}

async function caseKey(db: Kysely<unknown>, table: string, columns: string, references: string, onDelete: string): Promise<void> {
  const name = sql.id(`${table}_case_id_fkey`);
  await sql`alter table ${sql.table(table)} drop constraint ${name}`.execute(db);
  await sql`alter table ${sql.table(table)} add constraint ${name} foreign key ${sql.raw(columns)} references ${sql.raw(references)} on delete ${sql.raw(onDelete)} not valid`.execute(db);
  await sql`alter table ${sql.table(table)} validate constraint ${name}`.execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const r of REPLACEMENTS) await swap(db, r, r.next);
  // What a composite foreign key references: a case's id within its tenant.
  await sql`alter table cases add constraint cases_entity_id_id_key unique (entity_id, id)`.execute(db);
  for (const k of CASE_KEYS) {
    // set null clears case_id alone: entity_id is not null and stays (PostgreSQL 15's column list).
    await caseKey(db, k.table, '(entity_id, case_id)', 'cases (entity_id, id)', k.onDelete === 'set null' ? 'set null (case_id)' : k.onDelete);
  }
  // The outbox page: a tenant's messages, newest first (mail/repo.ts listOutbox's default order).
  await sql`create index mail_outbox_entity_idx on mail_outbox (entity_id, created_at desc, id desc)`.execute(db);
  await sql`analyze cases, tasks, case_events, comments, comment_mentions, case_document_marks, case_participants, case_corrections, case_landing_links, notifications, mail_outbox, master_items`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index mail_outbox_entity_idx`.execute(db);
  for (const k of CASE_KEYS) await caseKey(db, k.table, '(case_id)', 'cases (id)', k.onDelete);
  await sql`alter table cases drop constraint cases_entity_id_id_key`.execute(db);
  for (const r of REPLACEMENTS) await swap(db, r, r.previous);
}
