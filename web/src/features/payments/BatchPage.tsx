import ArrowBack from '@mui/icons-material/ArrowBack';
import DoneAllOutlined from '@mui/icons-material/DoneAllOutlined';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { formatDateTime } from '../../../../core/dates.js';
import { useCan, useSession } from '../../app/session/session.js';
import { useDialogs } from '../../components/feedback/FeedbackProvider.js';
import { showToast } from '../../components/feedback/toastStore.js';
import { ActionToolbar, FactsList, QueryState, Section } from '../../components/page/index.js';
import { PageHeader } from '../../components/PageHeader.js';
import { ApiError, errorMessage } from '../../lib/api.js';
import { type BatchDetail, type BatchPayee, batchFilePath, useAchSettings, useBatch, useMarkPaid, useRefreshBatches } from './api.js';
import { BankDetailsDialog } from './BankDetailsDialog.js';
import { BatchStateChip } from './BatchStateChip.js';
import { formatDay, formatMoney } from './format.js';

/** After a file's link is followed, the batch is read again then (the first download exports it). */
const AFTER_DOWNLOAD_MS = [1_500, 5_000];

/**
 * /pagos/:id (target pagos): one batch. Its facts (pay date, method, state,
 * totals, who built, exported and paid it and when), its files as plain
 * links (the NACHA file of its direct deposits, the check register; the
 * first download exports the batch, later ones give the same file), "Mark
 * paid" once exported (asked first: it cannot be undone), then its payees,
 * each with their payments and the applications they pay. Buttons follow
 * the batch's `actions`; a payee's full bank details are behind a button
 * for those who hold `pagos_cuentas`, each read recorded.
 */
export default function BatchPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const query = useBatch(Number(id));
  return (
    <>
      <Button component={RouterLink} to="/pagos" startIcon={<ArrowBack />} sx={{ mb: 1 }}>
        {t('payments.batches.title')}
      </Button>
      {query.data ? (
        <BatchView batch={query.data} />
      ) : (
        <>
          <PageHeader title={t('payments.batch.title')} />
          <QueryState query={query} height={320} retry>
            {() => null}
          </QueryState>
        </>
      )}
    </>
  );
}

function BatchView({ batch }: { batch: BatchDetail }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.resolvedLanguage ?? 'en';
  const money = (c: number) => formatMoney(c, lang);
  const tz = useSession().user.timeZone;
  const can = useCan();
  const dialogs = useDialogs();
  const refresh = useRefreshBatches();
  const [reading, setReading] = useState<BatchPayee | null>(null);
  const markPaid = useMarkPaid({
    onSuccess: () => showToast(t('payments.batch.paidDone', { number: batch.number }), 'success'),
    onError: (error) => {
      showToast(errorMessage(error));
      if (error instanceof ApiError && error.status === 409) void refresh();
    },
  });
  const mayExport = batch.actions.includes('export');
  // The first export writes the NACHA file from the programme's ACH settings: without them the server refuses it,
  // and a plain link could only show the browser's "download failed". Said here, with the way to enter them.
  const ach = useAchSettings();
  const achMissing = mayExport && batch.state === 'open' && batch.achCount > 0 && ach.data?.settings === null;
  const mayMarkPaid = batch.actions.includes('markPaid');
  const when = (at: string | null, by: { name: string } | null) => (at ? t('payments.batch.byAt', { at: formatDateTime(at, tz), name: by?.name ?? '—' }) : '—');

  const confirmPaid = async () => {
    const confirmed = await dialogs.confirm({
      title: t('payments.batch.markPaidTitle', { number: batch.number }),
      message: t('payments.batch.confirmPaid', { count: batch.paymentCount, total: money(batch.total), payees: batch.payees.length }),
      confirmText: t('payments.batch.markPaid'),
    });
    if (confirmed) markPaid.mutate(batch);
  };
  const downloaded = () => {
    for (const ms of AFTER_DOWNLOAD_MS) setTimeout(() => void refresh(), ms);
  };
  const fileLink = (file: 'nacha' | 'checks', label: string) => (
    <Button component="a" href={batchFilePath(batch.id, file)} download variant="outlined" startIcon={<FileDownloadOutlined />} onClick={downloaded} disabled={achMissing}>
      {label}
    </Button>
  );

  return (
    <>
      <PageHeader title={t('payments.batch.titleNumbered', { number: batch.number })}>
        <BatchStateChip state={batch.state} />
      </PageHeader>
      {(mayExport || mayMarkPaid) && (
        <ActionToolbar label={t('payments.batch.actions')}>
          {mayMarkPaid && (
            <Button variant="contained" color="success" startIcon={<DoneAllOutlined />} onClick={() => void confirmPaid()} loading={markPaid.isPending}>
              {t('payments.batch.markPaid')}
            </Button>
          )}
          {mayExport && batch.achCount > 0 && fileLink('nacha', t('payments.batch.nacha'))}
          {mayExport && batch.checkCount > 0 && fileLink('checks', t('payments.batch.checks'))}
        </ActionToolbar>
      )}
      {achMissing ? (
        <Alert
          severity="warning"
          sx={{ mb: 2 }}
          action={
            can('pagos', 'update') && (
              <Button component={RouterLink} to="/configuracion/pagos" color="inherit" size="small">
                {t('payments.batch.enterAch')}
              </Button>
            )
          }
        >
          {t('payments.errors.achSettingsMissing')}
        </Alert>
      ) : (
        batch.state === 'open' &&
        mayExport && (
          <Alert severity="info" sx={{ mb: 2 }}>
            {t('payments.batch.exportHint')}
          </Alert>
        )
      )}
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 1fr) minmax(0, 2fr)' }, alignItems: 'start' }}>
        <Section title={t('payments.batch.summary')}>
          <FactsList
            items={[
              [t('payments.batch.payDate'), formatDay(batch.payDate)],
              [t('payments.batch.method'), batch.method ? t(`payments.methods.${batch.method}`) : t('payments.methods.both')],
              [t('payments.batch.total'), money(batch.total)],
              [t('payments.batch.payments'), `${batch.paymentCount} ${t('payments.batch.counts', { ach: batch.achCount, checks: batch.checkCount })}`],
              [t('payments.batch.created'), when(batch.createdAt, batch.createdBy)],
              [t('payments.batch.exported'), when(batch.exportedAt, batch.exportedBy)],
              [t('payments.batch.paid'), when(batch.paidAt, batch.paidBy)],
            ]}
          />
        </Section>
        <Section title={t('payments.batch.payees', { count: batch.payees.length })}>
          {batch.payees.length === 0 ? (
            <Typography color="text.secondary">{t('payments.batch.noPayees')}</Typography>
          ) : (
            <PaymentsTable payees={batch.payees} onShowDetails={can('pagos_cuentas', 'show') ? setReading : undefined} />
          )}
        </Section>
      </Box>
      {reading && <BankDetailsDialog payeeId={reading.payeeId} name={reading.name} onClose={() => setReading(null)} />}
    </>
  );
}

/**
 * Every payment of the batch in one table, a body of rows per payee: the
 * payee's name, method and total (and the button to their full bank
 * details), then their payments with the applications they pay.
 */
function PaymentsTable({ payees, onShowDetails }: { payees: BatchPayee[]; onShowDetails?: (payee: BatchPayee) => void }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.resolvedLanguage ?? 'en';
  const money = (c: number) => formatMoney(c, lang);
  const wide = { display: { xs: 'none', sm: 'table-cell' } };
  return (
    <Box sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-label={t('payments.batch.paymentsByPayee')}>
        <TableHead>
          <TableRow>
            <TableCell>{t('payments.batch.application')}</TableCell>
            <TableCell>{t('payments.batch.account')}</TableCell>
            <TableCell sx={wide}>{t('payments.batch.trace')}</TableCell>
            <TableCell align="right">{t('payments.batch.amount')}</TableCell>
          </TableRow>
        </TableHead>
        {payees.map((payee) => (
          <TableBody key={payee.payeeId}>
            <TableRow sx={{ bgcolor: 'action.hover' }}>
              <TableCell component="th" scope="rowgroup" colSpan={4} sx={{ py: 0.5 }}>
                <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: 1 }}>
                  <Typography component="span" variant="body2" sx={{ fontWeight: 600, flexGrow: 1, overflowWrap: 'anywhere' }}>
                    {payee.name}
                  </Typography>
                  <Typography component="span" variant="body2" color="text.secondary">
                    {t(`payments.methods.${payee.method}`)} · {money(payee.total)}
                  </Typography>
                  {onShowDetails && (
                    <Button size="small" startIcon={<VisibilityOutlined />} onClick={() => onShowDetails(payee)} aria-label={t('payments.bank.showFor', { name: payee.name })}>
                      {t('payments.bank.show')}
                    </Button>
                  )}
                </Box>
              </TableCell>
            </TableRow>
            {payee.payments.map((p) => (
              <TableRow key={p.id}>
                <TableCell>
                  <Link component={RouterLink} to={`/cases/${p.caseId}`}>
                    {p.caseNumber ?? `#${p.caseId}`}
                  </Link>
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{p.method === 'ach' ? (p.accountMasked ?? '—') : t('payments.methods.check')}</TableCell>
                <TableCell sx={{ ...wide, fontFamily: 'monospace' }}>{p.traceNumber ?? '—'}</TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  {money(p.amount)}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        ))}
      </Table>
    </Box>
  );
}
