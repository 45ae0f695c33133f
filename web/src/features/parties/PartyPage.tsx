import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import SaveOutlined from '@mui/icons-material/SaveOutlined';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useMemo, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { formatDate, formatDateTime } from '../../../../core/dates.js';
import type { FormDefinition } from '../../../../core/forms/definition.js';
import { useSession } from '../../app/session/session.js';
import { ErrorSummary, type SummaryItem } from '../../components/feedback/ErrorSummary.js';
import { useDialogs } from '../../components/feedback/FeedbackProvider.js';
import { showToast } from '../../components/feedback/toastStore.js';
import { FactsList, QueryState, Section } from '../../components/page/index.js';
import { PageHeader } from '../../components/PageHeader.js';
import { StateChip } from '../../components/StateChip.js';
import { ApiError, type ApiErrorDetail, errorMessage } from '../../lib/api.js';
import { fieldErrorText } from '../../lib/forms.js';
import { PublicStatusChip, PublicSteps } from '../cases/case/ApplicationStatus.js';
import { FormRenderer, type FormRendererHandle, type FormValues } from '../forms/renderer/FormRenderer.js';
import { DocumentDetail } from '../tasks/DocumentDetail.js';
import { type PartyPage as PartyPageData, usePartyPage, useSavePartyDraft, useSubmitParty } from './api.js';
import { dayShown, inLanguage, roleName, roleTitle, STATE_TONE } from './labels.js';
import { PaymentFields, SideTextField } from './PaymentFields.js';
import { emptySide, paymentOf, type SideField, type SideValues, sideFieldOf, sideResolver } from './sideForm.js';

/**
 * /partes/:id: a party's own side of an application. Who named them and
 * where the application stands (the applicant portal's public steps), their
 * role's form (frozen with the protocol, files uploaded as anywhere else),
 * "Save draft", the programme's attestation (typed full name and date), the
 * payment details when their role is paid, and "Submit", final once
 * confirmed. Afterwards all of it reads back: their answers, the signature
 * and the account masked.
 */
export default function PartyPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const query = usePartyPage(id);
  return (
    <QueryState
      query={query}
      height={320}
      errorAction={
        <Button color="inherit" size="small" component={RouterLink} to="/partes">
          {t('parties.mine.title')}
        </Button>
      }
    >
      {(page) => <PartyContent key={page.id} page={page} />}
    </QueryState>
  );
}

function PartyContent({ page }: { page: PartyPageData }) {
  const { t, i18n } = useTranslation();
  const session = useSession();
  const tz = session.user.timeZone;
  const programme = inLanguage(page.case.programme, i18n.resolvedLanguage);
  const number = page.case.number ?? `#${page.id}`;
  const submitted = page.state === 'submitted';
  const mayWork = page.actions.includes('submit');

  return (
    <>
      <PageHeader title={t('parties.page.title', { number })}>
        <StateChip tone={STATE_TONE[page.state]} label={t(`parties.state.${page.state}`)} />
        <Button component={RouterLink} to="/partes">
          {t('parties.page.back')}
        </Button>
      </PageHeader>
      <Typography sx={{ mb: 2 }}>
        {t('parties.page.intro', { applicant: page.case.applicantFirstName || t('parties.invitation.anApplicant'), role: roleName(t, page.role), programme, entity: page.case.entity.name })}
      </Typography>
      {!submitted && mayWork && page.deadlineAt && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t('parties.page.deadline', { date: formatDateTime(page.deadlineAt, tz) })}
        </Alert>
      )}
      {!submitted && !mayWork && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {t(page.state === 'expired' ? 'parties.page.expired' : 'parties.page.closed')}
        </Alert>
      )}
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 2fr) minmax(0, 1fr)' }, alignItems: 'start' }}>
        <Box sx={{ display: 'grid', gap: 2, minWidth: 0 }}>
          {submitted || !mayWork ? <SubmittedSide page={page} /> : <WorkingSide page={page} />}
        </Box>
        {/* On phones where the application stands comes first. */}
        <Box sx={{ display: 'grid', gap: 2, minWidth: 0, order: { xs: -1, md: 0 } }}>
          <Section title={t('parties.page.timeline')}>
            <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mb: 1.5 }}>
              <Typography component="span" variant="body2" color="text.secondary">
                {t('casePortal.statusLabel')}:
              </Typography>
              <PublicStatusChip status={page.timeline.status} size="small" />
            </Box>
            <FactsList
              items={[
                [t('parties.page.yourRole'), roleTitle(t, page.role)],
                [t('parties.page.programme'), `${programme} · ${page.case.entity.name}`],
                [t('casePortal.submittedOn'), page.timeline.submittedAt ? formatDate(page.timeline.submittedAt, tz) : '—'],
              ]}
            />
            <Box sx={{ mt: 2 }}>
              <PublicSteps events={page.timeline.events} tz={tz} />
            </Box>
          </Section>
        </Box>
      </Box>
    </>
  );
}

/** After submitting (or once it may no longer be changed): what they gave, read back. */
function SubmittedSide({ page }: { page: PartyPageData }) {
  const { t } = useTranslation();
  const tz = useSession().user.timeZone;
  const form = page.form ? (page.form.definition as FormDefinition) : null;
  return (
    <>
      {page.signature && (
        <Alert severity="success" icon={<CheckCircleOutlined />} sx={{ '& .MuiAlert-message': { minWidth: 0 } }}>
          <AlertTitle component="h2" sx={{ fontSize: '1.1rem' }}>
            {t('parties.page.submittedTitle', { date: page.submittedAt ? formatDateTime(page.submittedAt, tz) : '' })}
          </AlertTitle>
          <Typography variant="body2">{t('parties.page.submittedText')}</Typography>
        </Alert>
      )}
      {form && (
        <Section title={t('parties.page.form')}>
          <DocumentDetail form={form} data={page.values} />
        </Section>
      )}
      {page.signature && (
        <Section title={t('parties.page.attestation')}>
          {page.signature.text && (
            <Typography component="blockquote" variant="body2" sx={{ m: 0, mb: 1.5, pl: 2, borderLeft: 3, borderColor: 'divider', whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
              {page.signature.text}
            </Typography>
          )}
          <FactsList
            items={[
              [t('parties.page.signedName'), page.signature.name],
              [t('parties.page.signedDate'), dayShown(page.signature.date)],
              [t('parties.page.signedAt'), formatDateTime(page.signature.at, tz)],
            ]}
          />
        </Section>
      )}
      {page.payment && (
        <Section title={t('parties.page.payment')}>
          <FactsList
            items={[
              [t('parties.page.method'), t(`parties.page.methods.${page.payment.method}`)],
              ...(page.payment.account ? [[t('parties.page.account'), page.payment.account] as [string, string]] : []),
            ]}
          />
        </Section>
      )}
    </>
  );
}

/** The side form's fields in the order the page shows them (the summary lists them so). */
const SIDE_ORDER: readonly SideField[] = [
  'payeeName', 'taxId', 'method', 'routingNumber', 'accountNumber', 'accountConfirm', 'accountType', 'line1', 'line2', 'city', 'state', 'zip',
  'attestationName', 'attestationDate',
];

/** Before submitting: the form, the attestation, the payment details, Save draft and Submit. */
function WorkingSide({ page }: { page: PartyPageData }) {
  const { t, i18n } = useTranslation();
  const session = useSession();
  const dialogs = useDialogs();
  const formRef = useRef<FormRendererHandle>(null);
  const cleaned = useRef<FormValues | null>(null);
  const [summary, setSummary] = useState<SummaryItem[]>([]);
  const definition = useMemo(() => (page.form ? (page.form.definition as FormDefinition) : null), [page.form]);
  const attestation = inLanguage(page.attestation, i18n.resolvedLanguage);
  const side = useForm<SideValues>({
    defaultValues: emptySide(page.name, session.user.timeZone),
    resolver: sideResolver(page.paymentRequired, () => page.email),
    mode: 'onTouched',
  });

  const draft = useSavePartyDraft(page.id, {
    onSuccess: () => {
      formRef.current?.reset(formRef.current.getValues());
      showToast(t('parties.page.draftSaved'), 'success');
    },
    onError: (error) => showToast(errorMessage(error)),
  });

  /** The server's refusal, each message beside its field; the rest above the form. */
  const placeServerErrors = (details: readonly ApiErrorDetail[]) => {
    const items: SummaryItem[] = [];
    const forForm: ApiErrorDetail[] = [];
    for (const d of details) {
      const parts = d.path.split('.');
      const field = parts[0] === 'values' ? null : sideFieldOf(parts);
      if (field) {
        side.setError(field, { type: 'server', message: d.message });
        items.push({ key: d.path, message: d.message, onSelect: () => side.setFocus(field) });
      } else if (parts[0] === 'values' && parts.length > 1) forForm.push({ path: parts.slice(1).join('.'), message: d.message });
      else items.push({ key: d.path || `server-${items.length}`, message: d.message });
    }
    const unplaced = formRef.current?.setServerErrors(forForm) ?? forForm;
    for (const d of forForm) items.push({ key: `values.${d.path}`, message: d.message, onSelect: unplaced.includes(d) ? undefined : () => formRef.current?.focus(d.path) });
    setSummary(items);
  };

  const send = useSubmitParty(page.id, {
    onSuccess: () => showToast(t('parties.page.sent'), 'success'),
    onError: (error) => {
      if (error instanceof ApiError && error.code === 'PARTY_ATTESTATION_NAME') {
        side.setError('attestationName', { type: 'server', message: error.message }, { shouldFocus: true });
        return setSummary([{ key: 'attestationName', message: error.message, onSelect: () => side.setFocus('attestationName') }]);
      }
      if (error instanceof ApiError && error.details.length) return placeServerErrors(error.details);
      setSummary([{ key: 'server', message: errorMessage(error) }]);
    },
  });

  const submit = async () => {
    setSummary([]);
    const sideOk = await side.trigger();
    cleaned.current = definition ? null : {};
    if (definition) await formRef.current?.submit();
    if (!sideOk) {
      const items = SIDE_ORDER.flatMap((field) => {
        const message = fieldErrorText(t, side.getFieldState(field).error);
        return message ? [{ key: field, message, onSelect: () => side.setFocus(field) }] : [];
      });
      setSummary((before) => [...before, ...items]);
      return;
    }
    if (!cleaned.current) return;
    const confirmed = await dialogs.confirm({
      title: t('parties.page.confirmTitle'),
      message: t('parties.page.confirmMessage'),
      confirmText: t('parties.page.confirm'),
    });
    if (!confirmed) return;
    const v = side.getValues();
    send.mutate({
      values: cleaned.current,
      attestation: { name: v.attestationName, date: v.attestationDate },
      payment: page.paymentRequired ? paymentOf(v, page.email) : null,
    });
  };

  return (
    <>
      <ErrorSummary items={summary} />
      <Section title={t('parties.page.form')}>
        {definition ? (
          <FormRenderer
            ref={formRef}
            definition={definition}
            defaultValues={page.values}
            hideSubmit
            onSubmit={(values) => {
              cleaned.current = values;
            }}
            onInvalid={(problems) =>
              setSummary((before) => [
                ...problems.map((p) => ({ key: `values.${p.path}`, message: p.message, onSelect: () => formRef.current?.focus(p.path) })),
                ...before,
              ])
            }
          />
        ) : (
          <Typography variant="body2" color="text.secondary">
            {t('parties.page.noForm')}
          </Typography>
        )}
      </Section>
      {page.paymentRequired && (
        <Section title={t('parties.page.payment')}>
          <PaymentFields control={side.control} />
        </Section>
      )}
      <Section title={t('parties.page.attestation')}>
        <Typography component="blockquote" variant="body2" sx={{ m: 0, mb: 1, pl: 2, borderLeft: 3, borderColor: 'divider', whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
          {attestation || t('parties.page.noAttestation')}
        </Typography>
        <Box sx={{ display: 'grid', gap: { sm: 2 }, gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: '2fr 1fr' } }}>
          <SideTextField control={side.control} name="attestationName" label={t('parties.page.signName')} help={t('parties.page.signNameHelp', { name: page.name })} required autoComplete="name" />
          <SideTextField control={side.control} name="attestationDate" label={t('parties.page.signDate')} type="date" required />
        </Box>
      </Section>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'flex-end', gap: 1 }}>
        {definition && (
          <Button variant="outlined" startIcon={<SaveOutlined />} loading={draft.isPending} onClick={() => draft.mutate(formRef.current?.getValues() ?? {})}>
            {t('parties.page.saveDraft')}
          </Button>
        )}
        <Button variant="contained" size="large" loading={send.isPending} onClick={() => void submit()}>
          {t('parties.page.submit')}
        </Button>
      </Box>
    </>
  );
}
