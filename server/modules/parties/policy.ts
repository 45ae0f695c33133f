/**
 * Who sees and does what on a case's parties (issue 23).
 *
 * - Staff (cases/policy.ts `isStaff`) who may read the case list its parties
 *   and resend an invitation; the applicant and participants do not (their
 *   side is the application, not the landlord's answers or payment details).
 * - A party sees their own row only (`user_id` is theirs, in their tenant):
 *   never the case through /api/cases/:id, never another party. Anything
 *   else is 404, as a record that does not exist.
 * - A party may save and submit while the case is open, they have not
 *   submitted and their deadline has not passed.
 */
import type { ExpressionBuilder } from 'kysely';
import type { PartyActionName } from '../../../core/api/parties.js';
import type { PartyState } from '../../../core/parties.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import type { Actor } from '../acl/policy.js';
import { isStaff } from '../cases/policy.js';

export function mayManageParties(actor: Actor): boolean {
  return isStaff(actor);
}

export function assertMayManageParties(actor: Actor): void {
  if (!mayManageParties(actor)) throw new AppError('FORBIDDEN');
}

/** A condition on `cp` (case_parties): the actor's own party rows; the tenant is applied by the finder. */
export function ownParties(actor: Actor) {
  return (eb: ExpressionBuilder<Database & { cp: Database['case_parties'] }, 'cp'>) => eb('cp.user_id', '=', actor.userId);
}

/** What staff may do on one party. */
export function partyActions(actor: Actor, p: { state: string; caseState: string }): PartyActionName[] {
  // A party who joined has their link's work done; one who submitted is finished.
  return mayManageParties(actor) && p.caseState === 'PENDING' && (p.state === 'named' || p.state === 'invited' || p.state === 'expired') ? ['resend'] : [];
}

/** What the party may do on their own side. */
export function partyPageActions(p: { state: string; caseState: string; deadlineAt: Date | null }, now = new Date()): Array<'save' | 'submit'> {
  return mayWork(p, now) ? ['save', 'submit'] : [];
}

function mayWork(p: { state: string; caseState: string; deadlineAt: Date | null }, now: Date): boolean {
  return p.caseState === 'PENDING' && p.state === 'joined' && !(p.deadlineAt && p.deadlineAt <= now);
}

/** Refuses a save or submit of a party's side that is not open to it. */
export function assertMayWork(p: { state: string; caseState: string; deadlineAt: Date | null }, now = new Date()): void {
  if (p.state === 'submitted') throw new AppError('PARTY_ALREADY_SUBMITTED');
  if (p.state === 'expired' || (p.deadlineAt && p.deadlineAt <= now)) throw new AppError('PARTY_EXPIRED');
  if (p.caseState !== 'PENDING') throw new AppError('CASE_NOT_OPEN');
  if (!mayWork(p, now)) throw new AppError('NOT_FOUND');
}

/** States in which the party still has to act (reminded, expired at the deadline). */
export const WAITING_STATES: readonly PartyState[] = ['invited', 'joined'];
