import SendOutlined from '@mui/icons-material/SendOutlined';
import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MAIL_STATES, type MailState } from '../../../../core/api/mail.js';
import { formatDateTime } from '../../../../core/dates.js';
import { useCan, useSession } from '../../app/session/session.js';
import { useDialogs } from '../../components/feedback/FeedbackProvider.js';
import { showToast } from '../../components/feedback/toastStore.js';
import { DateFilterField } from '../../components/form/DateFilterField.js';
import { FactsList, FilterBar, FilterSelect, filterFieldSx, InfoDialog, QueryState } from '../../components/page/index.js';
import { PageHeader } from '../../components/PageHeader.js';
import { type ChipTone, StateChip } from '../../components/StateChip.js';
import { type Column, DataTable } from '../../components/table/DataTable.js';
import { ListError } from '../../components/table/ListError.js';
import { tablePaging, useListParams } from '../../components/table/listParams.js';
import { SearchField } from '../../components/table/SearchField.js';
import { type OutboxFilter, type OutboxItem, useOutboxList, useOutboxMessage, useResendMessage } from './api.js';

const TONES: Record<MailState, ChipTone> = { queued: 'neutral', sent: 'positive', failed: 'negative', kept: 'neutral' };
const NO_FILTER: OutboxFilter = { state: '', recipient: '', case: '', from: '', to: '' };

/** A message's state as a chip; a failed one says why under it. */
function MailStateCell({ message }: { message: OutboxItem }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: 'grid', gap: 0.5, justifyItems: 'start' }}>
      <StateChip tone={TONES[message.state]} label={t(`outbox.states.${message.state}`)} />
      {message.state === 'failed' && message.lastError && (
        <Typography variant="caption" color="error" sx={{ overflowWrap: 'anywhere' }}>
          {t('outbox.failedBecause', { reason: message.lastError })}
        </Typography>
      )}
    </Box>
  );
}

/** One message with its plain-text body (the HTML part is never rendered). */
function MessageDialog({ id, onClose, onResend }: { id: number; onClose: () => void; onResend: (m: OutboxItem) => void }) {
  const { t } = useTranslation();
  const session = useSession();
  const query = useOutboxMessage(id);
  return (
    <InfoDialog title={query.data?.subject ?? t('outbox.detailTitle')} onClose={onClose} maxWidth="md">
      <QueryState query={query}>
        {(m) => (
          <Box sx={{ display: 'grid', gap: 2 }}>
            <FactsList
              items={[
                [t('outbox.recipient'), m.to],
                [t('outbox.state'), <MailStateCell key="state" message={m} />],
                [t('outbox.attempts'), String(m.attempts)],
                [t('outbox.event'), m.event ? t(`templates.events.${m.event}`, { defaultValue: m.event }) : '—'],
                [t('outbox.caseLink'), m.caseNumber ?? (m.caseId ? `#${m.caseId}` : '—')],
                [t('outbox.created'), formatDateTime(m.createdAt, session.user.timeZone)],
                [t('outbox.sent'), m.sentAt ? formatDateTime(m.sentAt, session.user.timeZone) : '—'],
              ]}
            />
            <Box>
              <Typography variant="subtitle2" component="h3" gutterBottom>
                {t('outbox.body')}
              </Typography>
              <Box component="pre" sx={{ m: 0, p: 1.5, bgcolor: 'action.hover', borderRadius: 1, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', fontFamily: 'inherit', fontSize: '0.875rem' }}>
                {m.bodyText}
              </Box>
            </Box>
            {m.actions.includes('resend') && (
              <Box>
                <Button variant="outlined" startIcon={<SendOutlined />} onClick={() => onResend(m)}>
                  {t('outbox.resend')}
                </Button>
              </Box>
            )}
          </Box>
        )}
      </QueryState>
    </InfoDialog>
  );
}

/**
 * /configuracion/correos (target reenviarcorreos): every message the
 * application sent or tried to send, newest first, filtered by state,
 * recipient, case and days; a failed one shows why and may be resent
 * (with confirmation). The list asks again every 10 s while a message is
 * queued, so a resend is seen to arrive.
 */
export default function OutboxPage() {
  const { t } = useTranslation();
  const can = useCan();
  const session = useSession();
  const dialogs = useDialogs();
  const list = useListParams({ sortBy: 'created_at', descending: true });
  const [filter, setFilter] = useState<OutboxFilter>(NO_FILTER);
  const [viewing, setViewing] = useState<number | null>(null);
  // Clear empties the text filters too: they start again.
  const [cleared, setCleared] = useState(0);
  const query = useOutboxList(list.params, filter);
  const resend = useResendMessage({ onSuccess: () => showToast(t('outbox.resent'), 'success') });
  const narrowing = Object.values(filter).filter(Boolean).length;

  const change = (next: Partial<OutboxFilter>) => {
    setFilter((f) => ({ ...f, ...next }));
    list.setPage(0);
  };

  const confirmResend = async (message: OutboxItem) => {
    const confirmed = await dialogs.confirm({
      title: t('outbox.resendTitle'),
      message: t('outbox.confirmResend', { subject: message.subject, to: message.to }),
      confirmText: t('outbox.resend'),
    });
    if (confirmed) resend.mutate(message);
  };

  const noSmtp = can('reenviarcorreos', 'update') && !!query.data?.items.some((m) => m.state === 'kept' && !m.actions.includes('resend'));

  const columns: Column<OutboxItem>[] = [
    { id: 'created', label: t('outbox.created'), sortKey: 'created_at', noWrap: true, render: (m) => formatDateTime(m.createdAt, session.user.timeZone) },
    { id: 'to', label: t('outbox.recipient'), sortKey: 'to_address', render: (m) => <Box sx={{ overflowWrap: 'anywhere' }}>{m.to}</Box> },
    {
      id: 'subject',
      label: t('outbox.subject'),
      render: (m) => (
        <Box>
          <Typography variant="body2">{m.subject}</Typography>
          {m.caseNumber && (
            <Typography variant="caption" color="text.secondary">
              {t('outbox.caseLink')} {m.caseNumber}
            </Typography>
          )}
        </Box>
      ),
    },
    { id: 'state', label: t('outbox.state'), sortKey: 'status', render: (m) => <MailStateCell message={m} /> },
    { id: 'attempts', label: t('outbox.attempts'), align: 'right', render: (m) => m.attempts },
    { id: 'sent', label: t('outbox.sent'), sortKey: 'sent_at', noWrap: true, render: (m) => (m.sentAt ? formatDateTime(m.sentAt, session.user.timeZone) : '—') },
  ];

  const actions = (m: OutboxItem) => (
    <>
      <Tooltip title={t('outbox.view')} describeChild>
        <IconButton aria-label={`${t('outbox.view')}: ${m.subject}`} onClick={() => setViewing(m.id)} size="small">
          <VisibilityOutlined fontSize="small" />
        </IconButton>
      </Tooltip>
      {m.actions.includes('resend') && (
        <Tooltip title={t('outbox.resend')} describeChild>
          <IconButton aria-label={`${t('outbox.resend')}: ${m.subject}`} onClick={() => void confirmResend(m)} size="small" disabled={resend.isPending}>
            <SendOutlined fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
    </>
  );

  return (
    <>
      <PageHeader title={t('outbox.title')} />
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('outbox.intro')}
      </Typography>
      {noSmtp && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t('outbox.noSmtp')}
        </Alert>
      )}
      <Paper variant="outlined" sx={{ p: { xs: 1, sm: 2 } }}>
        <FilterBar
          search={<SearchField onSearch={list.setSearch} label={t('outbox.search')} />}
          narrowing={narrowing}
          clearable={narrowing > 0}
          onClear={() => {
            change(NO_FILTER);
            setCleared((n) => n + 1);
          }}
        >
          <FilterSelect
            label={t('outbox.state')}
            value={filter.state}
            allLabel={t('outbox.allStates')}
            options={MAIL_STATES.map((value) => ({ value, label: t(`outbox.states.${value}`) }))}
            onChange={(state) => change({ state })}
          />
          <Box sx={filterFieldSx}>
            <SearchField key={`recipient-${cleared}`} label={t('outbox.recipient')} defaultValue={filter.recipient} onSearch={(recipient) => recipient !== filter.recipient && change({ recipient: recipient.trim() })} />
          </Box>
          <Box sx={filterFieldSx}>
            <SearchField key={`case-${cleared}`} label={t('outbox.case')} defaultValue={filter.case} onSearch={(c) => c.trim() !== filter.case && change({ case: c.trim() })} />
          </Box>
          <DateFilterField label={t('outbox.from')} value={filter.from} onChange={(from) => change({ from })} max={filter.to || undefined} sx={filterFieldSx} />
          <DateFilterField label={t('outbox.to')} value={filter.to} onChange={(to) => change({ to })} min={filter.from || undefined} sx={filterFieldSx} />
        </FilterBar>
        <DataTable
          label={t('outbox.title')}
          columns={columns}
          rows={query.data?.items}
          total={query.data?.total ?? 0}
          getRowId={(m) => m.id}
          {...tablePaging(list)}
          loading={query.isFetching}
          emptyText={list.params.search || narrowing ? t('dataTable.noMatches') : t('outbox.empty')}
          actions={actions}
        />
        <ListError error={query.error} />
      </Paper>
      {viewing !== null && (
        <MessageDialog
          id={viewing}
          onClose={() => setViewing(null)}
          onResend={(m) => {
            setViewing(null);
            void confirmResend(m);
          }}
        />
      )}
    </>
  );
}
