/**
 * The reports API's contract, shared by the server (its routes validate and
 * serialise with these) and the browser (which builds its filter bar, pivot
 * picker and chart from the catalogue below and takes its types from these
 * schemas through `Wire`).
 *
 * Five reports (spec section 2) over three sets of facts:
 * - tasks: `status-by-task`, `task-details`, `status-by-user`;
 * - applications: `tracking-by-case`;
 * - the applications' history (who did what): `tracking-by-user`.
 * Each report has a pivot view (rows x optional columns x a measure, with
 * totals, computed by the server) and, for some, a paged list of rows.
 * Answers carry ids and values: enumerations (states, history actions,
 * months) come as keys for the browser to translate; things people name
 * (protocols, tasks, teams, users) come with their names.
 */
import { z } from 'zod';
import type { Target } from '../targets.js';
import { CASE_STATES, TASK_STATES } from '../workflow/states.js';
import { dayText, listQuery, listResponse } from './list.js';

// ---------------------------------------------------------------- the catalogue

export const REPORT_KINDS = ['status-by-task', 'task-details', 'status-by-user', 'tracking-by-case', 'tracking-by-user'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

/** What a report counts: tasks, applications (drafts never), or the applications' history events. */
export type ReportDataset = 'tasks' | 'cases' | 'events';

/**
 * Views of a report: `pivot` (GET …/pivot), `rows` (GET …/rows: a task, an
 * application, or a person's actions on an application per row) and, for the
 * tracking by case, `comments` (GET …/comments: the spec's one row per comment).
 */
export const REPORT_VIEWS = ['pivot', 'rows', 'comments'] as const;
export type ReportView = (typeof REPORT_VIEWS)[number];

/**
 * What a pivot may group by, per set of facts.
 * tasks: `protocol`, `task` (a task of a protocol: key `<protocolId>:<code>`),
 * `state`, `team` and `responsible` (who holds it), `user` (who decided it, or
 * holds it while undecided), `createdMonth` / `createdDay` / `decidedMonth`
 * (days of the tenant's time zone, keys `YYYY-MM` / `YYYY-MM-DD`), `overdue`
 * (`true` / `false`).
 * cases: `protocol`, `state`, `month` / `day` of the application's date.
 * events: `user` (who acted), `action` (`task_accepted`, `comment_added` …),
 * `kind` (case, task, field, comment, document), `protocol`, `month` / `day`.
 */
export const TASK_DIMENSIONS = ['protocol', 'task', 'state', 'team', 'responsible', 'user', 'createdMonth', 'createdDay', 'decidedMonth', 'overdue'] as const;
export const CASE_DIMENSIONS = ['protocol', 'state', 'month', 'day'] as const;
export const EVENT_DIMENSIONS = ['user', 'action', 'kind', 'protocol', 'month', 'day'] as const;
export type ReportDimension = (typeof TASK_DIMENSIONS)[number] | (typeof CASE_DIMENSIONS)[number] | (typeof EVENT_DIMENSIONS)[number];

/**
 * What a pivot's cells hold: how many, or the sum or average of days. Days of
 * a task: from its creation to its decision (to now while undecided); of an
 * application: from its date to its end (to now while it is open). History
 * events are counted only.
 */
export const REPORT_MEASURES = ['count', 'sumDays', 'avgDays'] as const;
export type ReportMeasure = (typeof REPORT_MEASURES)[number];

export const DATASET_DIMENSIONS: Record<ReportDataset, readonly ReportDimension[]> = { tasks: TASK_DIMENSIONS, cases: CASE_DIMENSIONS, events: EVENT_DIMENSIONS };
export const DATASET_MEASURES: Record<ReportDataset, readonly ReportMeasure[]> = { tasks: REPORT_MEASURES, cases: REPORT_MEASURES, events: ['count'] };

/** The charts a saved layout may choose (drawn by the browser). */
export const REPORT_CHARTS = ['none', 'bar', 'stackedBar', 'line', 'pie'] as const;

export interface ReportLayout {
  rows: ReportDimension;
  columns: ReportDimension | null;
  measure: ReportMeasure;
}

export interface ReportDefinition {
  /** The permission target that lets a person read it (export needs `excel_reports` `export` as well). */
  target: Target;
  dataset: ReportDataset;
  views: readonly ReportView[];
  /** The layout the report opens with. */
  defaults: ReportLayout;
}

export const REPORTS: Record<ReportKind, ReportDefinition> = {
  'status-by-task': { target: 'tareas_reports', dataset: 'tasks', views: ['pivot'], defaults: { rows: 'task', columns: 'state', measure: 'count' } },
  'task-details': { target: 'tareas_reports', dataset: 'tasks', views: ['rows', 'pivot'], defaults: { rows: 'task', columns: null, measure: 'avgDays' } },
  'status-by-user': { target: 'tareas_reports', dataset: 'tasks', views: ['pivot'], defaults: { rows: 'user', columns: 'state', measure: 'count' } },
  'tracking-by-case': { target: 'application_comments_reports', dataset: 'cases', views: ['rows', 'comments', 'pivot'], defaults: { rows: 'protocol', columns: 'state', measure: 'avgDays' } },
  'tracking-by-user': { target: 'user_comments_reports', dataset: 'events', views: ['rows', 'pivot'], defaults: { rows: 'user', columns: 'action', measure: 'count' } },
};

/** The permission a download needs besides the report's own target. */
export const EXPORT_TARGET: Target = 'excel_reports';

/** Most rows and columns a pivot answers (more is REPORT_TOO_LARGE: group by something coarser, or filter). */
export const PIVOT_MAX_ROWS = 2000;
export const PIVOT_MAX_COLUMNS = 100;
/** The widest period a filter may span, in days (about 20 years), and the years a date may fall in. */
export const REPORT_MAX_SPAN_DAYS = 7305;
export const REPORT_MIN_YEAR = 1970;
export const REPORT_MAX_YEAR = 2100;
/** Most rows one download holds; the totals row always counts everything. */
export const REPORT_EXPORT_LIMIT = 100_000;

// ---------------------------------------------------------------- filters

const id = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const oneOrMany = <const T extends readonly [string, ...string[]]>(values: T) => z.union([z.enum(values), z.array(z.enum(values)).max(values.length)]).optional();

/** Application states a report knows (drafts are never counted). */
export const REPORT_CASE_STATES = CASE_STATES.filter((s) => s !== 'DRAFT') as unknown as readonly ['PENDING', 'SUCCESS', 'REJECTED', 'INCONSISTENCY', 'CLOSED'];
export const EVENT_KINDS = ['case', 'task', 'field', 'comment', 'document'] as const;

/**
 * The filter bar every report shares. Days are the tenant's (YYYY-MM-DD, both
 * ends included): a task's creation, an application's date, an event's day.
 * `userId`: for tasks, who decided it or holds it while undecided; for
 * applications, their owner; for events, who acted. `teamId`: for tasks, the
 * team that holds it; for applications, one with a task of that team; for
 * events, actions of the team's active members. `state`: a task's state, or
 * the application's. Ids of another tenant simply match nothing.
 */
const commonFilters = {
  protocolId: id.optional(),
  from: dayText.optional(),
  to: dayText.optional(),
  teamId: id.optional(),
  userId: id.optional(),
};
export const taskReportFilters = z.strictObject({ ...commonFilters, state: oneOrMany(TASK_STATES) });
export const caseReportFilters = z.strictObject({ ...commonFilters, state: oneOrMany(REPORT_CASE_STATES) });
export const eventReportFilters = z.strictObject({
  ...commonFilters,
  state: oneOrMany(REPORT_CASE_STATES),
  /** One history action (`task_accepted` …) and one kind of event. */
  action: z.string().regex(/^[a-z][a-z_]{0,39}$/, 'validation.pattern').optional(),
  kind: z.enum(EVENT_KINDS).optional(),
});
export const DATASET_FILTERS = { tasks: taskReportFilters, cases: caseReportFilters, events: eventReportFilters } as const;
export type TaskReportFilters = z.infer<typeof taskReportFilters>;
export type CaseReportFilters = z.infer<typeof caseReportFilters>;
export type EventReportFilters = z.infer<typeof eventReportFilters>;
/** Any report's filters (the state is a task's or an application's, as the report counts). */
export type ReportFilters = Omit<EventReportFilters, 'state'> & { state?: string | string[] };

/**
 * The pivot's layout. Unknown names are refused with 400 (REPORT_UNKNOWN_DIMENSION,
 * REPORT_UNKNOWN_MEASURE) naming the ones allowed; omitted, the report's
 * defaults apply; `columns=none` asks for no column dimension (one Total column).
 */
const layoutQuery = {
  rows: z.string().max(40).optional(),
  columns: z.string().max(40).optional(),
  measure: z.string().max(40).optional(),
};
export const pivotQueries = {
  tasks: taskReportFilters.extend(layoutQuery),
  cases: caseReportFilters.extend(layoutQuery),
  events: eventReportFilters.extend(layoutQuery),
} as const;

/** GET /api/reports/task-details/rows: every task, paged. `days`: from creation to decision, or to now. */
export const taskRowsQuery = listQuery(['created_at', 'due_at', 'decided_at', 'state', 'days', 'case_number']).extend(taskReportFilters.shape);
/** GET /api/reports/tracking-by-case/rows: one row per application, paged (newest application first). */
export const caseRowsQuery = listQuery(['doc_date', 'serial', 'state']).extend(caseReportFilters.shape);
/** GET /api/reports/tracking-by-case/comments: the comments of those applications, oldest first, paged. */
export const caseCommentsQuery = listQuery(['created_at']).extend(caseReportFilters.shape);
/**
 * GET /api/reports/tracking-by-user/rows: per person, application and action,
 * how many (the spec's shape), paged, by person's name (`descending` turns
 * it), then application and action; `search` finds people by name.
 */
export const userActionsQuery = listQuery(['user']).extend(eventReportFilters.shape);

const exportOptions = { format: z.enum(['csv', 'xlsx']).default('xlsx') };
/**
 * GET /api/reports/<report>/export: the view as a file, streamed: `view`
 * (the report's first view unless told), the view's filters, sort or layout,
 * `format` (xlsx unless told). Headers in the caller's language; a totals row
 * last; cells a spreadsheet would run as formulas are written as text.
 */
export const exportQueries = {
  'status-by-task': pivotQueries.tasks.extend({ ...exportOptions, view: z.enum(['pivot']).default('pivot') }),
  'task-details': taskRowsQuery.omit({ page: true, limit: true }).extend({ ...layoutQuery, ...exportOptions, view: z.enum(['rows', 'pivot']).default('rows') }),
  'status-by-user': pivotQueries.tasks.extend({ ...exportOptions, view: z.enum(['pivot']).default('pivot') }),
  'tracking-by-case': caseRowsQuery.omit({ page: true, limit: true }).extend({ ...layoutQuery, ...exportOptions, view: z.enum(['rows', 'comments', 'pivot']).default('rows') }),
  'tracking-by-user': userActionsQuery.omit({ page: true, limit: true }).extend({ ...layoutQuery, ...exportOptions, view: z.enum(['rows', 'pivot']).default('rows') }),
} as const;

// ---------------------------------------------------------------- answers

/**
 * Where a cell leads: the list that shows what it counted, with that list's
 * own query parameters (GET /api/tasks's for `tasks`, GET /api/cases's for
 * `cases`, GET /api/reports/tracking-by-user/rows's for `userActions`,
 * the person's pending tasks for `pending`). Null when no list can show
 * exactly those records (a group of tasks with no team, say).
 */
export const drillSchema = z
  .object({
    list: z.enum(['tasks', 'cases', 'userActions', 'pending']),
    query: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
  })
  .nullable();
export type Drill = z.infer<typeof drillSchema>;

/** A row or column of the pivot: its key (null: the group of records with none, e.g. no team) and, for named things, the name. */
export const pivotKeySchema = z.object({ key: z.string().nullable(), label: z.string().nullable() });
/** `value` is the measure (days rounded to 2 decimals); `count` how many records it took. */
const measured = { value: z.number(), count: z.number().int(), drill: drillSchema };

/**
 * GET /api/reports/<report>/pivot. `rowKeys` and `columnKeys` in display
 * order (states in their workflow order, dates ascending, names
 * alphabetically, the "none" group last). `cells` holds the non-empty
 * crossings only; without a column dimension `cells` and `columnTotals` are
 * empty and `rowTotals` is the table.
 */
export const pivotSchema = z.object({
  report: z.enum(REPORT_KINDS),
  rows: z.string(),
  columns: z.string().nullable(),
  measure: z.enum(REPORT_MEASURES),
  rowKeys: z.array(pivotKeySchema),
  columnKeys: z.array(pivotKeySchema),
  cells: z.array(z.object({ row: z.string().nullable(), column: z.string().nullable(), ...measured })),
  rowTotals: z.array(z.object({ row: z.string().nullable(), ...measured })),
  columnTotals: z.array(z.object({ column: z.string().nullable(), ...measured })),
  total: z.object(measured),
});
export type Pivot = z.infer<typeof pivotSchema>;

/** One task of the task details. */
export const taskRowSchema = z.object({
  id: z.number(),
  code: z.string(),
  name: z.string(),
  state: z.enum(TASK_STATES),
  caseId: z.number(),
  caseNumber: z.string().nullable(),
  protocolId: z.number(),
  protocolName: z.string(),
  responsibleId: z.number().nullable(),
  responsibleName: z.string().nullable(),
  teamId: z.number().nullable(),
  teamName: z.string().nullable(),
  decidedById: z.number().nullable(),
  decidedByName: z.string().nullable(),
  createdAt: z.date(),
  dueAt: z.date().nullable(),
  decidedAt: z.date().nullable(),
  /** Days from creation to decision (to now while open), 2 decimals. */
  days: z.number(),
  overdue: z.boolean(),
});
export const taskRowsSchema = listResponse(taskRowSchema);

/** One application of the tracking by case: its comments, its last action, and the days it spent in each state. */
export const caseRowSchema = z.object({
  id: z.number(),
  number: z.string().nullable(),
  protocolId: z.number(),
  protocolName: z.string(),
  state: z.enum(CASE_STATES),
  docDate: z.date().nullable(),
  /** Comments the reader may read. */
  comments: z.number(),
  lastAction: z.object({ action: z.string(), kind: z.string(), at: z.date(), userId: z.number().nullable(), userName: z.string().nullable() }).nullable(),
  /** Days in each state since it was submitted, 2 decimals (the current one counted to now). */
  daysInState: z.object(Object.fromEntries(REPORT_CASE_STATES.map((s) => [s, z.number()])) as Record<(typeof REPORT_CASE_STATES)[number], z.ZodNumber>),
});
export const caseRowsSchema = listResponse(caseRowSchema);

/** The spec's case tracking: one row per comment. */
export const caseCommentRowSchema = z.object({
  caseId: z.number(),
  docnumber: z.string().nullable(),
  docdate: z.date().nullable(),
  status: z.enum(CASE_STATES),
  fecha: z.date(),
  nombre: z.string(),
  comentario: z.string(),
  nrocomentario: z.number(),
});
export const caseCommentsSchema = listResponse(caseCommentRowSchema);

/** The spec's user tracking: per person, application and action of the history, how many. */
export const userActionRowSchema = z.object({
  usuario_id: z.number(),
  nombre: z.string(),
  caseId: z.number(),
  application_number: z.string().nullable(),
  accion: z.string(),
  tipo: z.string(),
  total: z.number(),
});
/** `total` is counted up to 10,000 (past it, `capped` is true and the total is a floor), as the case list counts. */
export const userActionsSchema = listResponse(userActionRowSchema).extend({ capped: z.boolean() });

// ---------------------------------------------------------------- saved reports

/** What a saved report remembers of the screen: the view, the pivot's layout and chart, the list's sort. */
export const savedLayoutSchema = z.strictObject({
  view: z.enum(REPORT_VIEWS).default('pivot'),
  rows: z.string().max(40).optional(),
  /** null: no column dimension; absent: the report's default. */
  columns: z.string().max(40).nullable().optional(),
  measure: z.string().max(40).optional(),
  chart: z.enum(REPORT_CHARTS).default('bar'),
  sortBy: z.string().max(40).optional(),
  descending: z.boolean().optional(),
});
export type SavedLayout = z.infer<typeof savedLayoutSchema>;

/**
 * POST /api/reports/saved and PUT /api/reports/saved/:id. `filters` are the
 * report's filter bar (checked against the report's filters: unknown keys or
 * bad values are 400); `teamId` shares it with the members of a team of the
 * tenant, who may read it; only its owner changes or deletes it.
 */
export const savedReportBody = z.strictObject({
  name: z.string({ error: 'validation.required' }).trim().min(1, { error: 'validation.required' }).max(100, { error: 'validation.tooLong' }),
  report: z.string().max(40),
  filters: z.record(z.string().max(40), z.union([z.string().max(100), z.number(), z.array(z.string().max(40)).max(20)])).default({}),
  layout: savedLayoutSchema.default({ view: 'pivot', chart: 'bar' }),
  teamId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).nullable().default(null),
});
export type SavedReportInput = z.input<typeof savedReportBody>;

export const SAVED_REPORT_ACTIONS = ['edit', 'delete'] as const;
export const savedReportSchema = z.object({
  id: z.number(),
  name: z.string(),
  report: z.enum(REPORT_KINDS),
  filters: z.record(z.string(), z.unknown()),
  layout: savedLayoutSchema,
  teamId: z.number().nullable(),
  teamName: z.string().nullable(),
  ownerId: z.number(),
  ownerName: z.string(),
  createdAt: z.date(),
  updatedAt: z.date(),
  actions: z.array(z.enum(SAVED_REPORT_ACTIONS)),
});
export type SavedReport = z.infer<typeof savedReportSchema>;
/** GET /api/reports/saved?report=: the actor's own and those shared with its teams, of reports it may read, by name. */
export const savedReportsQuery = z.strictObject({ report: z.enum(REPORT_KINDS).optional() });
export const savedReportListSchema = z.object({ items: z.array(savedReportSchema) });

// ---------------------------------------------------------------- the staff home's dashboard

const count = z.number().int();
/**
 * GET /api/reports/dashboard, over what the reader may see. `myOpenTasks`:
 * the reader's pending list (its tasks, and its teams' unassigned ones);
 * `myOverdueTasks` those of it past due; `overdueTasks` every open overdue
 * task the reader sees. The month and the 30 days are the tenant's calendar,
 * today included. Average days per protocol task: tasks decided in those 30 days.
 */
export const dashboardSchema = z.object({
  myOpenTasks: z.object({ count, drill: drillSchema }),
  myOverdueTasks: z.object({ count, drill: drillSchema }),
  overdueTasks: z.object({ count, drill: drillSchema }),
  applicationsThisMonth: z.object({
    from: z.string(),
    to: z.string(),
    total: count,
    byState: z.array(z.object({ state: z.enum(CASE_STATES), count, drill: drillSchema })),
    drill: drillSchema,
  }),
  decisionsPerDay: z.array(z.object({ day: z.string(), accepted: count, rejected: count })),
  averageDaysPerTask: z.array(
    z.object({ protocolId: z.number(), protocolName: z.string(), code: z.string(), name: z.string(), decided: count, avgDays: z.number(), drill: drillSchema }),
  ),
});
export type Dashboard = z.infer<typeof dashboardSchema>;
