import ExpandLessOutlined from '@mui/icons-material/ExpandLessOutlined';
import ExpandMoreOutlined from '@mui/icons-material/ExpandMoreOutlined';
import ForwardToInboxOutlined from '@mui/icons-material/ForwardToInboxOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Collapse from '@mui/material/Collapse';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isFileRef } from '../tasks/fieldText.js';
import { formatDateTime } from '../../../../core/dates.js';
import { useSession } from '../../app/session/session.js';
import { useDialogs } from '../../components/feedback/FeedbackProvider.js';
import { showToast } from '../../components/feedback/toastStore.js';
import { FactsList, QueryState, Section } from '../../components/page/index.js';
import { StateChip } from '../../components/StateChip.js';
import type { FormDefinition } from '../../../../core/forms/definition.js';
import { DocumentDetail, FileLinks } from '../tasks/DocumentDetail.js';
import { type CaseParty, useCaseParties, useResendInvitation } from './api.js';
import { dayShown, roleTitle, STATE_TONE } from './labels.js';

/**
 * The staff case page's "Parties": each party besides the applicant (role,
 * name, email, where their part stands, deadline, last reminder), what they
 * entered and signed, and "Resend invitation" (a new link; the old one stops
 * working) when the server lists it.
 */
export function CasePartiesPanel({ caseId }: { caseId: number }) {
  const { t } = useTranslation();
  const query = useCaseParties(caseId);
  return (
    <Section title={t('parties.panel.title')}>
      <QueryState
        query={query}
        height={96}
        isEmpty={(data) => data.items.length === 0}
        empty={
          <Typography variant="body2" color="text.secondary">
            {t('parties.panel.empty')}
          </Typography>
        }
      >
        {(data) => (
          <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1.5 }}>
            {data.items.map((party) => (
              <PartyItem key={party.id} caseId={caseId} party={party} />
            ))}
          </Box>
        )}
      </QueryState>
    </Section>
  );
}

function PartyItem({ caseId, party }: { caseId: number; party: CaseParty }) {
  const { t } = useTranslation();
  const tz = useSession().user.timeZone;
  const dialogs = useDialogs();
  const detailsId = useId();
  const [open, setOpen] = useState(false);
  const when = (d: string | null) => (d ? formatDateTime(d, tz) : '—');
  const resend = useResendInvitation(caseId, { onSuccess: () => showToast(t('parties.panel.resent'), 'success') });
  const entered = Object.entries(party.values).filter(([, v]) => v !== null && v !== undefined && v !== '');
  const hasDetails = entered.length > 0 || !!party.signature;

  const askResend = async () => {
    const confirmed = await dialogs.confirm({
      title: t('parties.panel.resendTitle'),
      message: t('parties.panel.resendMessage', { name: party.name, email: party.email }),
      confirmText: t('parties.panel.resend'),
    });
    if (confirmed) resend.mutate(party);
  };

  return (
    <Box component="li" sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5, minWidth: 0 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mb: 1 }}>
        <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600, flexGrow: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
          {roleTitle(t, party.role)}: {party.name}
        </Typography>
        <StateChip tone={STATE_TONE[party.state]} label={t(`parties.state.${party.state}`)} />
      </Box>
      <FactsList
        items={[
          [t('parties.fields.email'), party.email],
          ...(party.phone ? [[t('parties.fields.phone'), party.phone] as [string, string]] : []),
          ...(party.user ? [[t('parties.panel.account'), `${party.user.name} (${party.user.email})`] as [string, string]] : []),
          [t('parties.panel.invited'), when(party.invitedAt)],
          [t('parties.panel.deadline'), when(party.deadlineAt)],
          [t('parties.panel.lastReminder'), when(party.lastRemindedAt)],
          ...(party.submittedAt ? [[t('parties.panel.submitted'), when(party.submittedAt)] as [string, string]] : []),
        ]}
      />
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 1 }}>
        {hasDetails && (
          <Button size="small" aria-expanded={open} aria-controls={detailsId} startIcon={open ? <ExpandLessOutlined /> : <ExpandMoreOutlined />} onClick={() => setOpen((o) => !o)}>
            {t(open ? 'parties.panel.hide' : party.submittedAt ? 'parties.panel.show' : 'parties.panel.showDraft')}
          </Button>
        )}
        {party.actions.includes('resend') && (
          <Button size="small" startIcon={<ForwardToInboxOutlined />} loading={resend.isPending} onClick={() => void askResend()}>
            {t('parties.panel.resend')}
          </Button>
        )}
      </Box>
      {hasDetails && (
        <Collapse in={open} id={detailsId}>
          <Box sx={{ mt: 1, display: 'grid', gap: 1.5 }}>
            {entered.length > 0 &&
              (party.form ? (
                <Box>
                  <Typography variant="subtitle2" sx={{ mb: 0.5 }}>
                    {t('parties.panel.values')}
                  </Typography>
                  <DocumentDetail form={party.form as FormDefinition} data={party.values} />
                </Box>
              ) : (
                <EnteredValues values={entered} />
              ))}
            {party.signature && (
              <Box>
                <Typography variant="subtitle2">{t('parties.panel.signature')}</Typography>
                {party.signature.text && (
                  <Typography component="blockquote" variant="body2" sx={{ m: 0, my: 0.5, pl: 1.5, borderLeft: 3, borderColor: 'divider', whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
                    {party.signature.text}
                  </Typography>
                )}
                <Typography variant="body2">
                  {t('parties.panel.signedBy', { name: party.signature.name, date: dayShown(party.signature.date), at: formatDateTime(party.signature.at, tz) })}
                </Typography>
              </Box>
            )}
          </Box>
        </Collapse>
      )}
    </Box>
  );
}

/** What a party entered without a form of their role (values kept from one removed since), by field name: files as download links. */
function EnteredValues({ values }: { values: Array<[string, unknown]> }) {
  const { t } = useTranslation();
  const text = (v: unknown): string => {
    if (Array.isArray(v)) return v.map(text).join('; ');
    if (v && typeof v === 'object') return Object.entries(v as Record<string, unknown>).map(([k, x]) => `${k}: ${text(x)}`).join(', ');
    if (typeof v === 'boolean') return t(v ? 'tasks.yes' : 'tasks.no');
    return String(v ?? '');
  };
  const isFiles = (v: unknown) => (Array.isArray(v) ? v.length > 0 && v.every(isFileRef) : isFileRef(v));
  return (
    <Box>
      <Typography variant="subtitle2" sx={{ mb: 0.5 }}>
        {t('parties.panel.values')}
      </Typography>
      <FactsList items={values.map(([key, v]) => [key.replace(/_/g, ' '), isFiles(v) ? <FileLinks value={v} /> : text(v)])} />
    </Box>
  );
}
