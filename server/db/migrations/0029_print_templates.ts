import { type Kysely, sql } from 'kysely';
import { seedEntityPrintTemplates } from '../seed/print-templates.js';

/**
 * Print and attachment templates (issue 20, target `menu_configuracion`):
 * per tenant, optionally per protocol (null: every protocol of the tenant),
 * a fillable PDF (`acroform`: the uploaded PDF and the mapping of its fields
 * to case fields) or a letter (`letter`: a sanitised HTML body in English
 * and Spanish with the email templates' placeholders, rendered to PDF).
 *
 * The PDF lives in the row (bytea, 5 MiB at most, checked at upload): it is
 * configuration read whole on every print with the row, any instance serves
 * it, it goes with the template when deleted, and it is not a case's file
 * (the files module's links follow a record's readers and count against the
 * tenant's disk quota for applicants' documents).
 *
 * An email template may name a print template (`print_template_id`): the
 * PDF, rendered for the message's case when it is delivered, goes with it
 * (mail_outbox keeps the template and the language to render in).
 *
 * Every tenant already there gets the built-in templates (new tenants get
 * them from seed/print-templates.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('print_templates')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('entity_id', 'bigint', (c) => c.notNull().references('entities.id').onDelete('cascade'))
    .addColumn('protocol_id', 'bigint', (c) => c.references('protocols.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('acroform', 'letter')`))
    .addColumn('name', 'text', (c) => c.notNull().check(sql`length(name) between 1 and 120`))
    .addColumn('name_en', 'text', (c) => c.notNull().check(sql`length(name_en) between 1 and 120`))
    .addColumn('pdf', 'bytea', (c) => c.check(sql`octet_length(pdf) <= 5242880`))
    .addColumn('pdf_name', 'text')
    .addColumn('mapping', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('body_html_en', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('body_html_es', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('builtin', 'text')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('print_templates_name', ['entity_id', 'name'])
    .addUniqueConstraint('print_templates_builtin', ['entity_id', 'builtin'])
    .execute();
  await db.schema.createIndex('print_templates_entity_protocol_idx').on('print_templates').columns(['entity_id', 'protocol_id']).execute();

  await db.schema
    .alterTable('mail_templates')
    .addColumn('print_template_id', 'bigint', (c) => c.references('print_templates.id').onDelete('set null'))
    .execute();
  await db.schema
    .alterTable('mail_outbox')
    .addColumn('print_template_id', 'bigint', (c) => c.references('print_templates.id').onDelete('set null'))
    .addColumn('print_language', 'text', (c) => c.check(sql`print_language in ('en', 'es')`))
    .execute();

  const entities = await sql<{ id: number }>`select id from entities`.execute(db);
  for (const e of entities.rows) await seedEntityPrintTemplates(db as never, Number(e.id));
}
