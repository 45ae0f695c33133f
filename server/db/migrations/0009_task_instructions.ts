import { type Kysely, sql } from 'kysely';

/**
 * What an ad-hoc task asks for, apart from `reason` (why a task came back or
 * was rejected), so that rejecting one keeps its instructions. Ad-hoc tasks
 * get an index for the /tareas list.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('tasks').addColumn('instructions', 'text').execute();
  await sql`update tasks set instructions = reason, reason = null where code = 'adhoc' and state <> 'REJECTED'`.execute(db);
  await sql`create index tasks_adhoc_idx on tasks (entity_id, created_at desc) where code = 'adhoc'`.execute(db);
}
