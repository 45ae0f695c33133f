import { type Kysely, sql } from 'kysely';
import { seedEntityMailTemplates } from '../seed/templates.js';

/**
 * Issue 18: when staff withdraw a request for correction, its applicant is
 * told (the notification and mail event `correction_cancelled`, with its
 * default templates in English and Spanish for every tenant). People who
 * take the `case_returned` email take this one too.
 */
const EVENTS = [
  'mention', 'application_submitted', 'task_assigned', 'task_due_soon', 'task_overdue', 'case_returned', 'case_completed', 'case_closed', 'comment_visible',
  'tasks_imported', 'import_done', 'case_resubmitted', 'correction_cancelled',
];
const list = sql.raw(EVENTS.map((e) => `'${e}'`).join(', '));
const mailList = sql.raw([...EVENTS, 'digest'].map((e) => `'${e}'`).join(', '));

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table notifications drop constraint if exists notifications_kind_check`.execute(db);
  await sql`alter table notifications add constraint notifications_kind_check check (kind in (${list}))`.execute(db);
  await sql`alter table mail_templates drop constraint if exists mail_templates_event_check`.execute(db);
  await sql`alter table mail_templates add constraint mail_templates_event_check check (event in (${mailList}))`.execute(db);
  const entities = await sql<{ id: number }>`select id from entities`.execute(db);
  for (const e of entities.rows) await seedEntityMailTemplates(db as never, Number(e.id), ['correction_cancelled']);

  await sql`alter table users alter column email_events set default array[${list}]::text[]`.execute(db);
  await sql`update users set email_events = email_events || array['correction_cancelled']::text[] where 'case_returned' = any(email_events)`.execute(db);
}
