import BlockOutlined from '@mui/icons-material/BlockOutlined';
import HistoryOutlined from '@mui/icons-material/HistoryOutlined';
import PersonAddAltOutlined from '@mui/icons-material/PersonAddAltOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCan } from '../../../app/session/session.js';
import { PageHeader } from '../../../components/PageHeader.js';
import type { Column } from '../../../components/table/DataTable.js';
import { ApiError } from '../../../lib/api.js';
import { ADMIN_CASES_PATH, type BulkResult, type CaseItem, useBulkCloseCases, useBulkReassignCases } from '../api.js';
import { CloseDialog } from '../CloseDialog.js';
import { BulkReportDialog, ReassignDialog } from './BulkDialogs.js';
import { CaseFilters } from './CaseFilters.js';
import { CaseTable } from './CaseTable.js';
import { useCaseColumns } from './caseColumns.js';
import { useCaseListState } from './useCaseListState.js';

type Report = { title: string; result: BulkResult };

/**
 * /admin-cases (target admin_cases): every case of the tenant with the
 * filters of /cases, rows to select (kept across pages and filters), and two
 * bulk actions: reassign to another owner and close. Each case is handled on
 * its own; the report names each one and what happened to it.
 */
export default function AdminCasesPage() {
  const { t } = useTranslation();
  const can = useCan();
  const listState = useCaseListState(ADMIN_CASES_PATH);
  const { url, list, protocols, ownerName } = listState;
  const caseColumns = useCaseColumns();
  const { view } = url;
  const [selected, setSelected] = useState<Map<number, CaseItem>>(new Map());
  const [dialog, setDialog] = useState<'reassign' | 'close' | null>(null);
  const [reassignError, setReassignError] = useState<string | undefined>();
  const [report, setReport] = useState<Report | null>(null);
  const named = useRef(new Map<number, CaseItem>());

  const rows = list.isError ? [] : (list.data?.items ?? []);
  const toggle = (item: CaseItem) =>
    setSelected((current) => {
      const next = new Map(current);
      if (next.has(item.id)) next.delete(item.id);
      else next.set(item.id, item);
      return next;
    });
  const pageSelected = rows.length > 0 && rows.every((item) => selected.has(item.id));
  const somePageSelected = rows.some((item) => selected.has(item.id));
  const togglePage = () =>
    setSelected((current) => {
      const next = new Map(current);
      for (const item of rows) {
        if (pageSelected) next.delete(item.id);
        else next.set(item.id, item);
      }
      return next;
    });

  // The report names the cases as they were selected; the hooks then refresh the lists.
  const finish = (title: string, result: BulkResult) => {
    named.current = new Map(selected);
    setDialog(null);
    setReport({ title, result });
    setSelected(new Map());
  };
  const close = useBulkCloseCases({ onSuccess: (result) => finish(t('caseList.admin.closeTitle'), result) });
  const reassign = useBulkReassignCases({
    onSuccess: (result) => finish(t('caseList.admin.reassignTitle'), result),
    onError: (error) => setReassignError(error instanceof ApiError ? (error.details[0]?.message ?? error.message) : undefined),
  });

  const columns: Column<CaseItem>[] = [
    {
      id: 'select',
      label: t('caseList.admin.select'),
      render: (item) => (
        <Checkbox
          size="small"
          checked={selected.has(item.id)}
          onChange={() => toggle(item)}
          slotProps={{ input: { 'aria-label': t('caseList.admin.selectCase', { number: item.number ?? `#${item.id}` }) } }}
          sx={{ p: 0.5 }}
        />
      ),
    },
    ...caseColumns,
  ];
  const describe = (id: number) => {
    const item = named.current.get(id);
    return item ? `${item.number ?? `#${item.id}`} · ${item.applicant}` : `#${id}`;
  };
  const mayUpdate = can('admin_cases', 'update');

  return (
    <>
      <PageHeader title={t('caseList.admin.title')}>
        {/* The imports' API asks for admin_cases update, like the import itself. */}
        {can('admin_cases', 'update') && (
          <Button component={Link} to="/cases/imports" variant="outlined" startIcon={<HistoryOutlined />}>
            {t('caseImports.link')}
          </Button>
        )}
      </PageHeader>
      <Paper variant="outlined" sx={{ p: { xs: 1, sm: 2 } }}>
        <CaseFilters filters={view.filters} onChange={url.update} onClear={url.clear} protocols={protocols} ownerName={ownerName} />
        <Box
          role="toolbar"
          aria-label={t('caseList.admin.toolbar')}
          sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mt: 2, py: 1, px: 1, border: 1, borderColor: 'divider', borderRadius: 1 }}
        >
          <FormControlLabel
            control={<Checkbox size="small" checked={pageSelected} indeterminate={!pageSelected && somePageSelected} onChange={togglePage} />}
            label={t('caseList.admin.selectPage')}
          />
          <Typography variant="body2" sx={{ flexGrow: 1 }} aria-live="polite">
            {t('caseList.admin.selected', { count: selected.size })}
          </Typography>
          {mayUpdate && (
            <Button
              variant="outlined"
              startIcon={<PersonAddAltOutlined />}
              disabled={selected.size === 0}
              onClick={() => {
                setReassignError(undefined);
                setDialog('reassign');
              }}
            >
              {t('caseList.admin.reassign')}
            </Button>
          )}
          {mayUpdate && can('wf_cerrar_caso', 'confirm') && (
            <Button variant="outlined" color="error" startIcon={<BlockOutlined />} disabled={selected.size === 0} onClick={() => setDialog('close')}>
              {t('caseList.admin.close')}
            </Button>
          )}
          {selected.size > 0 && <Button onClick={() => setSelected(new Map())}>{t('caseList.admin.clearSelection')}</Button>}
        </Box>
        <CaseTable state={listState} label={t('caseList.admin.title')} columns={columns} />
      </Paper>
      {dialog === 'reassign' && (
        <ReassignDialog count={selected.size} pending={reassign.isPending} error={reassignError} onSubmit={(userId) => reassign.mutate({ ids: [...selected.keys()], userId })} onClose={() => setDialog(null)} />
      )}
      {dialog === 'close' && (
        <CloseDialog
          title={t('caseList.admin.closeTitle')}
          message={t('caseList.admin.confirmClose', { count: selected.size })}
          warning={t('caseList.admin.cannotUndo')}
          confirmText={t('caseList.admin.close')}
          pending={close.isPending}
          onConfirm={(reason) => close.mutate({ ids: [...selected.keys()], ...(reason ? { reason } : {}) })}
          onClose={() => setDialog(null)}
        />
      )}
      {report && <BulkReportDialog title={report.title} result={report.result} describe={describe} onClose={() => setReport(null)} />}
    </>
  );
}
