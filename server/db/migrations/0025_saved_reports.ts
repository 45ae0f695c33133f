import { type Kysely, sql } from 'kysely';

/**
 * Reports (issue 19).
 *
 * - `saved_reports`: a person's saved report: its name, which of the five
 *   reports, the filter bar and the layout (view, rows, columns, measure,
 *   chart, sort), optionally shared with a team of the tenant whose members
 *   may read it. Only its owner changes or deletes it; names are unique per
 *   owner.
 * - `tasks.protocol_id`: the protocol of the task's case, copied when the
 *   task is inserted (a trigger: every writer of tasks, the engine and the
 *   bulk import, gets it without a line of theirs; a case never changes
 *   protocol). The reports group and filter tasks by protocol task; without
 *   it every report over tasks joined a million tasks to their cases, which
 *   doubled its time (bench/reports.ts, docs/performance.md).
 * - indexes measured by bench/reports.ts: the task details' and the task
 *   list's newest-first page (`tasks_entity_created_idx`); the dashboard's
 *   decisions of the last 30 days read from the index alone
 *   (`tasks_entity_decided_idx`) and its overdue tasks (`tasks_overdue_idx`);
 *   the user tracking's rows, per person, application and action, read in
 *   order (`case_events_user_idx` replaced by one that carries them).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('saved_reports')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('entity_id', 'bigint', (c) => c.notNull().references('entities.id').onDelete('cascade'))
    .addColumn('owner_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('team_id', 'bigint', (c) => c.references('teams.id').onDelete('set null'))
    .addColumn('name', 'text', (c) => c.notNull().check(sql`char_length(name) between 1 and 100`))
    .addColumn('report', 'text', (c) =>
      c.notNull().check(sql`report in ('status-by-task', 'task-details', 'status-by-user', 'tracking-by-case', 'tracking-by-user')`),
    )
    .addColumn('filters', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('layout', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('saved_reports_name', ['owner_id', 'name'])
    .execute();
  // The reports shared with a team, for its members' list.
  await sql`create index saved_reports_team_idx on saved_reports (team_id) where team_id is not null`.execute(db);

  await sql`alter table tasks add column protocol_id bigint`.execute(db);
  await sql`update tasks t set protocol_id = c.protocol_id from cases c where c.id = t.case_id`.execute(db);
  await sql`alter table tasks alter column protocol_id set not null`.execute(db);
  await sql`
    create function tasks_protocol_of_case() returns trigger language plpgsql as $$
    begin
      select c.protocol_id into new.protocol_id from cases c where c.id = new.case_id;
      return new;
    end $$`.execute(db);
  await sql`create trigger tasks_protocol before insert on tasks for each row execute function tasks_protocol_of_case()`.execute(db);

  await sql`create index tasks_entity_created_idx on tasks (entity_id, created_at desc, id desc)`.execute(db);
  await sql`create index tasks_entity_decided_idx on tasks (entity_id, decided_at) include (state, created_at, protocol_id, code) where decided_at is not null`.execute(db);
  await sql`create index tasks_overdue_idx on tasks (entity_id) where overdue and state in ('UNASSIGNED', 'PENDING', 'BLOCKED', 'INCONSISTENCY')`.execute(db);
  await sql`drop index case_events_user_idx`.execute(db);
  await sql`create index case_events_user_idx on case_events (entity_id, user_id, case_id, action, type) include (created_at) where user_id is not null`.execute(db);
}
