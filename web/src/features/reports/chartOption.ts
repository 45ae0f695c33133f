import type { ChartData, ChartKind } from './pivotModel.js';

export interface ChartLook {
  /** Series colours, in order, for series that bring none. */
  palette: readonly string[];
  text: string;
  /** How a value is written in the tooltip and the labels. */
  format: (value: number) => string;
  /** A narrow screen: fewer words on the axis. */
  narrow: boolean;
}

/**
 * Colours that tell series apart for most kinds of colour blindness
 * (Okabe and Ito's), for series that name no colour of their own.
 */
export const CHART_PALETTE = ['#0072B2', '#E69F00', '#009E73', '#D55E00', '#CC79A7', '#56B4E9', '#8C8C8C', '#6D4C41', '#B8A400', '#332288'] as const;

/** A state keeps one colour in every chart: accepted green, pending orange, cancelled brown... */
export const STATE_CHART_COLORS: Record<string, string> = {
  UNASSIGNED: '#0072B2',
  PENDING: '#E69F00',
  BLOCKED: '#D55E00',
  ACCEPTED: '#009E73',
  SUCCESS: '#009E73',
  REJECTED: '#6D4C41',
  INCONSISTENCY: '#CC79A7',
  CLOSED: '#8C8C8C',
  DRAFT: '#56B4E9',
};

const shorten = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** Bars of named things (tasks, people, teams) lie down, so their names read in full; bars of days and months stand. */
export const isHorizontal = (kind: ChartKind, data: ChartData) => (kind === 'bar' || kind === 'stackedBar') && !data.sequence;

/** How tall a chart is drawn: lying bars take a band each, so every name has its line. */
export function chartHeight(kind: ChartKind, data: ChartData, base: number): number {
  if (!isHorizontal(kind, data)) return base;
  const band = kind === 'stackedBar' || data.series.length === 1 ? 28 : Math.min(12 * data.series.length + 8, 60);
  return Math.max(160, data.categories.length * band + 60);
}

/**
 * The ECharts option of a chart (plain data, so it can be tested without a
 * canvas): bars (lying for named things, standing for days), stacked bars or
 * lines with a series per column, or a pie of the first series.
 */
export function chartOption(kind: ChartKind, data: ChartData, look: ChartLook): Record<string, unknown> {
  const valueFormatter = (value: unknown) => (typeof value === 'number' ? look.format(value) : '–');
  const legend = data.series.length > 1 || kind === 'pie';
  const base = {
    color: [...look.palette],
    textStyle: { color: look.text },
    animation: false,
    aria: { enabled: false },
    // Above the plot: axis names below it never run into the legend.
    legend: legend ? { type: 'scroll', top: 0, textStyle: { color: look.text } } : undefined,
  };
  const valuesOf = (values: Array<number | null>) =>
    data.categoryColors && data.series.length === 1 ? values.map((value, i) => ({ value, itemStyle: { color: data.categoryColors?.[i] } })) : values;
  if (kind === 'pie') {
    const [first] = data.series;
    return {
      ...base,
      tooltip: { trigger: 'item', valueFormatter },
      legend: { type: 'scroll', bottom: 0, textStyle: { color: look.text }, formatter: (name: string) => shorten(name, look.narrow ? 12 : 30) },
      series: [
        {
          type: 'pie',
          name: first?.name ?? '',
          radius: look.narrow ? ['30%', '60%'] : ['35%', '65%'],
          center: ['50%', '45%'],
          label: { show: !look.narrow, formatter: ({ name }: { name: string }) => shorten(name, 28), color: look.text },
          data: data.categories.map((name, i) => ({ name, value: first?.values[i] ?? 0, ...(data.categoryColors?.[i] && { itemStyle: { color: data.categoryColors[i] } }) })),
        },
      ],
    };
  }
  const series = data.series.map((s) => ({
    type: kind === 'line' ? 'line' : 'bar',
    name: s.name,
    data: valuesOf(s.values),
    ...(s.color && { itemStyle: { color: s.color }, ...(kind === 'line' && { lineStyle: { color: s.color } }) }),
    ...(kind === 'stackedBar' ? { stack: 'total' } : {}),
    ...(kind === 'line' ? { connectNulls: false, symbolSize: 6 } : {}),
    emphasis: { focus: 'series' },
  }));
  const grid = { left: 8, right: 24, top: legend ? 36 : 16, bottom: 8 };
  const tooltip = { trigger: 'axis', axisPointer: { type: kind === 'line' ? 'line' : 'shadow' }, valueFormatter };
  const values = { type: 'value', axisLabel: { color: look.text, formatter: (value: number) => look.format(value) } };
  if (isHorizontal(kind, data)) {
    return {
      ...base,
      tooltip,
      grid,
      // The first row on top, as in the table.
      yAxis: { type: 'category', inverse: true, data: data.categories, axisLabel: { interval: 0, color: look.text, formatter: (value: string) => shorten(value, look.narrow ? 14 : 32) } },
      xAxis: values,
      series,
    };
  }
  const many = data.categories.length > (look.narrow ? 3 : 8);
  const axisLabel = data.sequence
    ? { interval: 'auto', hideOverlap: true, color: look.text }
    : { interval: 0, rotate: many ? 40 : 0, color: look.text, formatter: (value: string) => shorten(value, look.narrow ? 10 : 24) };
  return { ...base, tooltip, grid, xAxis: { type: 'category', data: data.categories, axisLabel }, yAxis: values, series };
}
