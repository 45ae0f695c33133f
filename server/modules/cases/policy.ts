/**
 * Who may see and do what on a case. Routes check the target of the route
 * first (`config.access`); these answer for one record: which cases an actor
 * sees (applied by every finder of repo.ts, so no handler can forget it), and
 * which actions the actor has on a case (sent with the case; the commands
 * check the same answer).
 */
import type { ExpressionBuilder } from 'kysely';
import type { CaseActionName } from '../../../core/api/cases.js';
import { type CaseAction, type CaseState, nextCaseState } from '../../../core/workflow/states.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import { type Actor, can, type Target } from '../acl/policy.js';

/** Staff (task or case administration rights) see every case of their tenant. */
export function isStaff(actor: Actor): boolean {
  return can(actor, 'wf_tareas', 'show') || can(actor, 'admin_cases', 'show');
}

/** A condition on `c` (cases) limiting it to what the actor may see; the tenant is applied by the finder. */
export function visibleCases(actor: Actor) {
  return (eb: ExpressionBuilder<Database & { c: Database['cases'] }, 'c'>) =>
    isStaff(actor)
      ? eb.val(true)
      : eb.or([
          eb('c.owner_id', '=', actor.userId),
          eb('c.id', 'in', eb.selectFrom('case_participants').where('entity_id', '=', actor.entityId).where('user_id', '=', actor.userId).select('case_id')),
        ]);
}

/** The state transitions a person may ask for, with the target that grants each. */
export const TRANSITIONS: ReadonlyArray<{ name: 'open' | 'complete' | 'close' | 'activate'; transition: CaseAction; target: Target }> = [
  { name: 'open', transition: 'submit', target: 'wf_abrir_caso' },
  { name: 'complete', transition: 'complete', target: 'wf_completar_caso' },
  { name: 'close', transition: 'close', target: 'wf_cerrar_caso' },
  { name: 'activate', transition: 'activate', target: 'wf_activar_caso' },
];

/** What the policy reads of a case: its state, and for a correction whose it is and whether one is open. */
export interface CaseFacts {
  state: string;
  ownerId?: number;
  correctionOpen?: boolean;
}

/** Staff who may change an open application's data: correct it, or return it to its applicant for correction. */
const mayChangeData = (actor: Actor) => isStaff(actor) && can(actor, 'wf_casos', 'update');

/**
 * What the actor may do on a case it can see, in its state. The case must
 * have come through a finder of repo.ts: seeing it is not checked here.
 */
export function caseActions(actor: Actor, c: CaseFacts): CaseActionName[] {
  const out: CaseActionName[] = [];
  for (const t of TRANSITIONS) if (nextCaseState(c.state as CaseState, t.transition) && can(actor, t.target, 'confirm')) out.push(t.name);
  if (can(actor, 'change_owner_case', 'update')) out.push('changeOwner');
  if (can(actor, 'wf_casos_participantes', 'update')) out.push('participants');
  // Correcting the data of an open application, or returning it to the applicant to correct, is staff work.
  if (c.state === 'PENDING' && mayChangeData(actor)) out.push('editData');
  if (c.state === 'PENDING' && mayChangeData(actor) && !c.correctionOpen) out.push('returnForCorrection');
  if (c.correctionOpen && mayChangeData(actor)) out.push('cancelCorrection');
  // Resubmitting is the owner's, while a correction is open (submitting needs wf_casos create, as a draft's submission).
  if (c.state === 'PENDING' && c.correctionOpen && c.ownerId === actor.userId && can(actor, 'wf_casos', 'create')) out.push('resubmit');
  return out;
}

/**
 * Refuses an action the actor does not have on this case. A state that does
 * not allow it is INVALID_TRANSITION (or CASE_NOT_OPEN for correcting data
 * or returning it; CORRECTION_OPEN when one is open already, NO_OPEN_CORRECTION
 * to cancel or resubmit one that is not); missing rights are FORBIDDEN.
 */
export function assertCaseAction(actor: Actor, c: CaseFacts, action: CaseActionName): void {
  if (caseActions(actor, c).includes(action)) return;
  const t = TRANSITIONS.find((x) => x.name === action);
  if (t) {
    if (!can(actor, t.target, 'confirm')) throw new AppError('FORBIDDEN');
    throw new AppError('INVALID_TRANSITION', { state: c.state, action });
  }
  if ((action === 'editData' || action === 'returnForCorrection' || action === 'cancelCorrection') && mayChangeData(actor)) {
    if (action === 'cancelCorrection') throw new AppError('NO_OPEN_CORRECTION');
    if (c.state !== 'PENDING') throw new AppError('CASE_NOT_OPEN');
    throw new AppError('CORRECTION_OPEN');
  }
  if (action === 'resubmit' && c.ownerId === actor.userId && can(actor, 'wf_casos', 'create')) throw new AppError(c.correctionOpen ? 'CASE_NOT_OPEN' : 'NO_OPEN_CORRECTION');
  throw new AppError('FORBIDDEN');
}
