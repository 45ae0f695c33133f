import { type Kysely, sql } from 'kysely';

/**
 * Mail delivered by jobs (pg-boss, server/jobs/boss.ts): each queued message
 * gets a job, whose id is kept here so that the minute sweep can find a
 * message whose job is gone (a process stopped between the commit and the
 * enqueue). The outbox also names what a message is about (case, recipient,
 * event) for the outbox page's filters, and may carry an HTML part.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('mail_outbox')
    .addColumn('job_id', 'text')
    .addColumn('body_html', 'text')
    .addColumn('case_id', 'bigint', (c) => c.references('cases.id').onDelete('set null'))
    .addColumn('user_id', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('event', 'text')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('mail_outbox_case_idx').on('mail_outbox').columns(['case_id']).where(sql.ref('case_id'), 'is not', null).execute();
}
