/**
 * Whose notifications: a person reads and marks only their own, in their
 * tenant. The condition every finder of repo.ts applies.
 */
import type { ExpressionBuilder } from 'kysely';
import type { Database } from '../../db/types.js';
import type { Actor } from '../acl/policy.js';

export function ownNotifications(actor: Actor) {
  return (eb: ExpressionBuilder<Database & { n: Database['notifications'] }, 'n'>) => eb.and([eb('n.entity_id', '=', actor.entityId), eb('n.user_id', '=', actor.userId)]);
}
