/**
 * Any view of a report as a file, CSV or Excel, streamed as it is read
 * (lib/tableFile.ts: csv-stringify, exceljs's streaming writer; every cell
 * through the formula guard). Headers and the words of the cells (states,
 * actions, "Total") are in the reader's language; names stay as the data
 * has them. The last row is the totals: the pivot's totals as the screen
 * shows them, or for a list the number of rows and the sums of its numbers.
 * Everything that can be refused (403, a bad layout or period) is refused
 * before the first byte is sent.
 */
import { PassThrough, type Readable } from 'node:stream';
import type { z } from 'zod';
import { exportQueries, type Pivot, REPORT_CASE_STATES, REPORT_EXPORT_LIMIT, REPORTS, type ReportKind } from '../../../core/api/reports.js';
import type { Db } from '../../db/pool.js';
import { translate } from '../../i18n.js';
import { type Cell, contentTypeOf, type TableFormat, tableWriter } from '../../lib/tableFile.js';
import type { Actor } from '../acl/policy.js';
import { checkPeriod } from './dimensions.js';
import { assertMayExportReport } from './policy.js';
import { calendarOf, eachCaseComment, eachCaseRow, eachTaskRow, eachUserAction, filtersOf, pivotReport } from './repo.js';

export type ExportQuery = z.infer<(typeof exportQueries)[ReportKind]>;

export interface ReportFile {
  filename: string;
  contentType: string;
  body: Readable;
}

/** Writes the file's rows, header first, totals last. */
type Produce = (row: (cells: Cell[]) => Promise<void>) => Promise<void>;

/** The file of one view of a report; the rows are produced while the stream is read. */
export async function exportReport(db: Db, actor: Actor, kind: ReportKind, query: ExportQuery): Promise<ReportFile> {
  assertMayExportReport(actor, kind);
  const lang = actor.language;
  const t = (key: string, params?: Record<string, unknown>) => translate(lang, `reportFiles.${key}`, params);
  const { zone, today } = await calendarOf(db, actor);
  const when = dateText(zone);
  const { view, format, ...rest } = query as ExportQuery & { view: string; format: TableFormat };
  const sheet = t(`sheets.${view === 'comments' ? 'comments' : kind}`);
  let produce: Produce;

  // Checked now: a bad layout or period is a 400, not a broken download.
  checkPeriod(filtersOf(rest));
  if (view === 'pivot') {
    const pivot = await pivotReport(db, actor, kind, rest);
    produce = pivotTable(pivot, lang);
  } else if (kind === 'task-details') {
    produce = async (row) => {
      await row(['task', 'case', 'protocol', 'responsible', 'team', 'state', 'createdAt', 'dueAt', 'decidedAt', 'decidedBy', 'days', 'overdue'].map((c) => t(`columns.${c}`)));
      let n = 0;
      let days = 0;
      const total = await eachTaskRow(db, actor, rest as never, REPORT_EXPORT_LIMIT, async (rows) => {
        for (const r of rows) {
          n++;
          days += r.days;
          await row([r.name, r.caseNumber, r.protocolName, r.responsibleName, r.teamName, state(lang, r.state), when(r.createdAt), when(r.dueAt), when(r.decidedAt), r.decidedByName, r.days, yesNo(lang, r.overdue)]);
        }
      });
      await row([t('total'), n, null, null, null, null, null, null, null, null, round2(days), null]);
      if (total > n) await row([t('capped', { count: n, total })]);
    };
  } else if (kind === 'tracking-by-case' && view === 'comments') {
    produce = async (row) => {
      await row(['docnumber', 'docdate', 'status', 'fecha', 'nombre', 'comentario', 'nrocomentario'].map((c) => t(`columns.${c}`)));
      let n = 0;
      const total = await eachCaseComment(db, actor, rest as never, REPORT_EXPORT_LIMIT, async (rows) => {
        for (const r of rows) {
          n++;
          await row([r.docnumber, when(r.docdate), state(lang, r.status), when(r.fecha), r.nombre, r.comentario, r.nrocomentario]);
        }
      });
      await row([t('total'), n]);
      if (total > n) await row([t('capped', { count: n, total })]);
    };
  } else if (kind === 'tracking-by-case') {
    produce = async (row) => {
      const states = REPORT_CASE_STATES.map((s) => t('columns.daysIn', { state: state(lang, s) }));
      await row([...['number', 'protocol', 'state', 'docDate', 'comments', 'lastAction', 'lastActionAt', 'lastActionBy'].map((c) => t(`columns.${c}`)), ...states]);
      let n = 0;
      let comments = 0;
      const sums = REPORT_CASE_STATES.map(() => 0);
      const total = await eachCaseRow(db, actor, rest as never, REPORT_EXPORT_LIMIT, async (rows) => {
        for (const r of rows) {
          n++;
          comments += r.comments;
          REPORT_CASE_STATES.forEach((s, i) => {
            sums[i] += r.daysInState[s];
          });
          const a = r.lastAction;
          await row([r.number, r.protocolName, state(lang, r.state), when(r.docDate), r.comments, a ? action(lang, a.action) : null, a ? when(a.at) : null, a?.userName ?? null, ...REPORT_CASE_STATES.map((s) => r.daysInState[s])]);
        }
      });
      await row([t('total'), n, null, null, comments, null, null, null, ...sums.map(round2)]);
      if (total > n) await row([t('capped', { count: n, total })]);
    };
  } else {
    produce = async (row) => {
      await row(['usuario_id', 'usuario', 'application_number', 'accion', 'tipo', 'totalActions'].map((c) => t(`columns.${c}`)));
      let n = 0;
      let sum = 0;
      const total = await eachUserAction(db, actor, rest as never, REPORT_EXPORT_LIMIT, async (rows) => {
        for (const r of rows) {
          n++;
          sum += r.total;
          await row([r.usuario_id, r.nombre, r.application_number, action(lang, r.accion), t(`kinds.${r.tipo}`), r.total]);
        }
      });
      await row([t('total'), null, null, null, null, sum]);
      if (total > n) await row([t('capped', { count: n, total })]);
    };
  }

  const body = new PassThrough();
  const writer = await tableWriter(format, body, sheet);
  // The rows are read and written as the client takes them; a failure ends the download cut short (the browser says to try again).
  void produce((cells) => writer.row(cells))
    .then(() => writer.end())
    .catch((e) => body.destroy(e instanceof Error ? e : new Error(String(e))));
  return { filename: `${kind}${view === REPORTS[kind].views[0] ? '' : `-${view}`}-${today}.${format}`, contentType: contentTypeOf(format), body };
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** The pivot as a table: the rows' dimension over the columns', each row's total last, the column totals and grand total as the last row. */
function pivotTable(p: Pivot, lang: 'en' | 'es'): Produce {
  const t = (key: string) => translate(lang, `reportFiles.${key}`);
  return async (row) => {
    const corner = `${t(`dimensions.${p.rows}`)}${p.columns ? ` \\ ${t(`dimensions.${p.columns}`)}` : ''} (${t(`measures.${p.measure}`)})`;
    await row([corner, ...p.columnKeys.map((k) => keyText(lang, p.columns as string, k)), t('total')]);
    const empty = p.measure === 'avgDays' ? null : 0;
    const cellOf = new Map(p.cells.map((c) => [`${c.row}\u0000${c.column}`, c.value]));
    const rowTotal = new Map(p.rowTotals.map((r) => [r.row, r.value]));
    for (const k of p.rowKeys) {
      await row([keyText(lang, p.rows, k), ...p.columnKeys.map((c) => cellOf.get(`${k.key}\u0000${c.key}`) ?? empty), rowTotal.get(k.key) ?? empty]);
    }
    const columnTotal = new Map(p.columnTotals.map((c) => [c.column, c.value]));
    await row([t('total'), ...p.columnKeys.map((c) => columnTotal.get(c.key) ?? empty), p.total.value]);
  };
}

/** A row or column heading: a name as the data has it, or a translated word for states, actions, kinds and yes/no. */
function keyText(lang: 'en' | 'es', dimension: string, k: { key: string | null; label: string | null }): string {
  if (k.key === null) return translate(lang, 'reportFiles.none');
  if (k.label !== null) return k.label;
  switch (dimension) {
    case 'state':
      return state(lang, k.key);
    case 'overdue':
      return yesNo(lang, k.key === 'true');
    case 'action':
      return action(lang, k.key);
    case 'kind':
      return translate(lang, `reportFiles.kinds.${k.key}`);
    default:
      return k.key;
  }
}

const state = (lang: 'en' | 'es', s: string) => translate(lang, `states.${s}`);
const yesNo = (lang: 'en' | 'es', v: boolean) => translate(lang, v ? 'reportFiles.yes' : 'reportFiles.no');
/** A history action's words, or its code when it has none. */
function action(lang: 'en' | 'es', code: string): string {
  const key = `reportFiles.actions.${code}`;
  const text = translate(lang, key);
  return text === key ? code : text;
}

/** A moment as the tenant's calendar shows it: YYYY-MM-DD HH:mm. */
function dateText(zone: string) {
  const format = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  return (d: Date | null | undefined): string | null => {
    if (!d) return null;
    const parts = Object.fromEntries(format.formatToParts(d).map((x) => [x.type, x.value]));
    return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
  };
}
