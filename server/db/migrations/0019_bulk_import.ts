import { type Kysely, sql } from 'kysely';
import { seedEntityMailTemplates } from '../seed/templates.js';

/**
 * Bulk import at programme scale (issue 17):
 * - the uploaded file is streamed into `case_import_rows` (one row per data
 *   line, its cells as a JSON array), not kept as one text: the dry run and
 *   the run read it in chunks, each row records its outcome (created,
 *   skipped as imported before, failed with its reasons) in the same
 *   transaction as the cases it made, so a try cut off resumes at the first
 *   row without one, and the rejected rows can be downloaded;
 * - an import has a kind (csv, xlsx), a mode (import the valid rows, or all
 *   or nothing: `rejected` when a row was bad and nothing was imported), and
 *   when it started and finished (its rate and time left);
 * - two notification and mail events: `tasks_imported` (one summary to each
 *   assignee instead of one per task) and `import_done` (to the importer),
 *   with the import and a count; every tenant gets their default templates,
 *   and users who take task emails take the summary too.
 */
const EVENTS = [
  'mention', 'application_submitted', 'task_assigned', 'task_due_soon', 'task_overdue', 'case_returned', 'case_completed', 'case_closed', 'comment_visible',
  'tasks_imported', 'import_done',
];
const list = sql.raw(EVENTS.map((e) => `'${e}'`).join(', '));
const mailList = sql.raw([...EVENTS, 'digest'].map((e) => `'${e}'`).join(', '));

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('case_import_rows')
    .addColumn('import_id', 'bigint', (c) => c.notNull().references('case_imports.id').onDelete('cascade'))
    .addColumn('line', 'integer', (c) => c.notNull())
    .addColumn('cells', 'jsonb', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.check(sql`outcome in ('created', 'skipped', 'failed')`))
    .addColumn('errors', 'jsonb')
    .addColumn('case_id', 'bigint', (c) => c.references('cases.id').onDelete('set null'))
    .addPrimaryKeyConstraint('case_import_rows_pk', ['import_id', 'line'])
    .execute();

  await sql`alter table case_imports alter column content drop not null`.execute(db);
  await sql`alter table case_imports drop constraint if exists case_imports_status_check`.execute(db);
  await sql`alter table case_imports add constraint case_imports_status_check check (status in ('uploaded', 'running', 'done', 'interrupted', 'rejected'))`.execute(db);
  await db.schema
    .alterTable('case_imports')
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('csv').check(sql`kind in ('csv', 'xlsx')`))
    .addColumn('mode', 'text', (c) => c.notNull().defaultTo('valid_rows').check(sql`mode in ('valid_rows', 'all_or_nothing')`))
    .addColumn('started_at', 'timestamptz')
    .addColumn('finished_at', 'timestamptz')
    .execute();

  await sql`alter table notifications drop constraint if exists notifications_kind_check`.execute(db);
  await sql`alter table notifications add constraint notifications_kind_check check (kind in (${list}))`.execute(db);
  await db.schema
    .alterTable('notifications')
    .addColumn('import_id', 'bigint', (c) => c.references('case_imports.id').onDelete('set null'))
    .addColumn('count', 'integer')
    .execute();

  await sql`alter table mail_templates drop constraint if exists mail_templates_event_check`.execute(db);
  await sql`alter table mail_templates add constraint mail_templates_event_check check (event in (${mailList}))`.execute(db);
  const entities = await sql<{ id: number }>`select id from entities`.execute(db);
  // The events this migration knows (a later migration seeds the events it adds).
  for (const e of entities.rows) await seedEntityMailTemplates(db as never, Number(e.id), [...EVENTS, 'digest'] as never);

  await sql`alter table users alter column email_events set default array[${list}]::text[]`.execute(db);
  await sql`update users set email_events = email_events || array['tasks_imported', 'import_done']::text[] where 'task_assigned' = any(email_events)`.execute(db);
}
