/**
 * Who may read, download and keep which reports. A route checks its report's
 * target first (`config.access`); these answer the rest:
 *
 * - the records a report counts are those the reader may see, by the same
 *   rules as the lists they drill into: tasks by tasks/policy.ts
 *   `visibleTasks`, applications by cases/policy.ts `visibleCases`, comments
 *   by comments/policy.ts `visibleComments`, history events by the
 *   application's visibility (applied by every finder of repo.ts);
 * - a download needs the report's target and `excel_reports` `export`;
 * - a saved report is read by its owner and, when shared with a team, by the
 *   team's active members; only its owner edits or deletes it. A saved report
 *   of a report the reader may not read is not theirs to see.
 */
import type { ExpressionBuilder } from 'kysely';
import { EXPORT_TARGET, REPORT_KINDS, REPORTS, type ReportKind, SAVED_REPORT_ACTIONS } from '../../../core/api/reports.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import { type Actor, can } from '../acl/policy.js';
import { isStaff } from '../cases/policy.js';
import { isTaskAdmin } from '../tasks/policy.js';

export { visibleCases } from '../cases/policy.js';
export { visibleComments } from '../comments/policy.js';
export { visibleTasks } from '../tasks/policy.js';

/** Whether every task of the tenant is visible to the actor (no record condition to apply). */
export const seesEveryTask = (actor: Actor) => isStaff(actor) || isTaskAdmin(actor);
/** Whether every application of the tenant is visible to the actor. */
export const seesEveryCase = (actor: Actor) => isStaff(actor);

export const mayReadReport = (actor: Actor, kind: ReportKind) => can(actor, REPORTS[kind].target, 'show');

/** The reports the actor may open. */
export const readableReports = (actor: Actor): ReportKind[] => REPORT_KINDS.filter((k) => mayReadReport(actor, k));

export function assertMayReadReport(actor: Actor, kind: ReportKind): void {
  if (!mayReadReport(actor, kind)) throw new AppError('FORBIDDEN');
}

export const mayExportReport = (actor: Actor, kind: ReportKind) => mayReadReport(actor, kind) && can(actor, EXPORT_TARGET, 'export');

/** A download of a report the actor may not read, or without the right to download reports, is 403. */
export function assertMayExportReport(actor: Actor, kind: ReportKind): void {
  if (!mayExportReport(actor, kind)) throw new AppError('FORBIDDEN');
}

// ---------------------------------------------------------------- saved reports

type SavedReportName = (typeof SAVED_REPORT_ACTIONS)[number];

/** A condition on `sr` (saved_reports): the actor's own, and those shared with a team it is an active member of. The tenant is applied by the finder. */
export function visibleSavedReports(actor: Actor) {
  return (eb: ExpressionBuilder<Database & { sr: Database['saved_reports'] }, 'sr'>) =>
    eb.or([
      eb('sr.owner_id', '=', actor.userId),
      eb('sr.team_id', 'in', eb.selectFrom('team_members').where('user_id', '=', actor.userId).where('active', '=', true).select('team_id')),
    ]);
}

/** What the actor may do on a saved report it can read: its owner edits and deletes it. */
export function savedReportActions(actor: Actor, row: { ownerId: number }): SavedReportName[] {
  return row.ownerId === actor.userId ? ['edit', 'delete'] : [];
}

/** Refuses a change to a saved report the actor reads but does not own (FORBIDDEN). */
export function assertSavedReportAction(actor: Actor, row: { ownerId: number }, action: SavedReportName): void {
  if (!savedReportActions(actor, row).includes(action)) throw new AppError('FORBIDDEN');
}
