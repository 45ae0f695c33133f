import type { Drill } from '../../../../core/api/reports.js';
import type { PivotAnswer } from './api.js';
import { STATE_CHART_COLORS } from './chartOption.js';
import type { ReportLabels } from './labels.js';

export interface Measured {
  value: number;
  count: number;
  drill: Drill;
}

export interface PivotRowView {
  key: string | null;
  label: string;
  /** One per column (empty without columns); null where nothing crosses. */
  cells: Array<Measured | null>;
  total: Measured | null;
}

/** A pivot answer laid out as the table draws it. */
export interface PivotMatrix {
  rowsDimension: string;
  rowsLabel: string;
  columnsDimension: string | null;
  columnsLabel: string | null;
  columns: Array<{ key: string | null; label: string }>;
  rows: PivotRowView[];
  columnTotals: Array<Measured | null>;
  total: Measured;
}

const id = (key: string | null) => (key === null ? '\u0000none' : `k:${key}`);

export function pivotMatrix(pivot: PivotAnswer, labels: ReportLabels): PivotMatrix {
  const columns = pivot.columnKeys.map((k) => ({ key: k.key, label: labels.key(pivot.columns, k) }));
  const cells = new Map(pivot.cells.map((c) => [`${id(c.row)}|${id(c.column)}`, c]));
  const rowTotals = new Map(pivot.rowTotals.map((r) => [id(r.row), r]));
  const columnTotals = new Map(pivot.columnTotals.map((c) => [id(c.column), c]));
  return {
    rowsDimension: pivot.rows,
    rowsLabel: labels.dimension(pivot.rows),
    columnsDimension: pivot.columns,
    columnsLabel: pivot.columns ? labels.dimension(pivot.columns) : null,
    columns,
    rows: pivot.rowKeys.map((k) => ({
      key: k.key,
      label: labels.key(pivot.rows, k),
      cells: pivot.columns ? columns.map((c) => cells.get(`${id(k.key)}|${id(c.key)}`) ?? null) : [],
      total: rowTotals.get(id(k.key)) ?? null,
    })),
    columnTotals: columns.map((c) => columnTotals.get(id(c.key)) ?? null),
    total: pivot.total,
  };
}

export type ChartKind = 'bar' | 'stackedBar' | 'line' | 'pie';

/** What a chart draws: categories along the axis (or slices), one series per column. */
export interface ChartData {
  categories: string[];
  series: Array<{ name: string; values: Array<number | null>; color?: string }>;
  /** One colour per category, for a chart of one series (a pie, bars of states). */
  categoryColors?: Array<string | undefined>;
  /** A run of days or months: the axis names only as many as fit, level. Otherwise every category is named. */
  sequence?: boolean;
}

/** Dimensions whose keys run in time order. */
const SEQUENCES: readonly string[] = ['createdMonth', 'createdDay', 'decidedMonth', 'month', 'day'];

/** A chart of more categories than this shows the first ones (the table has them all). */
export const CHART_MAX_CATEGORIES = 30;

/**
 * The chart of a pivot: its rows along the axis and a series per column (or
 * the rows' totals without columns; a pie always slices the rows' totals).
 * An empty crossing is 0 when counting, and no value when measuring days.
 */
export function chartDataOf(matrix: PivotMatrix, kind: ChartKind, totalLabel: string, counting: boolean): { data: ChartData; truncated: boolean } {
  const rows = matrix.rows.slice(0, CHART_MAX_CATEGORIES);
  const empty = counting ? 0 : null;
  const categories = rows.map((r) => r.label);
  const single = kind === 'pie' || matrix.columns.length === 0;
  const stateColor = (key: string | null) => (key === null ? undefined : STATE_CHART_COLORS[key]);
  const series = single
    ? [{ name: totalLabel, values: rows.map((r) => r.total?.value ?? empty) }]
    : matrix.columns.map((c, i) => ({
        name: c.label,
        values: rows.map((r) => r.cells[i]?.value ?? empty),
        ...(matrix.columnsDimension === 'state' && stateColor(c.key) && { color: stateColor(c.key) }),
      }));
  const data: ChartData = { categories, series, sequence: SEQUENCES.includes(matrix.rowsDimension) };
  if (single && matrix.rowsDimension === 'state') data.categoryColors = rows.map((r) => stateColor(r.key));
  return { data, truncated: matrix.rows.length > rows.length };
}
