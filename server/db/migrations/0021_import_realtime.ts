import type { Kysely } from 'kysely';
import { statementTriggers } from './0014_realtime.js';

/**
 * Imports are announced like cases and tasks (0014): an import started,
 * advanced by a batch, or ended is heard by the tenant's staff and the
 * importer, so the imports page and the import dialog refetch at once
 * instead of polling, and an import another user starts shows up.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await statementTriggers(db, 'case_imports', 'import', `select entity_id, array_agg(distinct id) ids, '{}'::bigint[] cases,
    array_agg(distinct user_id) users from rt_all group by entity_id`);
}
