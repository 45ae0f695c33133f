/**
 * The applicant's side of an application in plain words (issue 18, "My
 * applications"): its state as the public sees it and the kinds of step a
 * public timeline shows. Internal states, task names and staff notes never
 * reach these; the server builds the timeline (cases/portal.ts), both sides
 * share the words.
 */
import type { CaseState } from '../workflow/states.js';

export const PUBLIC_STATUSES = ['draft', 'submitted', 'in_review', 'documents_requested', 'returned', 'approved', 'not_approved', 'closed'] as const;
export type PublicStatus = (typeof PUBLIC_STATUSES)[number];

export const PUBLIC_EVENTS = ['submitted', 'in_review', 'documents_requested', 'returned', 'resubmitted', 'request_withdrawn', 'approved', 'not_approved', 'closed', 'reopened'] as const;
export type PublicEvent = (typeof PUBLIC_EVENTS)[number];

export interface PublicFacts {
  state: CaseState;
  /** A correction request is open (staff returned it to the applicant). */
  correctionOpen: boolean;
  /** Some checklist document is marked missing in a comment the applicant sees. */
  documentsMissing: boolean;
  /** Staff have started on it since it was last (re)submitted. */
  reviewStarted: boolean;
}

/**
 * One public status for a case: what the applicant must do first (correct
 * it, send documents), else where it stands. An inconsistency is staff's
 * problem: the applicant reads "in review".
 */
export function publicStatus(f: PublicFacts): PublicStatus {
  switch (f.state) {
    case 'DRAFT':
      return 'draft';
    case 'SUCCESS':
      return 'approved';
    case 'REJECTED':
      return 'not_approved';
    case 'CLOSED':
      return 'closed';
    case 'INCONSISTENCY':
      return 'in_review';
    case 'PENDING':
      if (f.correctionOpen) return 'returned';
      if (f.documentsMissing) return 'documents_requested';
      return f.reviewStarted ? 'in_review' : 'submitted';
  }
}

/** The case events whose doer being staff means the review has started. */
export const REVIEW_ACTIONS: readonly string[] = ['task_accepted', 'task_rejected', 'document_accepted'];

/** Case transitions as public steps (`case_${action}` in the history). */
export const TRANSITION_EVENTS: Readonly<Record<string, PublicEvent>> = {
  case_submit: 'submitted',
  case_complete: 'approved',
  case_reject: 'not_approved',
  case_close: 'closed',
  case_activate: 'reopened',
};
