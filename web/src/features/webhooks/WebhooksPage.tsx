import Add from '@mui/icons-material/Add';
import AutorenewOutlined from '@mui/icons-material/AutorenewOutlined';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import KeyOutlined from '@mui/icons-material/KeyOutlined';
import ListAltOutlined from '@mui/icons-material/ListAltOutlined';
import SendOutlined from '@mui/icons-material/SendOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { type ReactElement, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../../core/dates.js';
import { useCan, useSession } from '../../app/session/session.js';
import { useDialogs } from '../../components/feedback/FeedbackProvider.js';
import { showToast } from '../../components/feedback/toastStore.js';
import { PageHeader } from '../../components/PageHeader.js';
import { type ChipTone, StateChip } from '../../components/StateChip.js';
import { type Column, DataTable } from '../../components/table/DataTable.js';
import { ListError } from '../../components/table/ListError.js';
import { tablePaging, useListParams } from '../../components/table/listParams.js';
import { useDeleteWebhook, useRevealSecret, useRotateSecret, useSendTestEvent, useWebhookList, type WebhookItem, type WebhookWithSecret } from './api.js';
import { DeliveriesSection } from './DeliveriesSection.js';
import { eventLabel } from './labels.js';
import { SecretDialog } from './SecretDialog.js';
import { WebhookDialog } from './WebhookDialog.js';

type Shown = { url: string; secret: string; previousUntil?: string | null };

function stateOf(w: WebhookItem): { key: 'on' | 'off' | 'failing'; tone: ChipTone } {
  if (w.enabled) return { key: 'on', tone: 'positive' };
  return w.disabledReason === 'failing' ? { key: 'failing', tone: 'negative' } : { key: 'off', tone: 'neutral' };
}

/**
 * /configuracion/webhooks (target menu_configuracion; changes take update):
 * the tenant's webhook subscriptions, each with its events, protocols, state
 * (and since when it fails) and last delivery; make, edit (on/off), delete
 * (with confirmation), send a test event, show or rotate the secret. Under
 * the list, the deliveries of the subscription chosen, with their answers,
 * to view and redeliver.
 */
export default function WebhooksPage() {
  const { t } = useTranslation();
  const can = useCan();
  const session = useSession();
  const dialogs = useDialogs();
  const list = useListParams({ sortBy: 'created_at', descending: true });
  const query = useWebhookList(list.params);
  const [editing, setEditing] = useState<WebhookItem | 'new' | null>(null);
  const [chosen, setChosen] = useState<number | null>(null);
  const [shown, setShown] = useState<Shown | null>(null);
  const mayChange = can('menu_configuracion', 'update');
  const when = (d: string) => formatDateTime(d, session.user.timeZone);

  const remove = useDeleteWebhook({ onSuccess: () => showToast(t('webhooks.deleted'), 'success') });
  const test = useSendTestEvent({ onSuccess: (_d, w) => {
    showToast(t('webhooks.testSent'), 'success');
    setChosen(w.id);
  } });
  const rotate = useRotateSecret({ onSuccess: (made) => setShown({ url: made.url, secret: made.secret, previousUntil: made.previousSecretUntil }) });
  const reveal = useRevealSecret({ onSuccess: ({ secret }, w) => setShown({ url: w.url, secret, previousUntil: w.previousSecretUntil }) });

  const items = query.data?.items;
  // The deliveries shown: those of the subscription chosen, else of the first one.
  const selected = items?.find((w) => w.id === chosen) ?? items?.[0];

  const confirmDelete = async (w: WebhookItem) => {
    const confirmed = await dialogs.confirm({ title: t('webhooks.deleteTitle'), message: t('webhooks.confirmDelete', { url: w.url }), confirmText: t('webhooks.delete') });
    if (confirmed) remove.mutate(w);
  };
  const confirmRotate = async (w: WebhookItem) => {
    const confirmed = await dialogs.confirm({ title: t('webhooks.rotateTitle'), message: t('webhooks.confirmRotate', { url: w.url }), confirmText: t('webhooks.rotate') });
    if (confirmed) rotate.mutate(w);
  };

  const columns: Column<WebhookItem>[] = [
    {
      id: 'url',
      label: t('webhooks.url'),
      render: (w) => (
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="body2" sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>
            {w.url}
          </Typography>
          {w.description && (
            <Typography variant="body2" color="text.secondary">
              {w.description}
            </Typography>
          )}
        </Box>
      ),
    },
    { id: 'events', label: t('webhooks.events'), render: (w) => w.events.map((e) => eventLabel(t, e)).join(', ') },
    { id: 'protocols', label: t('webhooks.protocols'), render: (w) => (w.protocols.length ? w.protocols.map((p) => p.name).join(', ') : t('webhooks.allProtocols')) },
    {
      id: 'state',
      label: t('webhooks.state'),
      render: (w) => {
        const s = stateOf(w);
        return (
          <Box sx={{ display: 'grid', gap: 0.5, justifyItems: 'start' }}>
            <StateChip tone={s.tone} label={t(`webhooks.states.${s.key}`)} />
            {w.enabled && w.failingSince && (
              <Typography variant="caption" color="error">
                {t('webhooks.failingSince', { date: when(w.failingSince) })}
              </Typography>
            )}
          </Box>
        );
      },
    },
    {
      id: 'last',
      label: t('webhooks.lastDelivery'),
      render: (w) =>
        w.lastDelivery ? (
          <Box sx={{ display: 'grid', gap: 0.5, justifyItems: 'start' }}>
            <StateChip
              tone={w.lastDelivery.state === 'delivered' ? 'positive' : w.lastDelivery.state === 'failed' ? 'negative' : 'neutral'}
              label={`${t(`webhooks.deliveryStates.${w.lastDelivery.state}`)}${w.lastDelivery.status === null ? '' : ` · ${w.lastDelivery.status}`}`}
            />
            <Typography variant="caption" color="text.secondary">
              {when(w.lastDelivery.at)}
            </Typography>
          </Box>
        ) : (
          t('webhooks.noDeliveries')
        ),
    },
  ];

  const action = (label: string, w: WebhookItem, icon: ReactElement, onClick: () => void, disabled = false) => (
    <Tooltip title={label} describeChild>
      <IconButton aria-label={`${label}: ${w.url}`} onClick={onClick} size="small" disabled={disabled}>
        {icon}
      </IconButton>
    </Tooltip>
  );
  const actions = (w: WebhookItem) => (
    <>
      {action(t('webhooks.showDeliveries'), w, <ListAltOutlined fontSize="small" />, () => setChosen(w.id))}
      {w.actions.includes('test') && action(t('webhooks.sendTest'), w, <SendOutlined fontSize="small" />, () => test.mutate(w), test.isPending)}
      {w.actions.includes('revealSecret') && action(t('webhooks.showSecret'), w, <KeyOutlined fontSize="small" />, () => reveal.mutate(w), reveal.isPending)}
      {w.actions.includes('rotate') && action(t('webhooks.rotate'), w, <AutorenewOutlined fontSize="small" />, () => void confirmRotate(w), rotate.isPending)}
      {w.actions.includes('edit') && action(t('webhooks.edit'), w, <EditOutlined fontSize="small" />, () => setEditing(w))}
      {w.actions.includes('delete') && action(t('webhooks.delete'), w, <DeleteOutlined fontSize="small" />, () => void confirmDelete(w))}
    </>
  );
  const failing = items?.filter((w) => !w.enabled && w.disabledReason === 'failing') ?? [];

  return (
    <>
      <PageHeader title={t('webhooks.title')}>
        {mayChange && (
          <Button variant="contained" startIcon={<Add />} onClick={() => setEditing('new')}>
            {t('webhooks.new')}
          </Button>
        )}
      </PageHeader>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('webhooks.intro')}
      </Typography>
      {failing.map((w) => (
        <Alert key={w.id} severity="warning" sx={{ mb: 2, overflowWrap: 'anywhere' }}>
          <strong>{w.url}</strong>: {t('webhooks.disabledFailing', { date: w.disabledAt ? when(w.disabledAt) : '' })}
        </Alert>
      ))}
      <Paper variant="outlined" sx={{ p: { xs: 1, sm: 2 }, mb: 2 }}>
        <DataTable
          label={t('webhooks.list')}
          columns={columns}
          rows={items}
          total={query.data?.total ?? 0}
          getRowId={(w) => w.id}
          {...tablePaging(list)}
          loading={query.isFetching}
          emptyText={t('webhooks.empty')}
          actions={actions}
        />
        <ListError error={query.error} />
      </Paper>
      {selected && <DeliveriesSection key={selected.id} webhook={selected} />}
      {editing && (
        <WebhookDialog
          webhook={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onMade={(made: WebhookWithSecret) => {
            setChosen(made.id);
            setShown({ url: made.url, secret: made.secret });
          }}
        />
      )}
      {shown && <SecretDialog url={shown.url} secret={shown.secret} previousUntil={shown.previousUntil} onClose={() => setShown(null)} />}
    </>
  );
}
