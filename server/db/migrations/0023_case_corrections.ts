import { type Kysely, sql } from 'kysely';
import { seedEntityMailTemplates } from '../seed/templates.js';

/**
 * Returned for correction (issue 18): staff send an open application back
 * to its applicant with a reason and the fields and checklist documents to
 * fix; the applicant fixes those and resubmits, and the workflow goes on
 * where it was (its tasks are left as they are).
 *
 * - `case_corrections`: one row per request, `open` until the applicant
 *   resubmits (`resubmitted`) or staff cancel it (`cancelled`, also when the
 *   case is completed or closed meanwhile); at most one open per case.
 *   `fields` are names of the case form's fields, `documents` codes of the
 *   tenant's checklist master (`definiciones`); `uploads` the files the
 *   applicant gave for each document, by code.
 * - a notification and mail event `case_resubmitted` (to the staff member
 *   who asked), with its default templates for every tenant; users who take
 *   task emails take it too. `case_returned` already exists.
 */
const EVENTS = [
  'mention', 'application_submitted', 'task_assigned', 'task_due_soon', 'task_overdue', 'case_returned', 'case_completed', 'case_closed', 'comment_visible',
  'tasks_imported', 'import_done', 'case_resubmitted',
];
const list = sql.raw(EVENTS.map((e) => `'${e}'`).join(', '));
const mailList = sql.raw([...EVENTS, 'digest'].map((e) => `'${e}'`).join(', '));

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('case_corrections')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('entity_id', 'bigint', (c) => c.notNull().references('entities.id').onDelete('cascade'))
    .addColumn('case_id', 'bigint', (c) => c.notNull().references('cases.id').onDelete('cascade'))
    .addColumn('requested_by', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('reason', 'text', (c) => c.notNull().check(sql`length(reason) between 1 and 2000`))
    .addColumn('fields', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
    .addColumn('documents', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('open').check(sql`state in ('open', 'resubmitted', 'cancelled')`))
    .addColumn('uploads', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('resubmitted_at', 'timestamptz')
    .addColumn('cancelled_at', 'timestamptz')
    .addColumn('cancelled_by', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addCheckConstraint('case_corrections_asks_something', sql`cardinality(fields) + cardinality(documents) > 0`)
    .execute();
  // At most one open correction per case (the commands check it under the case's lock; this is the backstop).
  await sql`create unique index case_corrections_one_open on case_corrections (case_id) where state = 'open'`.execute(db);
  await db.schema.createIndex('case_corrections_case_idx').on('case_corrections').columns(['case_id', 'id']).execute();

  await sql`alter table notifications drop constraint if exists notifications_kind_check`.execute(db);
  await sql`alter table notifications add constraint notifications_kind_check check (kind in (${list}))`.execute(db);
  await sql`alter table mail_templates drop constraint if exists mail_templates_event_check`.execute(db);
  await sql`alter table mail_templates add constraint mail_templates_event_check check (event in (${mailList}))`.execute(db);
  const entities = await sql<{ id: number }>`select id from entities`.execute(db);
  for (const e of entities.rows) await seedEntityMailTemplates(db as never, Number(e.id), ['case_resubmitted']);

  await sql`alter table users alter column email_events set default array[${list}]::text[]`.execute(db);
  await sql`update users set email_events = email_events || array['case_resubmitted']::text[] where 'task_assigned' = any(email_events)`.execute(db);
}
