import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { DATASET_DIMENSIONS, DATASET_MEASURES, REPORT_CHARTS, type ReportDimension, type ReportMeasure } from '../../../../core/api/reports.js';
import { filterFieldSx, QueryState } from '../../components/page/index.js';
import { useReportPivot } from './api.js';
import { ReportChart } from './chart/ReportChart.js';
import { useReportLabels } from './labels.js';
import { CHART_MAX_CATEGORIES, chartDataOf, pivotMatrix } from './pivotModel.js';
import { PivotTable } from './PivotTable.js';
import { type PivotLayout, pivotQueryString, type ReportChartKind, type ReportState } from './reportUrl.js';

interface PivotViewProps {
  state: ReportState;
  onLayout: (layout: PivotLayout) => void;
  onChart: (chart: ReportChartKind) => void;
}

/** A report's pivot: what to group by and measure, a chart of it, and the table with its totals. */
export function PivotView({ state, onLayout, onChart }: PivotViewProps) {
  const { t } = useTranslation();
  const labels = useReportLabels();
  const query = useReportPivot(state.kind, pivotQueryString(state));
  const { layout } = state;
  const dimensions = DATASET_DIMENSIONS[state.dataset];
  const measures = DATASET_MEASURES[state.dataset];
  const reportName = t(`reports.names.${state.kind}`);

  return (
    <Box sx={{ display: 'grid', gap: 2, minWidth: 0 }}>
      <Box
        role="group"
        aria-label={t('reports.pivot.layout')}
        // Two by two on a phone, in a row on wider screens.
        sx={{ display: { xs: 'grid', sm: 'flex' }, gridTemplateColumns: '1fr 1fr', flexWrap: 'wrap', gap: 2, '& .MuiTextField-root': { minWidth: { xs: 0, sm: 170 } } }}
      >
        <LayoutSelect
          label={t('reports.pivot.rows')}
          value={layout.rows}
          options={dimensions.map((d) => ({ value: d, label: labels.dimension(d) }))}
          onChange={(rows) => onLayout({ ...layout, rows: rows as ReportDimension, columns: layout.columns === rows ? null : layout.columns })}
        />
        <LayoutSelect
          label={t('reports.pivot.columns')}
          value={layout.columns ?? ''}
          options={[{ value: '', label: t('reports.pivot.noColumns') }, ...dimensions.filter((d) => d !== layout.rows).map((d) => ({ value: d, label: labels.dimension(d) }))]}
          onChange={(columns) => onLayout({ ...layout, columns: (columns || null) as ReportDimension | null })}
        />
        <LayoutSelect
          label={t('reports.pivot.measure')}
          value={layout.measure}
          options={measures.map((m) => ({ value: m, label: labels.measure(m) }))}
          onChange={(measure) => onLayout({ ...layout, measure: measure as ReportMeasure })}
        />
        <LayoutSelect
          label={t('reports.chart.label')}
          value={state.chart}
          options={REPORT_CHARTS.map((c) => ({ value: c, label: t(`reports.charts.${c}`) }))}
          onChange={(chart) => onChart(chart as ReportChartKind)}
        />
      </Box>
      <Box sx={{ position: 'relative', minWidth: 0 }} aria-busy={query.isFetching || undefined}>
        {query.isFetching && query.data && <LinearProgress sx={{ position: 'absolute', top: 0, left: 0, right: 0, zIndex: 4 }} aria-label={t('common.loading')} />}
        <QueryState
          query={query}
          retry
          height={320}
          isEmpty={(pivot) => pivot.rowKeys.length === 0}
          empty={<Typography sx={{ py: 4, textAlign: 'center', color: 'text.secondary' }}>{t('reports.pivot.empty')}</Typography>}
        >
          {(pivot) => <PivotBody pivot={pivot} chart={state.chart} reportName={reportName} />}
        </QueryState>
      </Box>
    </Box>
  );
}

function PivotBody({ pivot, chart, reportName }: { pivot: NonNullable<ReturnType<typeof useReportPivot>['data']>; chart: ReportChartKind; reportName: string }) {
  const { t } = useTranslation();
  const labels = useReportLabels();
  const matrix = useMemo(() => pivotMatrix(pivot, labels), [pivot, labels]);
  const measureName = labels.measure(pivot.measure);
  const byWhat = matrix.columnsLabel ? t('reports.pivot.byTwo', { rows: matrix.rowsLabel, columns: matrix.columnsLabel }) : matrix.rowsLabel;
  const tableLabel = t('reports.pivot.tableLabel', { report: reportName, measure: measureName, by: byWhat });
  const chartData = useMemo(
    () => (chart === 'none' ? null : chartDataOf(matrix, chart, t('reports.pivot.total'), pivot.measure === 'count')),
    [matrix, chart, pivot.measure, t],
  );
  const format = useMemo(() => (value: number) => labels.value(pivot.measure, value), [labels, pivot.measure]);
  return (
    <Box sx={{ display: 'grid', gap: 2, minWidth: 0 }}>
      {chartData && chart !== 'none' && (
        <Box sx={{ minWidth: 0 }}>
          <ReportChart
            kind={chart}
            data={chartData.data}
            format={format}
            summary={t('reports.chart.summary', { chart: t(`reports.charts.${chart}`), measure: measureName, by: chart === 'pie' ? matrix.rowsLabel : byWhat })}
          />
          {chartData.truncated && (
            <Typography variant="body2" color="text.secondary">
              {t('reports.chart.truncated', { shown: CHART_MAX_CATEGORIES, total: matrix.rows.length })}
            </Typography>
          )}
        </Box>
      )}
      <PivotTable matrix={matrix} measure={pivot.measure} label={tableLabel} />
    </Box>
  );
}

interface LayoutSelectProps {
  label: string;
  value: string;
  options: ReadonlyArray<{ value: string; label: string }>;
  onChange: (value: string) => void;
}

function LayoutSelect({ label, value, options, onChange }: LayoutSelectProps) {
  return (
    <TextField
      select
      size="small"
      label={label}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
      sx={filterFieldSx}
    >
      {options.map((option) => (
        <MenuItem key={option.value} value={option.value}>
          {option.label}
        </MenuItem>
      ))}
    </TextField>
  );
}
