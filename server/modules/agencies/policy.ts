/**
 * Who may do what with agencies. Registering one is anyone's (behind the
 * captcha); listing, creating and editing them is the platform operator's
 * alone (`access: 'operator'` on the routes, checked again here so that no
 * caller of the commands can skip it). A tenant's super-admin is not an
 * operator: `can()` and the tenant's rules play no part.
 */
import { AppError } from '../../errors.js';
import type { Actor } from '../acl/policy.js';

export function isOperator(actor: Actor | null | undefined): boolean {
  return actor?.platformOperator === true;
}

export function assertOperator(actor: Actor): void {
  if (!isOperator(actor)) throw new AppError('FORBIDDEN');
}

/** An operator may not deactivate the agency their own account belongs to: they would lock themselves out. */
export function assertMayChangeState(actor: Actor, entityId: number, active: boolean, wasActive: boolean): void {
  if (!active && wasActive && actor.entityId === entityId) throw new AppError('AGENCY_OWN');
}
