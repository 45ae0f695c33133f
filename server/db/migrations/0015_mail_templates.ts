import { type Kysely, sql } from 'kysely';
import { seedEntityMailTemplates } from '../seed/templates.js';

/**
 * Email templates (issue 16): per tenant, a template serves one event and
 * has a subject and a sanitised HTML body in English and Spanish, with the
 * plain-text part generated from the HTML. One template per tenant and
 * event is the default (partial unique index), the one notifications send.
 *
 * Every tenant already there gets the default templates (new tenants get
 * them from seed/templates.ts, like the masters).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('mail_templates')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('entity_id', 'bigint', (c) => c.notNull().references('entities.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull().check(sql`length(name) between 1 and 120`))
    .addColumn('event', 'text', (c) =>
      c.notNull().check(
        sql`event in ('application_submitted', 'task_assigned', 'task_due_soon', 'task_overdue', 'case_returned', 'case_completed', 'case_closed', 'comment_visible', 'mention', 'digest')`,
      ),
    )
    // One line each (no CR/LF: header injection), 200 characters at most.
    .addColumn('subject_en', 'text', (c) => c.notNull().check(sql`length(subject_en) between 1 and 200 and subject_en !~ '[\r\n]'`))
    .addColumn('subject_es', 'text', (c) => c.notNull().check(sql`length(subject_es) between 1 and 200 and subject_es !~ '[\r\n]'`))
    .addColumn('body_html_en', 'text', (c) => c.notNull())
    .addColumn('body_html_es', 'text', (c) => c.notNull())
    .addColumn('body_text_en', 'text', (c) => c.notNull())
    .addColumn('body_text_es', 'text', (c) => c.notNull())
    .addColumn('is_default', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('mail_templates_name', ['entity_id', 'name'])
    .execute();
  await sql`create unique index mail_templates_one_default on mail_templates (entity_id, event) where is_default`.execute(db);
  await db.schema.createIndex('mail_templates_entity_event_idx').on('mail_templates').columns(['entity_id', 'event']).execute();

  const entities = await sql<{ id: number }>`select id from entities`.execute(db);
  for (const e of entities.rows) {
    await seedEntityMailTemplates(db as never, Number(e.id), ['application_submitted', 'task_assigned', 'task_due_soon', 'task_overdue', 'case_returned', 'case_completed', 'case_closed', 'comment_visible', 'mention', 'digest']);
  }
}
