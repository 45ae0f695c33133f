/**
 * The reports' whitelist as SQL: for each set of facts (tasks, applications,
 * history events) the filters as conditions, each dimension a pivot may
 * group by as one key expression, the days a measure adds up, and the query
 * of the list a cell drills into. Nothing a client sends reaches SQL but
 * values: names are looked up here and refused when unknown.
 */
import { type Expression, expressionBuilder, type RawBuilder, type SqlBool, sql } from 'kysely';
import {
  DATASET_DIMENSIONS,
  DATASET_MEASURES,
  type Drill,
  REPORT_CASE_STATES,
  REPORT_MAX_SPAN_DAYS,
  REPORT_MAX_YEAR,
  REPORT_MIN_YEAR,
  REPORTS,
  type ReportDataset,
  type ReportDimension,
  type ReportFilters,
  type ReportKind,
  type ReportLayout,
  type ReportMeasure,
} from '../../../core/api/reports.js';
import { TASK_STATES } from '../../../core/workflow/states.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import type { Actor } from '../acl/policy.js';
import { seesEveryCase, seesEveryTask, visibleCases, visibleTasks } from './policy.js';

type Query = Record<string, string | string[]>;
export type DrillList = NonNullable<Drill>['list'];

// ---------------------------------------------------------------- checks of what the client chose

/** The pivot's layout for this report: the defaults where nothing was chosen; unknown names are 400 with the allowed ones. */
export function layoutOf(kind: ReportKind, chosen: { rows?: string | null; columns?: string | null; measure?: string | null }): ReportLayout {
  const { dataset, defaults } = REPORTS[kind];
  const dimensions = DATASET_DIMENSIONS[dataset];
  const dimension = (name: string) => {
    if (!(dimensions as readonly string[]).includes(name)) throw new AppError('REPORT_UNKNOWN_DIMENSION', { name, allowed: dimensions.join(', ') });
    return name as ReportDimension;
  };
  const rows = dimension(chosen.rows || defaults.rows);
  // Not chosen: the report's own; `none` (or empty): a single Total column.
  const column = chosen.columns === undefined ? defaults.columns : chosen.columns === null || chosen.columns === '' || chosen.columns === 'none' ? null : chosen.columns;
  const columns = column ? dimension(column) : null;
  if (columns === rows) throw new AppError('REPORT_SAME_DIMENSION');
  const measures = DATASET_MEASURES[dataset];
  const measure = chosen.measure || (measures.includes(defaults.measure) ? defaults.measure : 'count');
  if (!(measures as readonly string[]).includes(measure)) throw new AppError('REPORT_UNKNOWN_MEASURE', { name: measure, allowed: measures.join(', ') });
  return { rows, columns, measure: measure as ReportMeasure };
}

const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / 86_400_000;

/** An inverted period, or one outside the years a report knows or wider than it spans, is 400. */
export function checkPeriod(f: { from?: string; to?: string }): void {
  for (const day of [f.from, f.to]) {
    if (!day) continue;
    const year = Number(day.slice(0, 4));
    if (year < REPORT_MIN_YEAR || year > REPORT_MAX_YEAR) throw tooWide();
  }
  if (f.from && f.to) {
    if (f.from > f.to) throw new AppError('REPORT_DATE_RANGE_INVERTED', { from: f.from, to: f.to });
    if (dayNumber(f.to) - dayNumber(f.from) > REPORT_MAX_SPAN_DAYS) throw tooWide();
  }
}
const tooWide = () => new AppError('REPORT_DATE_RANGE_TOO_WIDE', { minYear: REPORT_MIN_YEAR, maxYear: REPORT_MAX_YEAR, years: Math.round(REPORT_MAX_SPAN_DAYS / 365.25) });

// ---------------------------------------------------------------- the facts' conditions

/**
 * The filters and the actor's visibility as conditions on the facts' aliases
 * (`t` tasks, `c` cases, `e` case_events), and whether they need the
 * application joined (`c`). The tenant is the finder's (repo.ts).
 */
export function factConditions(dataset: ReportDataset, actor: Actor, f: Partial<ReportFilters>, zone: string): { where: Array<Expression<SqlBool>>; needsCases: boolean } {
  const where: Array<Expression<SqlBool>> = [];
  let needsCases = false;
  const states = f.state === undefined ? [] : Array.isArray(f.state) ? f.state : [f.state];
  const dayFrom = (column: RawBuilder<unknown>, day: string) => sql<SqlBool>`${column} >= (${day}::date)::timestamp at time zone ${zone}`;
  const dayTo = (column: RawBuilder<unknown>, day: string) => sql<SqlBool>`${column} < (${day}::date + 1)::timestamp at time zone ${zone}`;
  if (dataset === 'tasks') {
    if (!seesEveryTask(actor)) {
      where.push(visibleTasks(actor)(expressionBuilder<Database & { t: Database['tasks']; c: Database['cases'] }, 't' | 'c'>()));
      needsCases = true;
    }
    // The task carries its case's protocol (migration 0025): no join for it.
    if (f.protocolId) where.push(sql<SqlBool>`t.protocol_id = ${f.protocolId}`);
    if (f.from) where.push(dayFrom(sql`t.created_at`, f.from));
    if (f.to) where.push(dayTo(sql`t.created_at`, f.to));
    if (f.teamId) where.push(sql<SqlBool>`t.responsible_team_id = ${f.teamId}`);
    if (f.userId) where.push(sql<SqlBool>`coalesce(t.decided_by, t.responsible_user_id) = ${f.userId}`);
    if (states.length) where.push(sql<SqlBool>`t.state in (${sql.join(states)})`);
    return { where, needsCases };
  }
  if (dataset === 'cases') {
    where.push(sql<SqlBool>`c.state <> 'DRAFT'`);
    if (!seesEveryCase(actor)) where.push(visibleCases(actor)(expressionBuilder<Database & { c: Database['cases'] }, 'c'>()));
    if (f.protocolId) where.push(sql<SqlBool>`c.protocol_id = ${f.protocolId}`);
    if (f.from) where.push(dayFrom(sql`c.doc_date`, f.from));
    if (f.to) where.push(dayTo(sql`c.doc_date`, f.to));
    // As the case list reads it (cases/filters.ts): an application with a task of that team.
    if (f.teamId) where.push(sql<SqlBool>`c.id in (select tt.case_id from tasks tt where tt.entity_id = ${actor.entityId} and tt.responsible_team_id = ${f.teamId})`);
    if (f.userId) where.push(sql<SqlBool>`c.owner_id = ${f.userId}`);
    if (states.length) where.push(sql<SqlBool>`c.state in (${sql.join(states)})`);
    return { where, needsCases: true };
  }
  // History events: what people did (the system's own steps are not anyone's tracking).
  where.push(sql<SqlBool>`e.user_id is not null`);
  if (!seesEveryCase(actor)) {
    where.push(visibleCases(actor)(expressionBuilder<Database & { c: Database['cases'] }, 'c'>()));
    needsCases = true;
  }
  if (f.protocolId) {
    where.push(sql<SqlBool>`c.protocol_id = ${f.protocolId}`);
    needsCases = true;
  }
  if (states.length) {
    where.push(sql<SqlBool>`c.state in (${sql.join(states)})`);
    needsCases = true;
  }
  if (f.from) where.push(dayFrom(sql`e.created_at`, f.from));
  if (f.to) where.push(dayTo(sql`e.created_at`, f.to));
  if (f.teamId) where.push(sql<SqlBool>`e.user_id in (select tm.user_id from team_members tm where tm.team_id = ${f.teamId} and tm.active)`);
  if (f.userId) where.push(sql<SqlBool>`e.user_id = ${f.userId}`);
  if (f.action) where.push(sql<SqlBool>`e.action = ${f.action}`);
  if (f.kind) where.push(sql<SqlBool>`e.type = ${f.kind}`);
  return { where, needsCases };
}

/** Days a record took: a task from creation to decision (its closing, or now, while undecided); an application from its date to its end (or now). */
export function daysOf(dataset: ReportDataset): RawBuilder<number> {
  // date_part answers float8; extract answers numeric since PostgreSQL 14, which costs the pivot half its time.
  if (dataset === 'tasks') return sql<number>`date_part('epoch', coalesce(t.decided_at, case when t.state = 'CLOSED' then t.updated_at end, now()) - t.created_at) / 86400`;
  if (dataset === 'cases') {
    return sql<number>`date_part('epoch', coalesce(case when c.state in ('SUCCESS', 'REJECTED', 'CLOSED') then c.closed_at end, now()) - coalesce(c.doc_date, c.created_at)) / 86400`;
  }
  return sql<number>`0::float8`;
}

// ---------------------------------------------------------------- dimensions

/** What a dimension's keys name, for their labels (repo.ts looks them up in the tenant). */
export type Named = 'protocol' | 'task' | 'team' | 'user' | null;

/**
 * A dimension in two steps, so that a million facts are grouped by their raw
 * columns (in parallel, with nothing computed per row but the columns) and
 * only the groups are turned into keys: `columns` are the raw expressions
 * grouped by, `key` makes the key's text of them (null stays null: the
 * "none" group).
 */
export interface DimensionSql {
  /** The grouped columns; moments are read in the session's time zone, the tenant's inside `inTenantZone`. */
  columns: () => Array<RawBuilder<unknown>>;
  key: (grouped: Array<RawBuilder<unknown>>) => RawBuilder<string | null>;
  needsCases: boolean;
  named: Named;
  /** Display order of the keys: a fixed list, ascending keys, or by name. */
  order: readonly string[] | 'keys' | 'names';
  /** The drilled list's query for one (non-null) key; null when the list has no such filter. */
  drill: (key: string) => Query | null;
}

const monthRange = (month: string): Query => {
  const [y, m] = month.split('-').map(Number);
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return { from: `${month}-01`, to: `${month}-${String(last).padStart(2, '0')}` };
};
const dayRange = (day: string): Query => ({ from: day, to: day });
const one = (expression: string) => () => [sql.raw(expression)];
const asText = ([x]: Array<RawBuilder<unknown>>) => sql<string | null>`${x}::text`;
/**
 * The month and the day of a moment in the tenant's calendar: truncated per
 * fact, written as text per group. They read the session's time zone, which
 * the pivot sets to the tenant's for its statement (repo.ts `inTenantZone`):
 * a cast per row instead of a zone looked up by name per row (a million
 * moments to months, one core: 530 ms `at time zone 'America/New_York'`,
 * 250 ms `::timestamp` in that session zone; docs/performance.md).
 */
const month = (column: string) => ({
  columns: () => [sql`date_trunc('month', ${sql.ref(column)}::timestamp)`],
  key: ([x]: Array<RawBuilder<unknown>>) => sql<string | null>`to_char(${x}, 'YYYY-MM')`,
});
const day = (column: string) => ({
  columns: () => [sql`${sql.ref(column)}::date`],
  key: ([x]: Array<RawBuilder<unknown>>) => sql<string | null>`to_char(${x}, 'YYYY-MM-DD')`,
});

const TASK_DIMENSION_SQL: Record<string, DimensionSql> = {
  protocol: { columns: one('t.protocol_id'), key: asText, needsCases: false, named: 'protocol', order: 'names', drill: (k) => ({ protocolId: k }) },
  task: {
    columns: () => [sql`t.protocol_id`, sql`t.code`],
    key: ([protocol, code]) => sql<string>`${protocol}::text || ':' || ${code}`,
    needsCases: false,
    named: 'task',
    order: 'names',
    drill: (k) => ({ protocolId: k.slice(0, k.indexOf(':')), code: k.slice(k.indexOf(':') + 1) }),
  },
  state: { columns: one('t.state'), key: asText, needsCases: false, named: null, order: TASK_STATES, drill: (k) => ({ state: k }) },
  team: { columns: one('t.responsible_team_id'), key: asText, needsCases: false, named: 'team', order: 'names', drill: (k) => ({ teamId: k }) },
  responsible: { columns: one('t.responsible_user_id'), key: asText, needsCases: false, named: 'user', order: 'names', drill: (k) => ({ responsibleId: k }) },
  user: { columns: one('coalesce(t.decided_by, t.responsible_user_id)'), key: asText, needsCases: false, named: 'user', order: 'names', drill: (k) => ({ handledBy: k }) },
  createdMonth: { ...month('t.created_at'), needsCases: false, named: null, order: 'keys', drill: monthRange },
  createdDay: { ...day('t.created_at'), needsCases: false, named: null, order: 'keys', drill: dayRange },
  // The task list has no filter on the day of decision.
  decidedMonth: { ...month('t.decided_at'), needsCases: false, named: null, order: 'keys', drill: () => null },
  overdue: { columns: one('t.overdue'), key: asText, needsCases: false, named: null, order: ['false', 'true'], drill: (k) => ({ overdue: k }) },
};

const CASE_DIMENSION_SQL: Record<string, DimensionSql> = {
  protocol: { columns: one('c.protocol_id'), key: asText, needsCases: true, named: 'protocol', order: 'names', drill: (k) => ({ protocolId: k }) },
  state: { columns: one('c.state'), key: asText, needsCases: true, named: null, order: REPORT_CASE_STATES, drill: (k) => ({ state: k }) },
  month: { ...month('c.doc_date'), needsCases: true, named: null, order: 'keys', drill: monthRange },
  day: { ...day('c.doc_date'), needsCases: true, named: null, order: 'keys', drill: dayRange },
};

const EVENT_DIMENSION_SQL: Record<string, DimensionSql> = {
  user: { columns: one('e.user_id'), key: asText, needsCases: false, named: 'user', order: 'names', drill: (k) => ({ userId: k }) },
  action: { columns: one('e.action'), key: asText, needsCases: false, named: null, order: 'keys', drill: (k) => ({ action: k }) },
  kind: { columns: one('e.type'), key: asText, needsCases: false, named: null, order: ['case', 'task', 'field', 'comment', 'document'], drill: (k) => ({ kind: k }) },
  protocol: { columns: one('c.protocol_id'), key: asText, needsCases: true, named: 'protocol', order: 'names', drill: (k) => ({ protocolId: k }) },
  month: { ...month('e.created_at'), needsCases: false, named: null, order: 'keys', drill: monthRange },
  day: { ...day('e.created_at'), needsCases: false, named: null, order: 'keys', drill: dayRange },
};

const DIMENSION_SQL: Record<ReportDataset, Record<string, DimensionSql>> = { tasks: TASK_DIMENSION_SQL, cases: CASE_DIMENSION_SQL, events: EVENT_DIMENSION_SQL };

/** A dimension checked by layoutOf. */
export const dimensionSql = (dataset: ReportDataset, name: ReportDimension): DimensionSql => DIMENSION_SQL[dataset][name];

// ---------------------------------------------------------------- drilling down

/** The list each set of facts drills into. */
export const DRILL_LIST: Record<ReportDataset, DrillList> = { tasks: 'tasks', cases: 'cases', events: 'userActions' };

/** The report's filters as the drilled list's query parameters. */
export function baseDrill(dataset: ReportDataset, f: Partial<ReportFilters>): Query {
  const q: Query = {};
  const put = (name: string, v: string | number | string[] | undefined) => {
    if (v !== undefined && v !== '') q[name] = typeof v === 'number' ? String(v) : v;
  };
  put('protocolId', f.protocolId);
  put('from', f.from);
  put('to', f.to);
  put('teamId', f.teamId);
  // "The user" of each set, in the list's own words.
  put(dataset === 'tasks' ? 'handledBy' : dataset === 'cases' ? 'ownerId' : 'userId', f.userId);
  put('state', f.state);
  if (dataset === 'events') {
    put('action', f.action);
    put('kind', f.kind);
  }
  return q;
}

/**
 * The list query of one cell: the filters, then each key's own condition.
 * A period is narrowed to the key's month or day; a state replaces the
 * filter's states. Null when a key is the "none" group or the list cannot
 * filter by it.
 */
export function drillOf(dataset: ReportDataset, base: Query, parts: Array<{ dimension: DimensionSql; key: string | null }>): Drill {
  const q: Query = { ...base };
  for (const { dimension, key } of parts) {
    if (key === null) return null;
    const own = dimension.drill(key);
    if (!own) return null;
    for (const [name, value] of Object.entries(own)) {
      if (name === 'from' && typeof q.from === 'string') q.from = q.from > (value as string) ? q.from : (value as string);
      else if (name === 'to' && typeof q.to === 'string') q.to = q.to < (value as string) ? q.to : (value as string);
      else q[name] = value;
    }
  }
  return { list: DRILL_LIST[dataset], query: q };
}
