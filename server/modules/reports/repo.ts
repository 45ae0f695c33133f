/**
 * The reports' SQL. Every finder takes the actor and applies the tenant and
 * the record visibility itself (policy.ts): a report counts only what its
 * reader may see, and an id of another tenant in a filter matches nothing.
 * Pivots are grouped by PostgreSQL (GROUPING SETS: cells, row and column
 * totals and the grand total in one statement); rows never travel to be
 * counted here. Rows become the API's shapes here.
 */
import { CompiledQuery, type Expression, type RawBuilder, type SqlBool, sql, type Transaction } from 'kysely';
import {
  type CaseReportFilters,
  type Dashboard,
  type EventReportFilters,
  type Pivot,
  PIVOT_MAX_COLUMNS,
  PIVOT_MAX_ROWS,
  REPORT_CASE_STATES,
  REPORTS,
  type ReportDataset,
  type ReportFilters,
  type ReportKind,
  type SavedLayout,
  type TaskReportFilters,
  taskRowsQuery,
  caseRowsQuery,
  caseCommentsQuery,
  userActionsQuery,
} from '../../../core/api/reports.js';
import { ADHOC_TASK_CODE } from '../../../core/workflow/adhoc.js';
import type { ProtocolDefinition } from '../../../core/workflow/protocol.js';
import { CASE_STATES, type CaseState, OPEN_TASK_STATES, type TaskState } from '../../../core/workflow/states.js';
import type { z } from 'zod';
import type { Db } from '../../db/pool.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import { translate } from '../../i18n.js';
import { containsPattern, paginate } from '../../lib/list.js';
import { localName, localNameSql } from '../../lib/localName.js';
import type { Actor } from '../acl/policy.js';
import { tenantTimeZone } from '../cases/filters.js';
import { pendingFor } from '../tasks/policy.js';
import { baseDrill, checkPeriod, daysOf, type DimensionSql, dimensionSql, drillOf, factConditions, layoutOf, type Named } from './dimensions.js';
import { readableReports, savedReportActions, seesEveryCase, seesEveryTask, visibleCases, visibleComments, visibleSavedReports, visibleTasks } from './policy.js';

type Trx = Transaction<Database>;
type Executor = Db | Trx;
type Query = Record<string, string | string[]>;

const round2 = (n: number) => Math.round(n * 100) / 100;

/** The report filters of a query (what the drill-down and the saved report carry), without paging, sort or layout. */
export function filtersOf(q: Partial<ReportFilters> & Record<string, unknown>): Partial<ReportFilters> {
  const out: Record<string, unknown> = {};
  for (const k of ['protocolId', 'from', 'to', 'teamId', 'userId', 'state', 'action', 'kind'] as const) if (q[k] !== undefined) out[k] = q[k];
  return out as Partial<ReportFilters>;
}

/** The tenant's time zone (its days are the reports' days) and today there. */
export async function calendarOf(db: Executor, actor: Actor): Promise<{ zone: string; today: string }> {
  const { rows } = await sql<{ zone: string; today: string }>`select z.zone, to_char(now() at time zone z.zone, 'YYYY-MM-DD') as today from (select ${tenantTimeZone(actor)} as zone) z`.execute(db);
  return rows[0];
}

/**
 * Runs a read in one read-only transaction whose session time zone is the
 * tenant's: the dimensions' months and days (`col::timestamp`, `col::date`)
 * are then the tenant's calendar without naming the zone on every row.
 */
async function inTenantZone<T>(db: Db, zone: string, read: (trx: Trx) => Promise<T>): Promise<T> {
  return db
    .transaction()
    .setAccessMode('read only')
    .execute(async (trx) => {
      await sql`select set_config('TimeZone', ${zone}, true)`.execute(trx);
      return read(trx);
    });
}

/** The facts' tables: tasks (`t`), applications (`c`) or history events (`e`), with the application joined when needed. */
function factsFrom(dataset: ReportDataset, joinCases: boolean): RawBuilder<unknown> {
  if (dataset === 'tasks') return joinCases ? sql`tasks t join cases c on c.id = t.case_id` : sql`tasks t`;
  if (dataset === 'cases') return sql`cases c`;
  return joinCases ? sql`case_events e join cases c on c.id = e.case_id` : sql`case_events e`;
}
const tenantOf = (dataset: ReportDataset, actor: Actor) =>
  dataset === 'tasks' ? sql<SqlBool>`t.entity_id = ${actor.entityId}` : dataset === 'cases' ? sql<SqlBool>`c.entity_id = ${actor.entityId}` : sql<SqlBool>`e.entity_id = ${actor.entityId}`;
const allOf = (conditions: Array<Expression<SqlBool>>) => sql.join(conditions, sql` and `);

// ---------------------------------------------------------------- the pivot

type Grouped = { rk: string | null; ck: string | null; gr: number; gc: number; n: number; s: number };
type PivotQuery = Partial<ReportFilters> & { rows?: string; columns?: string; measure?: string };

/**
 * GET /api/reports/<report>/pivot: the facts the actor may see, filtered,
 * grouped by the rows and columns chosen, with the row, column and grand
 * totals, in one statement.
 */
export async function pivotReport(db: Db, actor: Actor, kind: ReportKind, query: PivotQuery): Promise<Pivot> {
  const { dataset } = REPORTS[kind];
  const layout = layoutOf(kind, query);
  const filters = filtersOf(query);
  checkPeriod(filters);
  const { zone } = await calendarOf(db, actor);
  const rowDim = dimensionSql(dataset, layout.rows);
  const colDim = layout.columns ? dimensionSql(dataset, layout.columns) : null;
  const { where, needsCases } = factConditions(dataset, actor, filters, zone);
  const joinCases = needsCases || rowDim.needsCases || Boolean(colDim?.needsCases);
  // First the facts grouped by the raw columns of the row and column (parallel, one hash per worker), then
  // their groups rolled up into cells, row, column and grand totals (GROUPING SETS over a few dozen groups).
  const rowCols = rowDim.columns();
  const colCols = colDim ? colDim.columns() : [];
  const alias = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => sql.ref(`${prefix}${i + 1}`));
  const r = alias('r', rowCols.length);
  const c = alias('k', colCols.length);
  const sum = layout.measure === 'count' ? sql`0::float8` : sql`sum(${daysOf(dataset)})`;
  const groups = sql`select ${sql.join([...rowCols.map((x, i) => sql`${x} as ${r[i]}`), ...colCols.map((x, i) => sql`${x} as ${c[i]}`)])}, count(*) as n, ${sum} as s
    from ${factsFrom(dataset, joinCases)} where ${allOf([tenantOf(dataset, actor), ...where])}
    group by ${sql.join([...r, ...c])}`;
  const grouped = colDim
    ? sql<Grouped>`select ${rowDim.key(r)} as rk, ${colDim.key(c)} as ck, (grouping(${sql.join(r)}) <> 0)::int as gr, (grouping(${sql.join(c)}) <> 0)::int as gc,
          coalesce(sum(n), 0)::int as n, coalesce(sum(s), 0)::float8 as s
        from (${groups}) g group by grouping sets ((${sql.join([...r, ...c])}), (${sql.join(r)}), (${sql.join(c)}), ())`
    : sql<Grouped>`select ${rowDim.key(r)} as rk, null::text as ck, (grouping(${sql.join(r)}) <> 0)::int as gr, 1 as gc, coalesce(sum(n), 0)::int as n, coalesce(sum(s), 0)::float8 as s
        from (${groups}) g group by grouping sets ((${sql.join(r)}), ())`;
  const rows = await inTenantZone(db, zone, async (trx) => (await grouped.execute(trx)).rows);

  const rowKeys = new Set<string | null>();
  const colKeys = new Set<string | null>();
  for (const r of rows) {
    if (r.gr === 0) rowKeys.add(r.rk);
    if (r.gc === 0) colKeys.add(r.ck);
  }
  if (rowKeys.size > PIVOT_MAX_ROWS || colKeys.size > PIVOT_MAX_COLUMNS) {
    throw new AppError('REPORT_TOO_LARGE', { rows: rowKeys.size, columns: colKeys.size, maxRows: PIVOT_MAX_ROWS, maxColumns: PIVOT_MAX_COLUMNS });
  }
  const [rowNames, colNames] = await Promise.all([labelsFor(db, actor, rowDim.named, rowKeys), labelsFor(db, actor, colDim?.named ?? null, colKeys)]);
  const orderedRows = ordered(rowKeys, rowDim, rowNames.labels, actor.language, rowNames.ranks);
  const orderedCols = colDim ? ordered(colKeys, colDim, colNames.labels, actor.language, colNames.ranks) : [];
  const rowIndex = new Map(orderedRows.map((k, i) => [k.key, i]));
  const colIndex = new Map(orderedCols.map((k, i) => [k.key, i]));

  const valueOf = (r: { n: number; s: number }) => (layout.measure === 'count' ? r.n : layout.measure === 'sumDays' ? round2(r.s) : r.n ? round2(r.s / r.n) : 0);
  const base = baseDrill(dataset, filters);
  const measured = (r: Grouped, parts: Array<{ dimension: DimensionSql; key: string | null }>) => ({ value: valueOf(r), count: r.n, drill: drillOf(dataset, base, parts) });
  const cells: Pivot['cells'] = [];
  const rowTotals: Pivot['rowTotals'] = [];
  const columnTotals: Pivot['columnTotals'] = [];
  let total: Pivot['total'] = { value: 0, count: 0, drill: drillOf(dataset, base, []) };
  for (const r of rows) {
    if (r.gr === 0 && r.gc === 0 && colDim) cells.push({ row: r.rk, column: r.ck, ...measured(r, [{ dimension: rowDim, key: r.rk }, { dimension: colDim, key: r.ck }]) });
    else if (r.gr === 0) rowTotals.push({ row: r.rk, ...measured(r, [{ dimension: rowDim, key: r.rk }]) });
    else if (r.gc === 0 && colDim) columnTotals.push({ column: r.ck, ...measured(r, [{ dimension: colDim, key: r.ck }]) });
    else total = measured(r, []);
  }
  const byRow = (a: { row: string | null }, b: { row: string | null }) => (rowIndex.get(a.row) ?? 0) - (rowIndex.get(b.row) ?? 0);
  const byCol = (a: { column: string | null }, b: { column: string | null }) => (colIndex.get(a.column) ?? 0) - (colIndex.get(b.column) ?? 0);
  cells.sort((a, b) => byRow(a, b) || byCol(a, b));
  rowTotals.sort(byRow);
  columnTotals.sort(byCol);
  return { report: kind, rows: layout.rows, columns: layout.columns, measure: layout.measure, rowKeys: orderedRows, columnKeys: orderedCols, cells, rowTotals, columnTotals, total };
}

/** Keys in display order: a fixed order (states), ascending (dates, codes), by rank (protocol tasks: by protocol, then as the workflow lists them) or by name; the "none" group last. */
function ordered(keys: Set<string | null>, dimension: DimensionSql, labels: Map<string, string>, language: string, ranks?: Map<string, [string, number]>) {
  const list = [...keys].map((key) => ({ key, label: key === null ? null : (labels.get(key) ?? null) }));
  const fixed = Array.isArray(dimension.order) ? (dimension.order as readonly string[]) : null;
  return list.sort((a, b) => {
    if (a.key === null || b.key === null) return a.key === null ? (b.key === null ? 0 : 1) : -1;
    if (fixed) return fixed.indexOf(a.key) - fixed.indexOf(b.key);
    const ra = ranks?.get(a.key);
    const rb = ranks?.get(b.key);
    if (ra && rb) return ra[0].localeCompare(rb[0], language) || ra[1] - rb[1] || a.key.localeCompare(b.key);
    if (dimension.order === 'names') return (a.label ?? a.key).localeCompare(b.label ?? b.key, language) || a.key.localeCompare(b.key);
    return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
  });
}

/** Names of the keys of a named dimension, in the tenant and the reader's language. */
async function labelsFor(db: Db, actor: Actor, named: Named, keys: Set<string | null>): Promise<{ labels: Map<string, string>; ranks?: Map<string, [string, number]> }> {
  const present = [...keys].filter((k): k is string => k !== null);
  if (!named || present.length === 0) return { labels: new Map() };
  if (named === 'task') return protocolTasks(db, actor, present);
  const ids = present.map(Number).filter(Number.isSafeInteger);
  if (ids.length === 0) return { labels: new Map() };
  const rows =
    named === 'protocol'
      ? await db.selectFrom('protocols as p').where('p.entity_id', '=', actor.entityId).where('p.id', 'in', ids).select(['p.id', localNameSql('p', actor.language).as('name')]).execute()
      : named === 'team'
        ? await db.selectFrom('teams').where('entity_id', '=', actor.entityId).where('id', 'in', ids).select(['id', 'name']).execute()
        : await db.selectFrom('users').where('entity_id', '=', actor.entityId).where('id', 'in', ids).select(['id', 'name']).execute();
  return { labels: new Map(rows.map((r) => [String(r.id), r.name])) };
}

/**
 * Protocol tasks (keys `<protocolId>:<code>`): each one's name from its
 * protocol's versions, newest first, in the reader's language (the
 * protocol's name first when the keys span several protocols; ad-hoc tasks
 * are one group), and where it stands: its protocol's name and its place in
 * the workflow (ad-hoc tasks last).
 */
async function protocolTasks(db: Db, actor: Actor, keys: string[]): Promise<{ labels: Map<string, string>; ranks: Map<string, [string, number]> }> {
  const pairs = keys.map((k) => ({ key: k, protocolId: Number(k.slice(0, k.indexOf(':'))), code: k.slice(k.indexOf(':') + 1) }));
  const protocolIds = [...new Set(pairs.map((p) => p.protocolId))].filter(Number.isSafeInteger);
  const versions = protocolIds.length
    ? await db
        .selectFrom('protocol_versions as v')
        .innerJoin('protocols as p', 'p.id', 'v.protocol_id')
        .where('p.entity_id', '=', actor.entityId)
        .where('p.id', 'in', protocolIds)
        .select(['p.id', localNameSql('p', actor.language).as('protocol_name'), 'v.definition'])
        .orderBy('v.version', 'desc')
        .execute()
    : [];
  const several = protocolIds.length > 1;
  const labels = new Map<string, string>();
  const ranks = new Map<string, [string, number]>();
  for (const p of pairs) {
    const mine = versions.filter((v) => v.id === p.protocolId);
    let name = p.code === ADHOC_TASK_CODE ? translate(actor.language, 'reportFiles.adhoc') : undefined;
    let place = Number.MAX_SAFE_INTEGER;
    for (const v of mine) {
      const tasks = (v.definition as ProtocolDefinition | null)?.tasks ?? [];
      const i = tasks.findIndex((x) => x.code === p.code);
      if (i < 0) continue;
      name ??= localName(actor.language, tasks[i].name, tasks[i].name_en);
      place = i;
      break;
    }
    const protocolName = mine[0]?.protocol_name ?? '';
    labels.set(p.key, several && protocolName ? `${protocolName} · ${name ?? p.code}` : (name ?? p.code));
    ranks.set(p.key, [protocolName, place]);
  }
  return { labels, ranks };
}

// ---------------------------------------------------------------- task details

type TaskRowsQuery = z.infer<typeof taskRowsQuery>;
const TASK_SORT = {
  created_at: sql`t.created_at`,
  due_at: sql`t.due_at`,
  decided_at: sql`t.decided_at`,
  state: sql`t.state`,
  days: daysOf('tasks'),
  case_number: sql`c.serial`,
} as const;

/** The tasks of the task details the actor may see, filtered and sorted (newest first unless told), as a query to page or stream. */
async function taskRowsSelect(db: Executor, actor: Actor, q: Omit<TaskRowsQuery, 'page' | 'limit'>) {
  const filters = filtersOf(q);
  checkPeriod(filters);
  const { zone } = await calendarOf(db, actor);
  const { where, needsCases } = factConditions('tasks', actor, filters, zone);
  if (q.search) where.push(sql<SqlBool>`(t.name ilike ${containsPattern(q.search)} or t.name_en ilike ${containsPattern(q.search)} or c.serial ilike ${containsPattern(q.search)})`);
  let select = db
    .selectFrom('tasks as t')
    .innerJoin('cases as c', 'c.id', 't.case_id')
    .innerJoin('protocols as p', 'p.id', 'c.protocol_id')
    .leftJoin('users as u', 'u.id', 't.responsible_user_id')
    .leftJoin('teams as tm', 'tm.id', 't.responsible_team_id')
    .leftJoin('users as d', 'd.id', 't.decided_by')
    .where('t.entity_id', '=', actor.entityId)
    .select([
      't.id', 't.code', localNameSql('t', actor.language).as('name'), 't.state', 't.case_id', 'c.serial', 'c.protocol_id', localNameSql('p', actor.language).as('protocol_name'),
      't.responsible_user_id', 'u.name as responsible_name', 't.responsible_team_id', 'tm.name as team_name', 't.decided_by', 'd.name as decided_by_name',
      't.created_at', 't.due_at', 't.decided_at', daysOf('tasks').as('days'), 't.overdue',
    ]);
  for (const w of where) select = select.where(w);
  const direction = q.descending === false ? 'asc' : 'desc';
  // Columns that may be empty go last either way; the others sort plainly, so that an index can give the page.
  const sortBy = q.sortBy ?? 'created_at';
  const nulls = sortBy === 'due_at' || sortBy === 'decided_at' || sortBy === 'case_number' ? sql.raw(' nulls last') : sql.raw('');
  select = select.orderBy(sql`${TASK_SORT[sortBy]} ${sql.raw(direction)}${nulls}`).orderBy('t.id', direction);
  const count = sql<{ n: number }>`select count(*)::int as n from ${factsFrom('tasks', needsCases || Boolean(q.search))} where ${allOf([tenantOf('tasks', actor), ...where])}`;
  return { select, count };
}
type TaskRowRecord = Awaited<ReturnType<Awaited<ReturnType<typeof taskRowsSelect>>['select']['executeTakeFirstOrThrow']>>;

const taskRow = (r: TaskRowRecord) => ({
  id: r.id,
  code: r.code,
  name: r.name,
  state: r.state as TaskState,
  caseId: r.case_id,
  caseNumber: r.serial,
  protocolId: r.protocol_id,
  protocolName: r.protocol_name,
  responsibleId: r.responsible_user_id,
  responsibleName: r.responsible_name,
  teamId: r.responsible_team_id,
  teamName: r.team_name,
  decidedById: r.decided_by,
  decidedByName: r.decided_by_name,
  createdAt: r.created_at,
  dueAt: r.due_at,
  decidedAt: r.decided_at,
  days: round2(Number(r.days)),
  overdue: r.overdue,
});
export type TaskRow = ReturnType<typeof taskRow>;

/** GET /api/reports/task-details/rows. */
export async function taskRows(db: Db, actor: Actor, q: TaskRowsQuery) {
  const { select, count } = await taskRowsSelect(db, actor, q);
  const [rows, counted] = await Promise.all([select.limit(q.limit).offset((q.page - 1) * q.limit).execute(), count.execute(db)]);
  return { items: rows.map(taskRow), total: counted.rows[0]?.n ?? 0 };
}

/** Every task of the task details, at most `limit`, batch by batch (an export); resolves with how many match in all. */
export async function eachTaskRow(db: Db, actor: Actor, q: Omit<TaskRowsQuery, 'page' | 'limit'>, limit: number, onBatch: (rows: TaskRow[]) => Promise<void>): Promise<number> {
  const { select, count } = await taskRowsSelect(db, actor, q);
  const total = (await count.execute(db)).rows[0]?.n ?? 0;
  await inBatches(db, select.limit(limit).compile(), async (rows) => onBatch((rows as TaskRowRecord[]).map(taskRow)));
  return total;
}

/**
 * Runs a query through a cursor in one read-only transaction and hands its
 * rows over in batches: a long export holds one batch, never the result.
 */
async function inBatches(db: Db, compiled: CompiledQuery, onBatch: (rows: unknown[]) => Promise<void>, size = 1000): Promise<void> {
  await db
    .transaction()
    .setAccessMode('read only')
    .execute(async (trx) => {
      await trx.executeQuery(CompiledQuery.raw(`declare report_rows no scroll cursor for ${compiled.sql}`, [...compiled.parameters]));
      for (;;) {
        const { rows } = await trx.executeQuery(CompiledQuery.raw(`fetch ${size} from report_rows`));
        if (rows.length === 0) break;
        await onBatch(rows);
        if (rows.length < size) break;
      }
    });
}

// ---------------------------------------------------------------- tracking by case

type CaseRowsQuery = z.infer<typeof caseRowsQuery>;
const CASE_SORT = { doc_date: sql`c.doc_date`, serial: sql`c.serial`, state: sql`c.state` } as const;

async function caseRowsSelect(db: Executor, actor: Actor, q: Omit<CaseRowsQuery, 'page' | 'limit'>) {
  const filters = filtersOf(q);
  checkPeriod(filters);
  const { zone } = await calendarOf(db, actor);
  const { where } = factConditions('cases', actor, filters, zone);
  if (q.search) where.push(sql<SqlBool>`c.serial ilike ${containsPattern(q.search)}`);
  let select = db
    .selectFrom('cases as c')
    .innerJoin('protocols as p', 'p.id', 'c.protocol_id')
    .where('c.entity_id', '=', actor.entityId)
    .select(['c.id', 'c.serial', 'c.protocol_id', localNameSql('p', actor.language).as('protocol_name'), 'c.state', 'c.doc_date', daysOf('cases').as('days')]);
  for (const w of where) select = select.where(w);
  const direction = q.descending === false ? 'asc' : 'desc';
  select = select.orderBy(sql`${CASE_SORT[q.sortBy ?? 'doc_date']} ${sql.raw(direction)} nulls last`).orderBy('c.id', direction);
  const count = sql<{ n: number }>`select count(*)::int as n from cases c where ${allOf([tenantOf('cases', actor), ...where])}`;
  return { select, count };
}
type CaseRowRecord = Awaited<ReturnType<Awaited<ReturnType<typeof caseRowsSelect>>['select']['executeTakeFirstOrThrow']>>;

/** Per application of a page: the comments the reader may read, the last action of its history, and the days spent in each state since it was submitted. */
async function caseExtras(db: Db, actor: Actor, rows: CaseRowRecord[]) {
  const ids = rows.map((r) => r.id);
  if (ids.length === 0) return [];
  const [comments, last, spans] = await Promise.all([
    db
      .selectFrom('comments as cm')
      .where('cm.entity_id', '=', actor.entityId)
      .where('cm.case_id', 'in', ids)
      .where(visibleComments(actor) as never)
      .groupBy('cm.case_id')
      .select(['cm.case_id', sql<number>`count(*)::int`.as('n')])
      .execute(),
    db
      .selectFrom('case_events as e')
      .leftJoin('users as u', 'u.id', 'e.user_id')
      .where('e.entity_id', '=', actor.entityId)
      .where('e.case_id', 'in', ids)
      .distinctOn('e.case_id')
      .select(['e.case_id', 'e.action', 'e.type', 'e.created_at', 'e.user_id', 'u.name'])
      .orderBy('e.case_id')
      .orderBy('e.created_at', 'desc')
      .orderBy('e.id', 'desc')
      .execute(),
    // Each change of state lasts until the next one (the current one until now).
    sql<{ case_id: number; state: string; days: number }>`
      select s.case_id, s.state, sum(date_part('epoch', coalesce(s.until, now()) - s.at) / 86400) as days
      from (
        select e.case_id, e.detail->>'to' as state, e.created_at as at, lead(e.created_at) over (partition by e.case_id order by e.created_at, e.id) as until
        from case_events e
        where e.entity_id = ${actor.entityId} and e.case_id in (${sql.join(ids)}) and e.type = 'case' and e.detail ? 'to'
      ) s
      where s.state <> 'DRAFT'
      group by s.case_id, s.state`.execute(db),
  ]);
  const commentsOf = new Map(comments.map((c) => [c.case_id, c.n]));
  const lastOf = new Map(last.map((e) => [e.case_id, e]));
  const spansOf = new Map<number, Map<string, number>>();
  for (const s of spans.rows) {
    if (!spansOf.has(s.case_id)) spansOf.set(s.case_id, new Map());
    spansOf.get(s.case_id)?.set(s.state, s.days);
  }
  return rows.map((r) => {
    const e = lastOf.get(r.id);
    // An application with no recorded change (made before its history was kept) spent its life in its state.
    const spent = spansOf.get(r.id) ?? new Map([[r.state, Number(r.days)]]);
    return {
      id: r.id,
      number: r.serial,
      protocolId: r.protocol_id,
      protocolName: r.protocol_name,
      state: r.state as CaseState,
      docDate: r.doc_date,
      comments: commentsOf.get(r.id) ?? 0,
      lastAction: e ? { action: e.action, kind: e.type, at: e.created_at, userId: e.user_id, userName: e.name } : null,
      daysInState: Object.fromEntries(REPORT_CASE_STATES.map((s) => [s, round2(spent.get(s) ?? 0)])) as Record<(typeof REPORT_CASE_STATES)[number], number>,
    };
  });
}
export type CaseRow = Awaited<ReturnType<typeof caseExtras>>[number];

/** GET /api/reports/tracking-by-case/rows. */
export async function caseRows(db: Db, actor: Actor, q: CaseRowsQuery) {
  const { select, count } = await caseRowsSelect(db, actor, q);
  const [rows, counted] = await Promise.all([select.limit(q.limit).offset((q.page - 1) * q.limit).execute(), count.execute(db)]);
  return { items: await caseExtras(db, actor, rows), total: counted.rows[0]?.n ?? 0 };
}

export async function eachCaseRow(db: Db, actor: Actor, q: Omit<CaseRowsQuery, 'page' | 'limit'>, limit: number, onBatch: (rows: CaseRow[]) => Promise<void>): Promise<number> {
  const { select, count } = await caseRowsSelect(db, actor, q);
  const total = (await count.execute(db)).rows[0]?.n ?? 0;
  await inBatches(db, select.limit(limit).compile(), async (rows) => onBatch(await caseExtras(db, actor, rows as CaseRowRecord[])));
  return total;
}

// ---------------------------------------------------------------- tracking by case: the comments (the spec's shape)

type CaseCommentsQuery = z.infer<typeof caseCommentsQuery>;

/** The comments the actor may read of the applications the filters choose, oldest first unless told. */
async function caseCommentsSelect(db: Executor, actor: Actor, q: Omit<CaseCommentsQuery, 'page' | 'limit'>) {
  const filters = filtersOf(q);
  checkPeriod(filters);
  const { zone } = await calendarOf(db, actor);
  const { where } = factConditions('cases', actor, filters, zone);
  let select = db
    .selectFrom('comments as cm')
    .innerJoin('cases as c', 'c.id', 'cm.case_id')
    .leftJoin('users as a', 'a.id', 'cm.author_id')
    .where('cm.entity_id', '=', actor.entityId)
    .where(visibleComments(actor) as never)
    .select(['cm.case_id', 'c.serial', 'c.doc_date', 'c.state', 'cm.created_at', 'a.name as author_name', 'cm.body', 'cm.number']);
  for (const w of where) select = select.where(w);
  if (q.search) select = select.where('cm.body', 'ilike', containsPattern(q.search));
  const direction = q.descending === true ? 'desc' : 'asc';
  return select.orderBy('cm.created_at', direction).orderBy('cm.id', direction);
}
type CommentRecord = Awaited<ReturnType<Awaited<ReturnType<typeof caseCommentsSelect>>['executeTakeFirstOrThrow']>>;
const commentRow = (r: CommentRecord) => ({
  caseId: r.case_id,
  docnumber: r.serial,
  docdate: r.doc_date,
  status: r.state as CaseState,
  fecha: r.created_at,
  nombre: r.author_name ?? '',
  comentario: r.body,
  nrocomentario: r.number,
});
export type CommentRow = ReturnType<typeof commentRow>;

/** GET /api/reports/tracking-by-case/comments. */
export async function caseComments(db: Db, actor: Actor, q: CaseCommentsQuery) {
  const { rows, total } = await paginate(await caseCommentsSelect(db, actor, q), q);
  return { items: rows.map(commentRow), total };
}

export async function eachCaseComment(db: Db, actor: Actor, q: Omit<CaseCommentsQuery, 'page' | 'limit'>, limit: number, onBatch: (rows: CommentRow[]) => Promise<void>): Promise<number> {
  const select = await caseCommentsSelect(db, actor, q);
  const counted = await db.selectFrom(select.as('x')).select(sql<number>`count(*)::int`.as('n')).executeTakeFirst();
  await inBatches(db, select.limit(limit).compile(), async (rows) => onBatch((rows as CommentRecord[]).map(commentRow)));
  return counted?.n ?? 0;
}

// ---------------------------------------------------------------- tracking by user (the spec's shape)

type UserActionsQuery = z.infer<typeof userActionsQuery>;
type ActionRecord = { user_id: number; name: string; case_id: number; serial: string | null; action: string; type: string; total: number };

/** Counted up to this many rows; past it the total is a floor (`capped`), as the case list counts. */
export const USER_ACTIONS_COUNT_CAP = 10_000;

/**
 * Per person (by name), application and action of the history, how many:
 * what the people of the tenant did on the applications the actor may see.
 * Each person's groups are read in the order of `case_events_user_idx`, one
 * person after the other, so a page needs the first people's history only,
 * not the whole tenant's.
 */
async function userActionsSelect(db: Executor, actor: Actor, q: Omit<UserActionsQuery, 'page' | 'limit'>) {
  const filters = filtersOf(q);
  checkPeriod(filters);
  const { zone } = await calendarOf(db, actor);
  const { where, needsCases } = factConditions('events', actor, filters, zone);
  const people = q.search ? sql`u.entity_id = ${actor.entityId} and u.name ilike ${containsPattern(q.search)}` : sql`u.entity_id = ${actor.entityId}`;
  const direction = sql.raw(q.descending === true ? 'desc' : 'asc');
  // The people already in order, so that PostgreSQL sorts one person's groups at a time (an incremental sort)
  // and stops at the page's end, instead of sorting every group of the tenant (4.1 s against 0.5 s at 1.2
  // million events, bench/reports.ts); the cases' numbers are joined to the page only.
  const from = sql`(select u.id, u.name from users u where ${people} order by u.name ${direction}, u.id ${direction}) u cross join lateral (
      select e.case_id, e.action, e.type, count(*)::int as total
      from ${factsFrom('events', needsCases)}
      where ${allOf([sql<SqlBool>`e.entity_id = ${actor.entityId}`, sql<SqlBool>`e.user_id = u.id`, ...where])}
      group by e.case_id, e.action, e.type
    ) g`;
  return {
    page: (limit: number, offset: number) =>
      sql<ActionRecord>`select p.user_id, p.name, p.case_id, cc.serial, p.action, p.type, p.total
        from (select u.id as user_id, u.name, g.case_id, g.action, g.type, g.total from ${from}
              order by u.name ${direction}, u.id ${direction}, g.case_id, g.action, g.type
              limit ${limit} offset ${offset}) p
        join cases cc on cc.id = p.case_id
        order by p.name ${direction}, p.user_id ${direction}, p.case_id, p.action, p.type`,
    count: (cap: number) => sql<{ n: number }>`select count(*)::int as n from (select 1 from ${from} limit ${cap + 1}) x`,
  };
}
const actionRow = (r: ActionRecord) => ({
  usuario_id: r.user_id,
  nombre: r.name,
  caseId: r.case_id,
  application_number: r.serial,
  accion: r.action,
  tipo: r.type,
  total: r.total,
});
export type ActionRow = ReturnType<typeof actionRow>;

/** GET /api/reports/tracking-by-user/rows: a page, and the total counted up to USER_ACTIONS_COUNT_CAP. */
export async function userActions(db: Db, actor: Actor, q: UserActionsQuery) {
  const { page, count } = await userActionsSelect(db, actor, q);
  const [rows, counted] = await Promise.all([page(q.limit, (q.page - 1) * q.limit).execute(db), count(Math.max(USER_ACTIONS_COUNT_CAP, q.page * q.limit)).execute(db)]);
  const n = counted.rows[0]?.n ?? 0;
  const cap = Math.max(USER_ACTIONS_COUNT_CAP, q.page * q.limit);
  return { items: rows.rows.map(actionRow), total: Math.min(n, cap), capped: n > cap };
}

export async function eachUserAction(db: Db, actor: Actor, q: Omit<UserActionsQuery, 'page' | 'limit'>, limit: number, onBatch: (rows: ActionRow[]) => Promise<void>): Promise<number> {
  const { page, count } = await userActionsSelect(db, actor, q);
  const total = (await count(limit).execute(db)).rows[0]?.n ?? 0;
  await inBatches(db, page(limit, 0).compile(db), async (rows) => onBatch((rows as ActionRecord[]).map(actionRow)));
  return total;
}

// ---------------------------------------------------------------- the staff home's dashboard

/** GET /api/reports/dashboard: the tiles of the staff home, over what the actor may see. */
export async function dashboard(db: Db, actor: Actor): Promise<Dashboard> {
  const { zone, today } = await calendarOf(db, actor);
  const monthStart = `${today.slice(0, 7)}-01`;
  const [y, m] = today.split('-').map(Number);
  const monthEnd = `${today.slice(0, 7)}-${String(new Date(Date.UTC(y, m, 0)).getUTCDate()).padStart(2, '0')}`;
  const firstDay = new Date(Date.UTC(y, m - 1, Number(today.slice(8, 10)) - 29)).toISOString().slice(0, 10);
  const since = sql<Date>`(${firstDay}::date)::timestamp at time zone ${zone}`;

  // The case is joined only for someone who sees some tasks only (the tasks carry their protocol).
  const tasks = () =>
    seesEveryTask(actor)
      ? db.selectFrom('tasks as t').where('t.entity_id', '=', actor.entityId)
      : db.selectFrom('tasks as t').innerJoin('cases as c', 'c.id', 't.case_id').where('t.entity_id', '=', actor.entityId).where(visibleTasks(actor) as never);
  const cases = () => {
    let q = db.selectFrom('cases as c').where('c.entity_id', '=', actor.entityId).where('c.state', '<>', 'DRAFT');
    if (!seesEveryCase(actor)) q = q.where(visibleCases(actor) as never);
    return q;
  };
  const n = sql<number>`count(*)::int`;
  const [mine, overdue, byState, perDay, perTask] = await Promise.all([
    tasks()
      .where(pendingFor(actor) as never)
      .select([n.as('open'), sql<number>`(count(*) filter (where t.overdue))::int`.as('overdue')])
      .executeTakeFirstOrThrow(),
    tasks().where('t.overdue', '=', true).where('t.state', 'in', OPEN_TASK_STATES as TaskState[]).select(n.as('n')).executeTakeFirstOrThrow(),
    cases()
      .where(sql<SqlBool>`c.doc_date >= (${monthStart}::date)::timestamp at time zone ${zone}`)
      .where(sql<SqlBool>`c.doc_date < (${monthEnd}::date + 1)::timestamp at time zone ${zone}`)
      .groupBy('c.state')
      .select(['c.state', n.as('n')])
      .execute(),
    tasks()
      .where('t.decided_at', '>=', since)
      .where('t.state', 'in', ['ACCEPTED', 'REJECTED'])
      .groupBy(sql`1`)
      .select([
        sql<string>`to_char(t.decided_at at time zone ${zone}, 'YYYY-MM-DD')`.as('day'),
        sql<number>`(count(*) filter (where t.state = 'ACCEPTED'))::int`.as('accepted'),
        sql<number>`(count(*) filter (where t.state = 'REJECTED'))::int`.as('rejected'),
      ])
      .execute(),
    tasks()
      .where('t.decided_at', '>=', since)
      .where('t.state', 'in', ['ACCEPTED', 'REJECTED'])
      .groupBy(['t.protocol_id', 't.code'])
      .select(['t.protocol_id', 't.code', n.as('n'), sql<number>`avg(date_part('epoch', t.decided_at - t.created_at) / 86400)`.as('avg')])
      .execute(),
  ]);

  const days: Dashboard['decisionsPerDay'] = [];
  const decided = new Map(perDay.map((d) => [d.day, d]));
  for (let i = 0; i < 30; i++) {
    const day = new Date(Date.UTC(y, m - 1, Number(today.slice(8, 10)) - 29 + i)).toISOString().slice(0, 10);
    days.push({ day, accepted: decided.get(day)?.accepted ?? 0, rejected: decided.get(day)?.rejected ?? 0 });
  }
  const { labels } = await protocolTasks(db, actor, perTask.map((r) => `${r.protocol_id}:${r.code}`));
  const { labels: protocols } = await labelsFor(db, actor, 'protocol', new Set(perTask.map((r) => String(r.protocol_id))));
  const counts = new Map(byState.map((r) => [r.state, r.n]));
  const month = { from: monthStart, to: monthEnd };
  const openStates = OPEN_TASK_STATES as unknown as string[];
  return {
    myOpenTasks: { count: mine.open, drill: { list: 'pending', query: {} } },
    myOverdueTasks: { count: mine.overdue, drill: { list: 'pending', query: { overdue: 'true' } } },
    overdueTasks: { count: overdue.n, drill: { list: 'tasks', query: { overdue: 'true', state: openStates } } },
    applicationsThisMonth: {
      ...month,
      total: byState.reduce((sum, r) => sum + r.n, 0),
      byState: CASE_STATES.filter((s) => counts.has(s)).map((state) => ({ state, count: counts.get(state) ?? 0, drill: { list: 'cases', query: { ...month, state } } })),
      drill: { list: 'cases', query: month },
    },
    decisionsPerDay: days,
    averageDaysPerTask: perTask
      .map((r) => ({
        protocolId: r.protocol_id,
        protocolName: protocols.get(String(r.protocol_id)) ?? '',
        code: r.code,
        name: (labels.get(`${r.protocol_id}:${r.code}`) ?? r.code).replace(/^.* · /, ''),
        decided: r.n,
        avgDays: round2(r.avg),
        drill: { list: 'tasks' as const, query: { protocolId: String(r.protocol_id), code: r.code, state: ['ACCEPTED', 'REJECTED'] } },
      }))
      .sort((a, b) => a.protocolName.localeCompare(b.protocolName, actor.language) || a.name.localeCompare(b.name, actor.language)),
  };
}

// ---------------------------------------------------------------- saved reports

/** Saved reports the actor may read, with their owner's and team's names. */
function readableSaved(db: Executor, actor: Actor) {
  const kinds = readableReports(actor);
  return db
    .selectFrom('saved_reports as sr')
    .innerJoin('users as o', 'o.id', 'sr.owner_id')
    .leftJoin('teams as tm', 'tm.id', 'sr.team_id')
    .where('sr.entity_id', '=', actor.entityId)
    .where(visibleSavedReports(actor) as never)
    .where('sr.report', 'in', kinds.length ? kinds : ['none' as ReportKind])
    .select(['sr.id', 'sr.name', 'sr.report', 'sr.filters', 'sr.layout', 'sr.team_id', 'tm.name as team_name', 'sr.owner_id', 'o.name as owner_name', 'sr.created_at', 'sr.updated_at']);
}
type SavedRecord = Awaited<ReturnType<ReturnType<typeof readableSaved>['executeTakeFirstOrThrow']>>;
const savedReport = (actor: Actor, r: SavedRecord) => ({
  id: r.id,
  name: r.name,
  report: r.report,
  filters: r.filters,
  layout: r.layout as SavedLayout,
  teamId: r.team_id,
  teamName: r.team_name,
  ownerId: r.owner_id,
  ownerName: r.owner_name,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  actions: savedReportActions(actor, { ownerId: r.owner_id }),
});

/** GET /api/reports/saved. */
export async function listSavedReports(db: Db, actor: Actor, report?: ReportKind) {
  let q = readableSaved(db, actor);
  if (report) q = q.where('sr.report', '=', report);
  const rows = await q.orderBy('sr.name').orderBy('sr.id').execute();
  return { items: rows.map((r) => savedReport(actor, r)) };
}

/** One saved report the actor may read; NOT_FOUND otherwise. */
export async function findSavedReport(db: Executor, actor: Actor, id: number) {
  const row = await readableSaved(db, actor).where('sr.id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND');
  return savedReport(actor, row);
}

/** A saved report about to change, locked, when the actor may read it; NOT_FOUND otherwise. */
export async function lockSavedReport(trx: Trx, actor: Actor, id: number): Promise<{ id: number; ownerId: number }> {
  const row = await trx
    .selectFrom('saved_reports as sr')
    .where('sr.id', '=', id)
    .where('sr.entity_id', '=', actor.entityId)
    .where(visibleSavedReports(actor) as never)
    .where('sr.report', 'in', readableReports(actor).length ? readableReports(actor) : ['none' as ReportKind])
    .select(['sr.id', 'sr.owner_id'])
    .forUpdate()
    .executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND');
  return { id: row.id, ownerId: row.owner_id };
}

/** Whether a team of the actor's tenant has this id. */
export async function teamOfTenant(db: Executor, actor: Actor, teamId: number): Promise<boolean> {
  return (await db.selectFrom('teams').where('id', '=', teamId).where('entity_id', '=', actor.entityId).select('id').executeTakeFirst()) !== undefined;
}

export interface SavedReportValues {
  name: string;
  report: ReportKind;
  filters: Record<string, unknown>;
  layout: SavedLayout;
  teamId: number | null;
}

export async function insertSavedReport(trx: Trx, actor: Actor, v: SavedReportValues): Promise<number> {
  const row = await trx
    .insertInto('saved_reports')
    .values({ entity_id: actor.entityId, owner_id: actor.userId, team_id: v.teamId, name: v.name, report: v.report, filters: JSON.stringify(v.filters), layout: JSON.stringify(v.layout) })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateSavedReport(trx: Trx, id: number, v: SavedReportValues): Promise<void> {
  await trx
    .updateTable('saved_reports')
    .set({ team_id: v.teamId, name: v.name, report: v.report, filters: JSON.stringify(v.filters), layout: JSON.stringify(v.layout), updated_at: new Date() })
    .where('id', '=', id)
    .execute();
}

export async function deleteSavedReportRow(trx: Trx, id: number): Promise<void> {
  await trx.deleteFrom('saved_reports').where('id', '=', id).execute();
}
