import { type Kysely, sql } from 'kysely';

/**
 * Notifications for every event of issue 16, not only mentions:
 * - `notifications.kind` takes the mail events (a task assigned, due soon or
 *   overdue, an application submitted, returned, completed or closed, a
 *   comment the applicant sees, a mention), and may name the task;
 * - each user chooses which events also reach them by email, and whether the
 *   task and mention ones come as one daily digest instead (`digest_sent_at`:
 *   when the last one went out, so that it goes once a local day, and the
 *   next lists the mentions since);
 * - a task remembers its reminder (`reminded_at`) and how far its escalation
 *   went (0 none, 1 the team's leaders, 2 the role named on the protocol
 *   task, due at `escalate_at`): each is sent once, whoever runs the sweep.
 */
const EVENTS = ['mention', 'application_submitted', 'task_assigned', 'task_due_soon', 'task_overdue', 'case_returned', 'case_completed', 'case_closed', 'comment_visible'];
const list = sql.raw(EVENTS.map((e) => `'${e}'`).join(', '));

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table notifications drop constraint if exists notifications_kind_check`.execute(db);
  await sql`alter table notifications add constraint notifications_kind_check check (kind in (${list}))`.execute(db);
  await db.schema
    .alterTable('notifications')
    .addColumn('task_id', 'bigint', (c) => c.references('tasks.id').onDelete('set null'))
    .addColumn('detail', 'text')
    .execute();

  await db.schema
    .alterTable('users')
    .addColumn('email_events', sql`text[]`, (c) => c.notNull().defaultTo(sql`array[${list}]::text[]`))
    .addColumn('digest', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('digest_sent_at', 'timestamptz')
    .execute();

  await db.schema
    .alterTable('tasks')
    .addColumn('reminded_at', 'timestamptz')
    .addColumn('escalation_level', 'smallint', (c) => c.notNull().defaultTo(0))
    .addColumn('escalate_at', 'timestamptz')
    .execute();
  // The sweep's three questions, each answered by a small partial index.
  await sql`create index tasks_remind_idx on tasks (due_at) where state = 'PENDING' and reminded_at is null and not overdue`.execute(db);
  await sql`create index tasks_escalate_idx on tasks (escalate_at) where state = 'PENDING' and escalation_level = 1`.execute(db);
}
