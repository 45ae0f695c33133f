/**
 * Who sees what of the data tape. The routes' target is `reporte_data_tape`
 * (show: the columns; update: save them; export: make and fetch files).
 * A tape holds the applications of the protocol that the person may see
 * (the case list's own rule, cases/policy.ts `visibleCases`; drafts are not
 * applications yet), and an export is its starter's alone, as a case
 * export is.
 */
import type { ExpressionBuilder } from 'kysely';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import { type Actor, can } from '../acl/policy.js';
import { visibleCases } from '../cases/policy.js';

/** A condition on `c` (cases): the applications the actor may see; the tenant and protocol are applied by the finder. */
export function visibleApplications(actor: Actor) {
  return (eb: ExpressionBuilder<Database & { c: Database['cases'] }, 'c'>) => eb.and([eb('c.state', '<>', 'DRAFT'), visibleCases(actor)(eb)]);
}

/** A condition on `x` (data_tape_exports): the actor's own exports in its tenant. */
export function ownExports(actor: Actor) {
  return (eb: ExpressionBuilder<Database & { x: Database['data_tape_exports'] }, 'x'>) => eb.and([eb('x.entity_id', '=', actor.entityId), eb('x.user_id', '=', actor.userId)]);
}

/** A background run acts for its starter: refused when they may no longer export tapes (their rules changed meanwhile). */
export function assertMayExport(actor: Actor): void {
  if (!can(actor, 'reporte_data_tape', 'export')) throw new AppError('FORBIDDEN');
}
