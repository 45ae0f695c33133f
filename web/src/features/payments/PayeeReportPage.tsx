import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import ReceiptLongOutlined from '@mui/icons-material/ReceiptLongOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PAYEE_REPORT_THRESHOLD_CENTS } from '../../../../core/api/payments.js';
import { useCan } from '../../app/session/session.js';
import { FactsList } from '../../components/page/index.js';
import { PageHeader } from '../../components/PageHeader.js';
import { type Column, DataTable } from '../../components/table/DataTable.js';
import { ListError } from '../../components/table/ListError.js';
import { ROWS_PER_PAGE_OPTIONS } from '../../components/table/listParams.js';
import { type PayeeReportRow, payeeReportFilePath, usePayeeReport } from './api.js';
import { formatMoney } from './format.js';

/** The years offered: this one and the nine before it. */
const YEARS_BACK = 10;

/**
 * /reportes/beneficiarios (target reporte_beneficiarios): a year's total
 * paid per payee and tax id, for the tax forms: each payee's name, kind,
 * masked tax id, payments and total, those at or over the reporting
 * threshold marked; the year's totals above; Excel by a plain link (with
 * `export`).
 */
export default function PayeeReportPage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.resolvedLanguage ?? 'en';
  const money = (c: number) => formatMoney(c, lang);
  const can = useCan();
  const thisYear = new Date().getFullYear();
  const [year, setYear] = useState(thisYear);
  const [page, setPage] = useState(0);
  const [limit, setLimit] = useState(ROWS_PER_PAGE_OPTIONS[1]);
  const query = usePayeeReport(year);
  const items = query.data?.items;
  const totals = useMemo(
    () => ({
      payees: items?.length ?? 0,
      payments: items?.reduce((s, r) => s + r.payments, 0) ?? 0,
      total: items?.reduce((s, r) => s + r.total, 0) ?? 0,
      over: items?.filter((r) => r.overThreshold).length ?? 0,
    }),
    [items],
  );
  const threshold = money(query.data?.threshold ?? PAYEE_REPORT_THRESHOLD_CENTS);

  const columns: Column<PayeeReportRow>[] = [
    { id: 'name', label: t('payments.report.name'), render: (r) => <Box sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>{r.name}</Box> },
    { id: 'kind', label: t('payments.report.kind'), render: (r) => t(`payments.kind.${r.kind}`) },
    { id: 'taxId', label: t('payments.report.taxId'), noWrap: true, render: (r) => r.taxIdMasked ?? <Typography component="span" variant="body2" color="warning.main">{t('payments.report.noTaxId')}</Typography> },
    { id: 'payments', label: t('payments.report.payments'), align: 'right', render: (r) => r.payments },
    { id: 'total', label: t('payments.report.total'), align: 'right', noWrap: true, render: (r) => money(r.total) },
    {
      id: 'threshold',
      label: t('payments.report.threshold'),
      render: (r) =>
        r.overThreshold ? (
          <Chip size="small" color="warning" icon={<ReceiptLongOutlined />} label={t('payments.report.formDue')} />
        ) : (
          <Typography component="span" variant="body2" color="text.secondary">
            {t('payments.report.underThreshold')}
          </Typography>
        ),
    },
  ];

  return (
    <>
      <PageHeader title={t('payments.report.title')}>
        {can('reporte_beneficiarios', 'export') && (
          <Button component="a" href={payeeReportFilePath(year)} download variant="outlined" startIcon={<FileDownloadOutlined />}>
            {t('payments.report.excel')}
          </Button>
        )}
      </PageHeader>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('payments.report.intro', { threshold })}
      </Typography>
      <Paper variant="outlined" sx={{ p: { xs: 1, sm: 2 } }}>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 3, alignItems: 'flex-start', mb: 2 }}>
          <TextField
            select
            size="small"
            label={t('payments.report.year')}
            value={year}
            onChange={(e) => {
              setYear(Number(e.target.value));
              setPage(0);
            }}
            sx={{ minWidth: 140, width: { xs: '100%', sm: 'auto' } }}
          >
            {Array.from({ length: YEARS_BACK }, (_, i) => thisYear - i).map((y) => (
              <MenuItem key={y} value={y}>
                {y}
              </MenuItem>
            ))}
          </TextField>
          {items && (
            <Box role="region" aria-label={t('payments.report.totals')} sx={{ flexGrow: 1, minWidth: 0 }}>
              <FactsList
                items={[
                  [t('payments.report.totalPayees'), String(totals.payees)],
                  [t('payments.report.totalPayments'), String(totals.payments)],
                  [t('payments.report.totalPaid'), money(totals.total)],
                  [t('payments.report.totalOver', { threshold }), String(totals.over)],
                ]}
              />
            </Box>
          )}
        </Box>
        <DataTable
          label={t('payments.report.list', { year })}
          columns={columns}
          rows={items?.slice(page * limit, page * limit + limit)}
          total={items?.length ?? 0}
          getRowId={(r) => r.payeeId}
          page={page}
          rowsPerPage={limit}
          onPageChange={setPage}
          onRowsPerPageChange={(n) => {
            setLimit(n);
            setPage(0);
          }}
          loading={query.isFetching}
          emptyText={t('payments.report.empty', { year })}
        />
        <ListError error={query.error} />
      </Paper>
    </>
  );
}
