import { describe, expect, test } from 'vitest';
import { chartOption } from './chartOption.js';
import { daysByTeam, statusByTask } from './fixtures.js';
import type { ReportLabels } from './labels.js';
import { CHART_MAX_CATEGORIES, chartDataOf, pivotMatrix } from './pivotModel.js';

/** Labels without i18next: keys as they come, "none" for the group without one. */
const labels: ReportLabels = {
  dimension: (d) => d,
  measure: (m) => m,
  key: (_d, k) => k.label ?? k.key ?? 'none',
  value: (_m, v) => String(v),
  day: (d) => d,
  action: (a) => a,
};
const look = { palette: ['#111', '#222'], text: '#000', format: (v: number) => `${v} d`, narrow: false };

describe('the chart of a pivot', () => {
  test('bars: a category per row, a series per column, an empty crossing 0 when counting', () => {
    const matrix = pivotMatrix(statusByTask, labels);
    const { data, truncated } = chartDataOf(matrix, 'bar', 'Total', true);
    expect(truncated).toBe(false);
    expect(data).toEqual({
      categories: ['Rental · Intake', 'Rental · Review'],
      series: [
        // A state keeps its colour in every chart.
        { name: 'PENDING', values: [3, 2], color: '#E69F00' },
        { name: 'ACCEPTED', values: [5, 0], color: '#009E73' },
      ],
      // Tasks are not a run of days: every one is named on the axis.
      sequence: false,
    });
    // Named things lie down, the first row on top, so that each name reads in full.
    const option = chartOption('stackedBar', data, look) as { yAxis: { data: string[]; inverse: boolean; axisLabel: { interval: unknown } }; series: Array<{ type: string; stack?: string; data: unknown[]; itemStyle?: { color: string } }>; legend?: unknown };
    expect(option.yAxis.data).toEqual(['Rental · Intake', 'Rental · Review']);
    expect(option.yAxis.inverse).toBe(true);
    expect(option.series.map((s) => s.itemStyle?.color)).toEqual(['#E69F00', '#009E73']);
    expect(option.series.map((s) => [s.type, s.stack, s.data])).toEqual([
      ['bar', 'total', [3, 2]],
      ['bar', 'total', [5, 0]],
    ]);
    expect(option.legend).toMatchObject({ top: 0 });
    expect(option.yAxis.axisLabel.interval).toBe(0);
  });

  test('a run of days names only the days that fit along the axis', () => {
    const option = chartOption('bar', { categories: ['11/01', '11/02'], series: [{ name: 'Accepted', values: [1, 2] }], sequence: true }, look) as { xAxis: { axisLabel: { interval: unknown; hideOverlap: boolean } } };
    expect(option.xAxis.axisLabel).toMatchObject({ interval: 'auto', hideOverlap: true });
  });

  test('without columns one series of the rows’ totals; days keep no value where nothing was measured', () => {
    const matrix = pivotMatrix(daysByTeam, labels);
    const { data } = chartDataOf(matrix, 'line', 'Total', false);
    expect(data.series).toEqual([{ name: 'Total', values: [2.5, 1.25] }]);
    const option = chartOption('line', data, look) as { series: Array<{ type: string }>; legend?: unknown; tooltip: { valueFormatter: (v: unknown) => string } };
    expect(option.series[0]?.type).toBe('line');
    expect(option.legend).toBeUndefined();
    expect(option.tooltip.valueFormatter(2.5)).toBe('2.5 d');
    expect(option.tooltip.valueFormatter(null)).toBe('–');
  });

  test('a pie slices the rows’ totals, even with columns', () => {
    const { data } = chartDataOf(pivotMatrix(statusByTask, labels), 'pie', 'Total', true);
    const option = chartOption('pie', data, look) as { series: Array<{ type: string; data: Array<{ name: string; value: number }> }> };
    expect(option.series[0]?.type).toBe('pie');
    expect(option.series[0]?.data).toEqual([
      { name: 'Rental · Intake', value: 8 },
      { name: 'Rental · Review', value: 2 },
    ]);
  });

  test('a chart of many rows shows the first ones and says so', () => {
    const many = {
      ...daysByTeam,
      rowKeys: Array.from({ length: 45 }, (_, i) => ({ key: String(i), label: `Team ${i}` })),
      rowTotals: Array.from({ length: 45 }, (_, i) => ({ row: String(i), value: i, count: i, drill: null })),
    };
    const { data, truncated } = chartDataOf(pivotMatrix(many, labels), 'bar', 'Total', true);
    expect(truncated).toBe(true);
    expect(data.categories).toHaveLength(CHART_MAX_CATEGORIES);
  });
});
