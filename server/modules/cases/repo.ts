/**
 * The cases' SQL that acts on one case. Every finder takes the actor and
 * applies the tenant and the record visibility itself (policy.ts): a handler
 * cannot reach a case its caller may not see, whatever its route declares.
 */
import type { Transaction } from 'kysely';
import { AppError } from '../../errors.js';
import type { Database } from '../../db/types.js';
import type { Actor } from '../acl/policy.js';
import type { CaseRow } from '../workflow/engine.js';
import { visibleCases } from './policy.js';

/** The case, locked for update, when the actor may see it; NOT_FOUND otherwise (as reading it would answer). */
export async function lockVisibleCase(trx: Transaction<Database>, actor: Actor, caseId: number): Promise<CaseRow> {
  const c = await trx
    .selectFrom('cases as c')
    .where('c.id', '=', caseId)
    .where('c.entity_id', '=', actor.entityId)
    .where(visibleCases(actor) as never)
    .select(['c.id', 'c.entity_id', 'c.project_id', 'c.protocol_id', 'c.protocol_version_id', 'c.owner_id', 'c.serial', 'c.state', 'c.data', 'c.version'])
    .forUpdate()
    .executeTakeFirst();
  if (!c) throw new AppError('NOT_FOUND');
  return c;
}
