/**
 * Who sees which cases. Staff (task or case administration rights) see every
 * case of their tenant; everyone else sees the cases they own or take part in.
 */
import type { ExpressionBuilder } from 'kysely';
import type { Database } from '../../db/types.js';
import { type Actor, can } from '../acl/policy.js';

export function isStaff(actor: Actor): boolean {
  return can(actor, 'wf_tareas', 'show') || can(actor, 'admin_cases', 'show');
}

/** A condition on `c` (cases) limiting it to what the actor may see; the tenant is always applied by the caller. */
export function visibleCases(actor: Actor) {
  return (eb: ExpressionBuilder<Database & { c: Database['cases'] }, 'c'>) =>
    isStaff(actor)
      ? eb.val(true)
      : eb.or([
          eb('c.owner_id', '=', actor.userId),
          eb('c.id', 'in', eb.selectFrom('case_participants').where('user_id', '=', actor.userId).select('case_id')),
        ]);
}
