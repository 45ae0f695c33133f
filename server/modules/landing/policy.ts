/**
 * Who may make or revoke a case's landing link: staff (cases/policy.ts
 * `isStaff`) who may read the case (the route's `wf_casos show` and the
 * finder's `visibleCases`). An applicant has their own view of the case and
 * makes no public link to it. Drafts are their owner's alone: none has a link.
 */
import { AppError } from '../../errors.js';
import type { Actor } from '../acl/policy.js';
import { isStaff } from '../cases/policy.js';

export function mayManageLandingLinks(actor: Actor): boolean {
  return isStaff(actor);
}

export function assertMayManageLandingLinks(actor: Actor): void {
  if (!mayManageLandingLinks(actor)) throw new AppError('FORBIDDEN');
}
