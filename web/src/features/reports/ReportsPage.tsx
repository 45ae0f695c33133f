import BookmarksOutlined from '@mui/icons-material/BookmarksOutlined';
import TableViewOutlined from '@mui/icons-material/TableViewOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { EXPORT_TARGET, REPORT_KINDS, REPORTS, type ReportKind, type ReportView } from '../../../../core/api/reports.js';
import { useCan } from '../../app/session/session.js';
import { PageHeader } from '../../components/PageHeader.js';
import { useKnownUserName } from './api.js';
import { ExportMenu } from './ExportMenu.js';
import { PivotView } from './PivotView.js';
import { ReportFilters } from './ReportFilters.js';
import { RowsView } from './RowsView.js';
import { rowsSourceOf, useReportUrl } from './reportUrl.js';
import { SavedReportsDialog } from './SavedReportsDialog.js';

/**
 * /reportes: the five reports of the spec, each shown to whoever holds its
 * target. A report has a filter bar, a pivot (rows, columns and a measure
 * the reader picks, with totals, a chart and drill-down to the lists) and,
 * for three of them, paged rows. Everything on screen is in the address;
 * the view on screen downloads as Excel or CSV, and can be saved.
 */
export default function ReportsPage() {
  const { t } = useTranslation();
  const can = useCan();
  const readable = useMemo(() => REPORT_KINDS.filter((kind) => can(REPORTS[kind].target, 'show')), [can]);
  const url = useReportUrl(readable);
  const [savedOpen, setSavedOpen] = useState(false);
  const tabsId = useId();
  const { state } = url;
  const userName = useKnownUserName(state?.filters.userId ?? '');
  // The data tape has a page of its own (/reportes/data-tape), reached from here.
  const dataTape = can('reporte_data_tape', 'show') && (
    <Button component={RouterLink} to="/reportes/data-tape" variant="outlined" startIcon={<TableViewOutlined />}>
      {t('dataTape.open')}
    </Button>
  );

  if (!state) {
    return (
      <>
        <PageHeader title={t('reports.title')}>{dataTape}</PageHeader>
        <Typography>{t('reports.noneReadable')}</Typography>
      </>
    );
  }
  const { kind, view } = state;
  const views = REPORTS[kind].views;
  const source = rowsSourceOf(kind, view);
  const tabId = (k: ReportKind) => `${tabsId}-tab-${k}`;
  const panelId = `${tabsId}-panel`;
  const reportName = t(`reports.names.${kind}`);

  return (
    <>
      <PageHeader title={t('reports.title')}>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
          <Button variant="outlined" startIcon={<BookmarksOutlined />} onClick={() => setSavedOpen(true)}>
            {t('reports.saved.button')}
          </Button>
          {can(EXPORT_TARGET, 'export') && <ExportMenu state={state} />}
          {dataTape}
        </Box>
      </PageHeader>
      <Tabs
        value={kind}
        onChange={(_event, next: ReportKind) => url.selectReport(next)}
        variant="scrollable"
        scrollButtons="auto"
        allowScrollButtonsMobile
        aria-label={t('reports.choose')}
        sx={{ borderBottom: 1, borderColor: 'divider', mb: 2 }}
      >
        {readable.map((k) => (
          <Tab key={k} value={k} label={t(`reports.names.${k}`)} id={tabId(k)} aria-controls={panelId} />
        ))}
      </Tabs>
      <Paper variant="outlined" role="tabpanel" id={panelId} aria-labelledby={tabId(kind)} sx={{ p: { xs: 1, sm: 2 }, display: 'grid', gap: 2, minWidth: 0 }}>
        <Typography variant="body2" color="text.secondary">
          {t(`reports.descriptions.${kind}`)}
        </Typography>
        <ReportFilters dataset={state.dataset} filters={state.filters} userName={userName} onChange={url.updateFilters} onClear={url.clearFilters} />
        {views.length > 1 && (
          <ToggleButtonGroup
            exclusive
            size="small"
            color="primary"
            value={view}
            onChange={(_event, next: ReportView | null) => next && url.setView(next)}
            aria-label={t('reports.views.label')}
            sx={{ flexWrap: 'wrap' }}
          >
            {views.map((v) => (
              <ToggleButton key={v} value={v}>
                {t(`reports.views.${v}`)}
              </ToggleButton>
            ))}
          </ToggleButtonGroup>
        )}
        {source ? (
          <RowsView
            source={source}
            state={state}
            label={`${reportName}: ${t(`reports.views.${view}`)}`}
            onPage={url.setPage}
            onLimit={url.setLimit}
            onSort={url.setSort}
          />
        ) : (
          <PivotView state={state} onLayout={url.setLayout} onChart={url.setChart} />
        )}
      </Paper>
      {savedOpen && (
        <SavedReportsDialog
          state={state}
          onApply={(saved) => {
            url.applySaved(saved);
            setSavedOpen(false);
          }}
          onClose={() => setSavedOpen(false)}
        />
      )}
    </>
  );
}
