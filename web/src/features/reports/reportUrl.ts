/**
 * The reports page's state lives in its address (/reportes?report=…&rows=…&state=…):
 * a report, its view, the pivot's layout and chart, the filters and the
 * rows' page and sort. An address can be bookmarked, shared, reloaded, and
 * a drill-down can point at it. Values the page does not know fall back to
 * the report's defaults (the catalogue of core/api/reports.ts).
 */
import { useCallback, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router';
import {
  DATASET_DIMENSIONS,
  DATASET_MEASURES,
  EVENT_KINDS,
  REPORT_CASE_STATES,
  REPORT_CHARTS,
  REPORTS,
  type ReportDataset,
  type ReportDimension,
  type ReportKind,
  type ReportMeasure,
  type ReportView,
  type SavedLayout,
} from '../../../../core/api/reports.js';
import { TASK_STATES } from '../../../../core/workflow/states.js';
import { ROWS_PER_PAGE_OPTIONS } from '../../components/table/listParams.js';
import type { RowsSource, SavedReportItem } from './api.js';

export type ReportChartKind = (typeof REPORT_CHARTS)[number];

/** The filter bar as the screen edits it; '' (or none) is "all". */
export interface ReportFilterValues {
  protocolId: string;
  from: string;
  to: string;
  teamId: string;
  userId: string;
  states: string[];
  /** Tracking by user only: one history action and one kind of event. */
  action: string;
  kind: string;
}

export const NO_FILTERS: ReportFilterValues = { protocolId: '', from: '', to: '', teamId: '', userId: '', states: [], action: '', kind: '' };

/** The filters' names in the address and in the API's query. */
const FILTER_PARAMS = ['protocolId', 'from', 'to', 'teamId', 'userId', 'state', 'action', 'kind'] as const;
/** Everything a layout or a list adds to the address. */
const VIEW_PARAMS = ['view', 'rows', 'columns', 'measure', 'chart', 'page', 'limit', 'sortBy', 'descending'] as const;

export interface PivotLayout {
  rows: ReportDimension;
  columns: ReportDimension | null;
  measure: ReportMeasure;
}

export interface ReportState {
  kind: ReportKind;
  dataset: ReportDataset;
  view: ReportView;
  layout: PivotLayout;
  chart: ReportChartKind;
  filters: ReportFilterValues;
  /** 0-based, as the table shows it. */
  page: number;
  limit: number;
  /** '' for the server's own order. */
  sortBy: string;
  descending: boolean;
}

/** The states a report's filter offers: a task's or an application's. */
export function statesOf(dataset: ReportDataset): readonly string[] {
  return dataset === 'tasks' ? TASK_STATES : REPORT_CASE_STATES;
}

/** The list a rows view reads, or null for the pivot. */
export function rowsSourceOf(kind: ReportKind, view: ReportView): RowsSource | null {
  if (view === 'pivot') return null;
  if (kind === 'task-details') return 'taskRows';
  if (kind === 'tracking-by-case') return view === 'comments' ? 'caseComments' : 'caseRows';
  if (kind === 'tracking-by-user') return 'userActions';
  return null;
}

const isKind = (value: string | null, readable: readonly ReportKind[]): value is ReportKind => readable.includes(value as ReportKind);

function readLayout(params: URLSearchParams, kind: ReportKind): PivotLayout {
  const { dataset, defaults } = REPORTS[kind];
  const dimensions = DATASET_DIMENSIONS[dataset];
  const rowsParam = params.get('rows') as ReportDimension | null;
  const rows = rowsParam && dimensions.includes(rowsParam) ? rowsParam : defaults.rows;
  const columnsParam = params.get('columns');
  let columns: ReportDimension | null;
  // Absent: the report's default; empty: no columns (one Total column).
  if (columnsParam === null) columns = defaults.columns;
  else if (columnsParam === '') columns = null;
  else columns = dimensions.includes(columnsParam as ReportDimension) ? (columnsParam as ReportDimension) : defaults.columns;
  if (columns === rows) columns = null;
  const measureParam = params.get('measure') as ReportMeasure | null;
  const measure = measureParam && DATASET_MEASURES[dataset].includes(measureParam) ? measureParam : DATASET_MEASURES[dataset].includes(defaults.measure) ? defaults.measure : 'count';
  return { rows, columns, measure };
}

function readFilters(params: URLSearchParams, dataset: ReportDataset): ReportFilterValues {
  const states = statesOf(dataset);
  const kind = params.get('kind') ?? '';
  return {
    protocolId: params.get('protocolId') ?? '',
    from: params.get('from') ?? '',
    to: params.get('to') ?? '',
    teamId: params.get('teamId') ?? '',
    userId: params.get('userId') ?? '',
    states: params.getAll('state').filter((s) => states.includes(s)),
    action: dataset === 'events' ? (params.get('action') ?? '') : '',
    kind: dataset === 'events' && (EVENT_KINDS as readonly string[]).includes(kind) ? kind : '',
  };
}

/** The page's state from its address; null when the reader may open no report. */
export function readReportState(params: URLSearchParams, readable: readonly ReportKind[]): ReportState | null {
  const first = readable[0];
  if (!first) return null;
  const requested = params.get('report');
  const kind = isKind(requested, readable) ? requested : first;
  const { dataset, views } = REPORTS[kind];
  const viewParam = params.get('view') as ReportView | null;
  const view = viewParam && views.includes(viewParam) ? viewParam : (views[0] as ReportView);
  const chartParam = params.get('chart') as ReportChartKind | null;
  const page = Number(params.get('page'));
  const limit = Number(params.get('limit'));
  return {
    kind,
    dataset,
    view,
    layout: readLayout(params, kind),
    chart: chartParam && REPORT_CHARTS.includes(chartParam) ? chartParam : 'bar',
    filters: readFilters(params, dataset),
    page: Number.isInteger(page) && page >= 1 ? page - 1 : 0,
    limit: ROWS_PER_PAGE_OPTIONS.includes(limit) ? limit : ROWS_PER_PAGE_OPTIONS[0],
    sortBy: params.get('sortBy') ?? '',
    descending: params.get('descending') === 'true',
  };
}

// ---------------------------------------------------------------- what the API is asked

/** The filters as the API's query parameters (`state` repeats). */
export function filterQuery(filters: ReportFilterValues, dataset: ReportDataset): URLSearchParams {
  const query = new URLSearchParams();
  for (const name of ['protocolId', 'from', 'to', 'teamId', 'userId'] as const) if (filters[name]) query.set(name, filters[name]);
  for (const state of filters.states) query.append('state', state);
  if (dataset === 'events') {
    if (filters.action) query.set('action', filters.action);
    if (filters.kind) query.set('kind', filters.kind);
  }
  return query;
}

function putLayout(query: URLSearchParams, layout: PivotLayout) {
  query.set('rows', layout.rows);
  if (layout.columns) query.set('columns', layout.columns);
  query.set('measure', layout.measure);
}

/** GET /api/reports/<report>/pivot's query. */
export function pivotQueryString(state: ReportState): string {
  const query = filterQuery(state.filters, state.dataset);
  putLayout(query, state.layout);
  return query.toString();
}

/** A rows view's query: the filters, the page and the sort. */
export function rowsQueryString(state: ReportState): string {
  const query = filterQuery(state.filters, state.dataset);
  query.set('page', String(state.page + 1));
  query.set('limit', String(state.limit));
  if (state.sortBy) {
    query.set('sortBy', state.sortBy);
    query.set('descending', String(state.descending));
  }
  return query.toString();
}

/** GET /api/reports/<report>/export's query: the view on screen, as a file. */
export function exportQueryString(state: ReportState, format: 'csv' | 'xlsx'): string {
  const query = filterQuery(state.filters, state.dataset);
  query.set('view', state.view);
  query.set('format', format);
  if (state.view === 'pivot') putLayout(query, state.layout);
  else if (state.sortBy) {
    query.set('sortBy', state.sortBy);
    query.set('descending', String(state.descending));
  }
  return query.toString();
}

/** How many filters narrow the report now. */
export function narrowing(filters: ReportFilterValues): number {
  return filters.states.length + [filters.protocolId, filters.from, filters.to, filters.teamId, filters.userId, filters.action, filters.kind].filter((v) => v !== '').length;
}

// ---------------------------------------------------------------- saved reports

/** What "Save" keeps of the screen. */
export function savedOf(state: ReportState): { filters: Record<string, string | string[]>; layout: SavedLayout } {
  const filters: Record<string, string | string[]> = {};
  for (const [name, value] of filterQuery(state.filters, state.dataset)) {
    if (name === 'state') filters.state = [...((filters.state as string[] | undefined) ?? []), value];
    else filters[name] = value;
  }
  const layout: SavedLayout = { view: state.view, rows: state.layout.rows, columns: state.layout.columns, measure: state.layout.measure, chart: state.chart };
  if (state.sortBy) {
    layout.sortBy = state.sortBy;
    layout.descending = state.descending;
  }
  return { filters, layout };
}

/** A saved report as the page's address. */
export function paramsOfSaved(saved: Pick<SavedReportItem, 'report' | 'filters' | 'layout'>): URLSearchParams {
  const params = new URLSearchParams({ report: saved.report });
  for (const name of FILTER_PARAMS) {
    const value = saved.filters[name];
    if (Array.isArray(value)) for (const v of value) params.append(name, String(v));
    else if ((typeof value === 'string' && value !== '') || typeof value === 'number') params.set(name, String(value));
  }
  const { layout } = saved;
  params.set('view', layout.view);
  if (layout.rows) params.set('rows', layout.rows);
  if (layout.columns !== undefined) params.set('columns', layout.columns ?? '');
  if (layout.measure) params.set('measure', layout.measure);
  params.set('chart', layout.chart);
  if (layout.sortBy) {
    params.set('sortBy', layout.sortBy);
    params.set('descending', String(layout.descending ?? false));
  }
  return params;
}

// ---------------------------------------------------------------- the hook

type FilterPatch = Partial<ReportFilterValues>;

/**
 * The page's state and its setters, which write the address. A change of
 * filters, layout or sort goes back to the first page; a change of report
 * keeps the filters that report knows. The setters are stable.
 */
export function useReportUrl(readable: readonly ReportKind[]) {
  const [params, setParams] = useSearchParams();
  const readableKey = readable.join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: `readableKey` stands for `readable`.
  const state = useMemo(() => readReportState(params, readable), [params, readableKey]);
  const latest = useRef(params);
  latest.current = params;

  const write = useCallback(
    (change: (next: URLSearchParams) => void, options: { keepPage?: boolean } = {}) => {
      const next = new URLSearchParams(latest.current);
      change(next);
      if (!options.keepPage) next.delete('page');
      if (next.toString() === latest.current.toString()) return;
      latest.current = next;
      setParams(next);
    },
    [setParams],
  );

  const setters = useMemo(
    () => ({
      /** Another report: its own view and layout; the filters it knows stay. */
      selectReport: (kind: ReportKind) =>
        write((next) => {
          next.set('report', kind);
          for (const name of VIEW_PARAMS) if (name !== 'chart' && name !== 'limit') next.delete(name);
          const dataset = REPORTS[kind].dataset;
          const states = next.getAll('state').filter((s) => statesOf(dataset).includes(s));
          next.delete('state');
          for (const s of states) next.append('state', s);
          if (dataset !== 'events') {
            next.delete('action');
            next.delete('kind');
          }
        }),
      setView: (view: ReportView) =>
        write((next) => {
          next.set('view', view);
          next.delete('sortBy');
          next.delete('descending');
        }),
      setLayout: (layout: PivotLayout) =>
        write((next) => {
          next.set('rows', layout.rows);
          next.set('columns', layout.columns ?? '');
          next.set('measure', layout.measure);
        }),
      setChart: (chart: ReportChartKind) => write((next) => next.set('chart', chart), { keepPage: true }),
      updateFilters: (patch: FilterPatch) =>
        write((next) => {
          for (const [key, value] of Object.entries(patch) as Array<[keyof ReportFilterValues, string | string[]]>) {
            const name = key === 'states' ? 'state' : key;
            next.delete(name);
            if (Array.isArray(value)) for (const v of value) next.append(name, v);
            else if (value.trim() !== '') next.set(name, value.trim());
          }
        }),
      clearFilters: () => write((next) => FILTER_PARAMS.forEach((name) => next.delete(name))),
      setPage: (page: number) => write((next) => (page > 0 ? next.set('page', String(page + 1)) : next.delete('page')), { keepPage: true }),
      setLimit: (limit: number) => write((next) => next.set('limit', String(limit))),
      setSort: (sortBy: string, descending: boolean) =>
        write((next) => {
          next.set('sortBy', sortBy);
          next.set('descending', String(descending));
        }),
      /** A saved report takes the place of the screen's report, filters and layout. */
      applySaved: (saved: Pick<SavedReportItem, 'report' | 'filters' | 'layout'>) =>
        write((next) => {
          const limit = next.get('limit');
          for (const name of [...next.keys()]) next.delete(name);
          for (const [name, value] of paramsOfSaved(saved)) next.append(name, value);
          if (limit) next.set('limit', limit);
        }),
    }),
    [write],
  );

  return { state, ...setters };
}
