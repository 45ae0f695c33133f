/**
 * The one module that imports ECharts: loaded on its own (React.lazy in
 * ReportChart.tsx), so neither the shell nor a page waits for it. ECharts is
 * tree-shaken (DESIGN.md): only the bar, line and pie charts, the grid,
 * tooltip and legend, and the SVG renderer are registered. The React binding
 * comes from `echarts-for-react/esm/core` (its `lib/core` builds, then
 * crashes the page).
 */
import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import EChartsReactModule from 'echarts-for-react/esm/core.js';
import type { EChartsReactProps } from 'echarts-for-react/esm/types.js';
import type { ComponentType } from 'react';

// The package has no "type": "module", so TypeScript reads its esm build as CommonJS (the class under
// `default`) while the bundler gives the class itself.
const ReactEChartsCore = ((EChartsReactModule as { default?: unknown }).default ?? EChartsReactModule) as ComponentType<EChartsReactProps>;

echarts.use([BarChart, LineChart, PieChart, GridComponent, LegendComponent, TooltipComponent, SVGRenderer]);

interface EChartProps {
  option: Record<string, unknown>;
  height: number;
}

export default function EChart({ option, height }: EChartProps) {
  return <ReactEChartsCore echarts={echarts} option={option} notMerge lazyUpdate opts={{ renderer: 'svg' }} style={{ height, width: '100%' }} />;
}
