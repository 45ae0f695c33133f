import { type Kysely, sql } from 'kysely';

/**
 * Comments on cases (issue 15): the thread of a case (optionally of one of
 * its tasks), numbered per case; the people a comment mentions; the document
 * checklist's marks (given by comments and by the document review); in-app
 * notifications; and the quick comments master of every tenant.
 *
 * A comment is deleted softly (`deleted_at`): its number is never given
 * again, the history keeps what it said, and its marks stop counting.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('comments')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('entity_id', 'bigint', (c) => c.notNull().references('entities.id').onDelete('cascade'))
    .addColumn('case_id', 'bigint', (c) => c.notNull().references('cases.id').onDelete('cascade'))
    .addColumn('task_id', 'bigint', (c) => c.references('tasks.id').onDelete('set null'))
    // Per case, from 1: given under the case's row lock (comments/commands.ts).
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull().check(sql`length(body) between 1 and 5000`))
    .addColumn('visible_to_applicant', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('case_state', 'text', (c) => c.notNull())
    .addColumn('author_id', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('edited_at', 'timestamptz')
    .addColumn('deleted_at', 'timestamptz')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addUniqueConstraint('comments_case_number', ['case_id', 'number'])
    .execute();
  // The dashboard: a tenant's comments, newest first.
  await db.schema.createIndex('comments_entity_created_idx').on('comments').columns(['entity_id', 'created_at']).execute();
  await db.schema.createIndex('comments_author_idx').on('comments').columns(['author_id', 'created_at']).execute();

  await db.schema
    .createTable('comment_mentions')
    .addColumn('entity_id', 'bigint', (c) => c.notNull().references('entities.id').onDelete('cascade'))
    .addColumn('comment_id', 'bigint', (c) => c.notNull().references('comments.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('comment_mentions_pk', ['comment_id', 'user_id'])
    .execute();

  await db.schema
    .createTable('case_document_marks')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('entity_id', 'bigint', (c) => c.notNull().references('entities.id').onDelete('cascade'))
    .addColumn('case_id', 'bigint', (c) => c.notNull().references('cases.id').onDelete('cascade'))
    // A code of the tenant's `definiciones` master.
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('mark', 'text', (c) => c.notNull().check(sql`mark in ('missing', 'received', 'accepted')`))
    .addColumn('comment_id', 'bigint', (c) => c.references('comments.id').onDelete('cascade'))
    .addColumn('file_id', 'uuid', (c) => c.references('files.id').onDelete('set null'))
    .addColumn('user_id', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // The checklist: the latest mark per code of a case.
  await db.schema.createIndex('case_document_marks_case_idx').on('case_document_marks').columns(['case_id', 'code', 'id']).execute();
  await db.schema.createIndex('case_document_marks_comment_idx').on('case_document_marks').column('comment_id').execute();

  await db.schema
    .createTable('notifications')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('entity_id', 'bigint', (c) => c.notNull().references('entities.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('mention')`))
    .addColumn('case_id', 'bigint', (c) => c.references('cases.id').onDelete('cascade'))
    .addColumn('comment_id', 'bigint', (c) => c.references('comments.id').onDelete('cascade'))
    .addColumn('by_user_id', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('read_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('notifications_user_idx').on('notifications').columns(['user_id', 'id']).execute();

  // The history records comments (added, edited, deleted) and the review's accepted documents.
  await sql`alter table case_events drop constraint case_events_type_check`.execute(db);
  await sql`alter table case_events add constraint case_events_type_check check (type in ('case', 'task', 'field', 'comment', 'document'))`.execute(db);

  // Every tenant has the quick comments master (new tenants get it from seed/masters.ts).
  await sql`
    insert into masters (entity_id, code, name, public, system)
    select id, 'comentarios_rapidos', 'Comentarios rápidos', false, true from entities
    on conflict (entity_id, code) do nothing`.execute(db);
}
