/**
 * The reports' writes: a person's saved reports (name, which report, the
 * filter bar, the layout, a team to share with). One transaction each, the
 * actor first; what is stored is checked as the report itself would check
 * it, so a saved report always opens.
 */
import { DATASET_FILTERS, REPORT_KINDS, REPORTS, type ReportKind, type SavedReportInput, savedReportBody } from '../../../core/api/reports.js';
import type { Transaction } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../../db/pool.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import type { Actor } from '../acl/policy.js';
import { checkPeriod, layoutOf } from './dimensions.js';
import { assertMayReadReport, assertSavedReportAction } from './policy.js';
import { deleteSavedReportRow, insertSavedReport, lockSavedReport, type SavedReportValues, teamOfTenant, updateSavedReport } from './repo.js';

type SavedReportBody = z.infer<typeof savedReportBody>;

/**
 * What a saved report stores, checked: a report that exists (REPORT_UNKNOWN)
 * and the actor may read (FORBIDDEN), its filters as the report takes them
 * (VALIDATION naming the filter), a sound period, a view, layout and sort the
 * report has, and a team of the tenant.
 */
async function checked(db: Db | Transaction<Database>, actor: Actor, body: SavedReportBody): Promise<SavedReportValues> {
  if (!(REPORT_KINDS as readonly string[]).includes(body.report)) throw new AppError('REPORT_UNKNOWN', { name: body.report });
  const report = body.report as ReportKind;
  assertMayReadReport(actor, report);
  const definition = REPORTS[report];
  const parsed = DATASET_FILTERS[definition.dataset].safeParse(body.filters);
  if (!parsed.success) throw new AppError('VALIDATION', {}, parsed.error.issues.map((i) => ({ path: ['filters', ...i.path].join('.'), message: i.message })));
  checkPeriod(parsed.data);
  const { layout } = body;
  if (!definition.views.includes(layout.view)) throw new AppError('REPORT_VIEW_UNKNOWN', { name: layout.view, allowed: definition.views.join(', ') });
  const pivot = layoutOf(report, layout);
  if (body.teamId !== null && !(await teamOfTenant(db, actor, body.teamId))) throw new AppError('VALIDATION', {}, [{ path: 'teamId', message: 'validation.chooseOption' }]);
  return {
    name: body.name,
    report,
    filters: parsed.data,
    layout: { ...layout, rows: pivot.rows, columns: pivot.columns, measure: pivot.measure },
    teamId: body.teamId,
  };
}

/** POST /api/reports/saved: a new saved report of the actor's (its name unique among the actor's). */
export async function createSavedReport(db: Db, actor: Actor, input: SavedReportInput): Promise<number> {
  const values = await checked(db, actor, savedReportBody.parse(input));
  return db.transaction().execute((trx) => insertSavedReport(trx, actor, values));
}

/** PUT /api/reports/saved/:id: its owner replaces it (one the actor may not read is 404 whatever the body says). */
export async function changeSavedReport(db: Db, actor: Actor, id: number, input: SavedReportInput): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = await lockSavedReport(trx, actor, id);
    assertSavedReportAction(actor, row, 'edit');
    await updateSavedReport(trx, row.id, await checked(trx, actor, savedReportBody.parse(input)));
  });
}

/** DELETE /api/reports/saved/:id: its owner deletes it. */
export async function deleteSavedReport(db: Db, actor: Actor, id: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = await lockSavedReport(trx, actor, id);
    assertSavedReportAction(actor, row, 'delete');
    await deleteSavedReportRow(trx, row.id);
  });
}
