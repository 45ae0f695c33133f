import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { Component, type ReactNode, Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { lazyPage } from '../../../lib/lazyPage.js';
import { CHART_PALETTE, chartHeight, chartOption } from '../chartOption.js';
import type { ChartData, ChartKind } from '../pivotModel.js';

// ECharts comes with its own chunk, when a chart is first shown.
const EChart = lazyPage(() => import('./EChart.js'));

interface ReportChartProps {
  kind: ChartKind;
  data: ChartData;
  format: (value: number) => string;
  /** What the chart shows, in words: its text alternative (the figures themselves are in a table beside it). */
  summary: string;
  height?: number;
}

/**
 * A chart of report figures. Screen readers get one image with `summary` as
 * its name; the numbers are in the table the page shows with it.
 */
export function ReportChart({ kind, data, format, summary, height = 320 }: ReportChartProps) {
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const text = theme.palette.text.primary;
  const option = useMemo(() => chartOption(kind, data, { palette: CHART_PALETTE, text, format, narrow }), [kind, data, format, narrow, text]);
  const drawnHeight = chartHeight(kind, data, height);
  return (
    <ChartBoundary>
      <Box role="img" aria-label={summary} sx={{ width: '100%', minWidth: 0 }}>
        <Suspense fallback={<Skeleton variant="rectangular" height={drawnHeight} />}>
          <Box aria-hidden>
            <EChart option={option} height={drawnHeight} />
          </Box>
        </Suspense>
      </Box>
    </ChartBoundary>
  );
}

function ChartFailed() {
  const { t } = useTranslation();
  return <Alert severity="warning">{t('reports.chart.failed')}</Alert>;
}

/** A chart that cannot be drawn leaves the rest of the page (and its table) working. */
class ChartBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  render() {
    return this.state.failed ? <ChartFailed /> : this.props.children;
  }
}
