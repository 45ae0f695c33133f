import Add from '@mui/icons-material/Add';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { BATCH_STATES, type BatchState } from '../../../../core/api/payments.js';
import { formatDateTime } from '../../../../core/dates.js';
import { useCan, useSession } from '../../app/session/session.js';
import { FilterSelect } from '../../components/page/index.js';
import { PageHeader } from '../../components/PageHeader.js';
import { type Column, DataTable } from '../../components/table/DataTable.js';
import { ListError } from '../../components/table/ListError.js';
import { tablePaging, useListParams } from '../../components/table/listParams.js';
import { type PaymentBatch, useBatchList } from './api.js';
import { BatchStateChip } from './BatchStateChip.js';
import { formatDay, formatMoney } from './format.js';
import { NewBatchDialog } from './NewBatchDialog.js';

/**
 * /pagos (target pagos): the payment batches, newest first, with their
 * state (a filter), pay date, method, total and how many payments of each
 * method; a batch's number opens it. "New batch" gathers the approved
 * awards waiting into one.
 */
export default function BatchesPage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.resolvedLanguage ?? 'en';
  const can = useCan();
  const tz = useSession().user.timeZone;
  const navigate = useNavigate();
  const list = useListParams({ sortBy: 'createdAt', descending: true });
  const [state, setState] = useState<BatchState | ''>('');
  const query = useBatchList(list.params, state);
  const [creating, setCreating] = useState(false);

  const columns: Column<PaymentBatch>[] = [
    {
      id: 'number',
      label: t('payments.batch.number'),
      sortKey: 'number',
      noWrap: true,
      render: (b) => (
        <Link component={RouterLink} to={`/pagos/${b.id}`} sx={{ fontWeight: 500 }}>
          {t('payments.batch.numbered', { number: b.number })}
        </Link>
      ),
    },
    { id: 'payDate', label: t('payments.batch.payDate'), sortKey: 'payDate', noWrap: true, render: (b) => formatDay(b.payDate) },
    { id: 'state', label: t('payments.batch.state'), render: (b) => <BatchStateChip state={b.state} /> },
    { id: 'method', label: t('payments.batch.method'), render: (b) => (b.method ? t(`payments.methods.${b.method}`) : t('payments.methods.both')) },
    {
      id: 'payments',
      label: t('payments.batch.payments'),
      render: (b) => (
        <>
          {b.paymentCount}
          <Typography component="span" variant="body2" color="text.secondary">
            {' '}
            {t('payments.batch.counts', { ach: b.achCount, checks: b.checkCount })}
          </Typography>
        </>
      ),
    },
    { id: 'total', label: t('payments.batch.total'), sortKey: 'total', align: 'right', noWrap: true, render: (b) => formatMoney(b.total, lang) },
    { id: 'created', label: t('payments.batch.created'), sortKey: 'createdAt', noWrap: true, render: (b) => formatDateTime(b.createdAt, tz) },
  ];

  return (
    <>
      <PageHeader title={t('payments.batches.title')}>
        {can('pagos', 'create') && (
          <Button variant="contained" startIcon={<Add />} onClick={() => setCreating(true)}>
            {t('payments.batches.new')}
          </Button>
        )}
      </PageHeader>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('payments.batches.intro')}
      </Typography>
      <Paper variant="outlined" sx={{ p: { xs: 1, sm: 2 } }}>
        <Box sx={{ mb: 1 }}>
          <FilterSelect<BatchState>
            label={t('payments.batch.state')}
            value={state}
            allLabel={t('payments.batches.allStates')}
            options={BATCH_STATES.map((s) => ({ value: s, label: t(`payments.batchStates.${s}`) }))}
            onChange={(next) => {
              setState(next);
              list.setPage(0);
            }}
          />
        </Box>
        <DataTable
          label={t('payments.batches.list')}
          columns={columns}
          rows={query.data?.items}
          total={query.data?.total ?? 0}
          getRowId={(b) => b.id}
          {...tablePaging(list)}
          loading={query.isFetching}
          emptyText={state ? t('payments.batches.emptyFiltered') : t('payments.batches.empty')}
        />
        <ListError error={query.error} />
      </Paper>
      {creating && <NewBatchDialog onClose={() => setCreating(false)} onMade={(batch) => navigate(`/pagos/${batch.id}`)} />}
    </>
  );
}
