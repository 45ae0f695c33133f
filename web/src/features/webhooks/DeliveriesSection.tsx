import ReplayOutlined from '@mui/icons-material/ReplayOutlined';
import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DELIVERY_STATES, type DeliveryState } from '../../../../core/api/webhooks.js';
import { formatDateTime } from '../../../../core/dates.js';
import { useSession } from '../../app/session/session.js';
import { useDialogs } from '../../components/feedback/FeedbackProvider.js';
import { showToast } from '../../components/feedback/toastStore.js';
import { FactsList, FilterBar, FilterSelect, InfoDialog, Section } from '../../components/page/index.js';
import { type ChipTone, StateChip } from '../../components/StateChip.js';
import { type Column, DataTable } from '../../components/table/DataTable.js';
import { ListError } from '../../components/table/ListError.js';
import { tablePaging, useListParams } from '../../components/table/listParams.js';
import { type DeliveryItem, useDeliveries, useRedeliver, type WebhookItem } from './api.js';
import { eventLabel } from './labels.js';

const TONES: Record<DeliveryState, ChipTone> = { pending: 'neutral', delivered: 'positive', failed: 'negative' };
const pre = { m: 0, p: 1.5, bgcolor: 'action.hover', borderRadius: 1, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', fontFamily: 'monospace', fontSize: '0.8rem' } as const;

/** A delivery's state as a chip; under it why the last try failed, or when the next one comes. */
function DeliveryStateCell({ delivery }: { delivery: DeliveryItem }) {
  const { t } = useTranslation();
  const session = useSession();
  return (
    <Box sx={{ display: 'grid', gap: 0.5, justifyItems: 'start' }}>
      <StateChip tone={TONES[delivery.state]} label={t(`webhooks.deliveryStates.${delivery.state}`)} />
      {delivery.lastError && delivery.state !== 'delivered' && (
        <Typography variant="caption" color="error" sx={{ overflowWrap: 'anywhere' }}>
          {delivery.lastError}
        </Typography>
      )}
      {delivery.state === 'pending' && delivery.nextAttemptAt && (
        <Typography variant="caption" color="text.secondary">
          {t('webhooks.nextTry', { date: formatDateTime(delivery.nextAttemptAt, session.user.timeZone) })}
        </Typography>
      )}
    </Box>
  );
}

/** One delivery: its facts, the start of the subscriber's last answer, and the body sent. */
function DeliveryDialog({ delivery, onClose, onRedeliver }: { delivery: DeliveryItem; onClose: () => void; onRedeliver?: () => void }) {
  const { t } = useTranslation();
  const session = useSession();
  const when = (d: string | null) => (d ? formatDateTime(d, session.user.timeZone) : '—');
  return (
    <InfoDialog title={t('webhooks.deliveryTitle', { event: eventLabel(t, delivery.eventType) })} onClose={onClose} maxWidth="md">
      <Box sx={{ display: 'grid', gap: 2 }}>
        <FactsList
          items={[
            [t('webhooks.messageId'), <Box key="id" component="span" sx={{ fontFamily: 'monospace' }}>{delivery.messageId}</Box>],
            [t('webhooks.deliveryState'), <DeliveryStateCell key="state" delivery={delivery} />],
            [t('webhooks.case'), delivery.caseNumber ?? (delivery.caseId ? `#${delivery.caseId}` : '—')],
            [t('webhooks.attempts'), String(delivery.attempts)],
            [t('webhooks.status'), delivery.lastStatus === null ? '—' : String(delivery.lastStatus)],
            [t('webhooks.made'), when(delivery.createdAt)],
            [t('webhooks.lastTry'), when(delivery.lastAttemptAt)],
          ]}
        />
        {delivery.lastResponse !== null && delivery.lastResponse !== '' && (
          <Box>
            <Typography variant="subtitle2" component="h3" gutterBottom>
              {t('webhooks.responseBody')}
            </Typography>
            <Box component="pre" sx={pre}>
              {delivery.lastResponse}
            </Box>
          </Box>
        )}
        <Box>
          <Typography variant="subtitle2" component="h3" gutterBottom>
            {t('webhooks.payload')}
          </Typography>
          <Box component="pre" sx={pre}>
            {JSON.stringify(delivery.payload, null, 2)}
          </Box>
        </Box>
        {onRedeliver && (
          <Box>
            <Button variant="outlined" startIcon={<ReplayOutlined />} onClick={onRedeliver}>
              {t('webhooks.redeliver')}
            </Button>
          </Box>
        )}
      </Box>
    </InfoDialog>
  );
}

/**
 * The deliveries of one subscription, newest first, filtered by state: each
 * with its event and case, its state (and why it failed, or its next try),
 * the subscriber's last status and the tries made; view one (its answer and
 * body) and redeliver it (after a confirmation). Asked again every few
 * seconds while one is pending, so a test event is seen to arrive.
 */
export function DeliveriesSection({ webhook }: { webhook: WebhookItem }) {
  const { t } = useTranslation();
  const session = useSession();
  const dialogs = useDialogs();
  const list = useListParams({ sortBy: 'created_at', descending: true });
  const [state, setState] = useState<DeliveryState | ''>('');
  const [viewing, setViewing] = useState<DeliveryItem | null>(null);
  const query = useDeliveries(webhook.id, list.params, state);
  const redeliver = useRedeliver(webhook.id, { onSuccess: () => showToast(t('webhooks.redelivered'), 'success') });

  const confirmRedeliver = async (d: DeliveryItem) => {
    const confirmed = await dialogs.confirm({
      title: t('webhooks.redeliverTitle'),
      message: t('webhooks.confirmRedeliver', { event: eventLabel(t, d.eventType), url: webhook.url }),
      confirmText: t('webhooks.redeliver'),
    });
    if (confirmed) redeliver.mutate(d);
  };

  const columns: Column<DeliveryItem>[] = [
    { id: 'made', label: t('webhooks.made'), sortKey: 'created_at', noWrap: true, render: (d) => formatDateTime(d.createdAt, session.user.timeZone) },
    {
      id: 'event',
      label: t('webhooks.event'),
      render: (d) => (
        <Box>
          <Typography variant="body2">{eventLabel(t, d.eventType)}</Typography>
          {(d.caseNumber || d.caseId) && (
            <Typography variant="caption" color="text.secondary">
              {t('webhooks.case')} {d.caseNumber ?? `#${d.caseId}`}
            </Typography>
          )}
        </Box>
      ),
    },
    { id: 'state', label: t('webhooks.deliveryState'), render: (d) => <DeliveryStateCell delivery={d} /> },
    { id: 'status', label: t('webhooks.answer'), align: 'right', render: (d) => (d.lastStatus === null ? '—' : d.lastStatus) },
    { id: 'attempts', label: t('webhooks.attempts'), align: 'right', render: (d) => d.attempts },
  ];

  const actions = (d: DeliveryItem) => (
    <>
      <Tooltip title={t('webhooks.view')} describeChild>
        <IconButton aria-label={`${t('webhooks.view')}: ${eventLabel(t, d.eventType)} ${d.id}`} onClick={() => setViewing(d)} size="small">
          <VisibilityOutlined fontSize="small" />
        </IconButton>
      </Tooltip>
      {d.actions.includes('redeliver') && (
        <Tooltip title={t('webhooks.redeliver')} describeChild>
          <IconButton aria-label={`${t('webhooks.redeliver')}: ${eventLabel(t, d.eventType)} ${d.id}`} onClick={() => void confirmRedeliver(d)} size="small" disabled={redeliver.isPending}>
            <ReplayOutlined fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
    </>
  );

  return (
    <Section title={t('webhooks.deliveriesOf', { url: webhook.url })}>
      <FilterBar search={null} narrowing={state ? 1 : 0} clearable={!!state} onClear={() => setState('')}>
        <FilterSelect
          label={t('webhooks.deliveryState')}
          value={state}
          allLabel={t('webhooks.allStates')}
          options={DELIVERY_STATES.map((value) => ({ value, label: t(`webhooks.deliveryStates.${value}`) }))}
          onChange={(next) => {
            setState(next);
            list.setPage(0);
          }}
        />
      </FilterBar>
      <DataTable
        label={t('webhooks.deliveries')}
        columns={columns}
        rows={query.data?.items}
        total={query.data?.total ?? 0}
        getRowId={(d) => d.id}
        {...tablePaging(list)}
        loading={query.isFetching}
        emptyText={state ? t('dataTable.noMatches') : t('webhooks.deliveriesEmpty')}
        actions={actions}
      />
      <ListError error={query.error} />
      {viewing && (
        <DeliveryDialog
          delivery={viewing}
          onClose={() => setViewing(null)}
          onRedeliver={
            viewing.actions.includes('redeliver')
              ? () => {
                  const d = viewing;
                  setViewing(null);
                  void confirmRedeliver(d);
                }
              : undefined
          }
        />
      )}
    </Section>
  );
}
