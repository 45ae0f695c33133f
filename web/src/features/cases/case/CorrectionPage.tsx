import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { correctableFields, fieldLabel } from '../../../../../core/cases/correction.js';
import { formatDateTime } from '../../../../../core/dates.js';
import type { FieldDef, FormDefinition } from '../../../../../core/forms/definition.js';
import { useCan, useSession } from '../../../app/session/session.js';
import { ErrorSummary, type SummaryItem } from '../../../components/feedback/ErrorSummary.js';
import { showToast } from '../../../components/feedback/toastStore.js';
import { QueryState, Section } from '../../../components/page/index.js';
import { PageHeader } from '../../../components/PageHeader.js';
import { ApiError, type ApiErrorDetail, errorMessage } from '../../../lib/api.js';
import { FormRenderer, type FormRendererHandle, type FormValues } from '../../forms/renderer/FormRenderer.js';
import { fileRefs } from '../../forms/renderer/widgets/FileWidget.js';
import { DocumentDetail } from '../../tasks/DocumentDetail.js';
import { type CaseDetail, type Correction, useCase, useInvalidateCase, useResubmitCorrection } from '../api.js';

/** The types a document may be uploaded as when the form has no file field to take them from. */
const DEFAULT_ACCEPT = ['pdf', 'jpg', 'jpeg', 'png'];
const documentField = (index: number) => `correction_document_${index}`;

/**
 * What the applicant edits: the asked fields as the form defines them, then
 * one upload per asked document (a file field of its own, required, taking
 * the types of the form's file field, where the files will be kept).
 */
function correctionDefinition(form: FormDefinition, correction: Correction): Pick<FormDefinition, 'fields' | 'layout'> {
  const correctable = correctableFields(form.fields);
  const asked = correctable.filter((f) => correction.fields.includes(f.name));
  const files = correctable.find((f) => f.type === 'file');
  const documents: FieldDef[] = correction.documents.map((d, i) => ({
    name: documentField(i),
    type: 'file',
    label: d.name,
    label_en: d.name,
    required: true,
    accept: files?.accept?.length ? files.accept : DEFAULT_ACCEPT,
    ...(files?.maxSizeMb ? { maxSizeMb: files.maxSizeMb } : {}),
  }));
  return { fields: [...asked, ...documents], layout: 'columns' };
}

/**
 * /cases/:id/correct: the applicant corrects an application that staff
 * returned. The reason and who asked come first; then only what was asked
 * is editable (the asked fields, an upload per asked document), and the
 * whole application as it was sent is shown read-only below. Sending it
 * checks with the form's validator here and on the server; refusals show
 * beside their fields and in a summary at the top that links to each.
 * Afterwards the page confirms it and leads back to the application.
 */
export default function CorrectionPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const can = useCan();
  const query = useCase(id);
  const [sent, setSent] = useState(false);
  const c = query.data;

  if (query.isError || !c) {
    return (
      <>
        <PageHeader title={t('caseCorrection.page.title')} />
        <QueryState query={query} height={240}>
          {() => null}
        </QueryState>
      </>
    );
  }
  const number = c.number ?? `#${c.id}`;
  const title = t('caseCorrection.page.titleNumber', { number });
  if (sent) return <Sent caseId={c.id} title={title} />;
  if (!c.correction || !c.actions.includes('resubmit') || !can('wf_casos', 'create')) {
    return (
      <>
        <PageHeader title={title} />
        <Alert
          severity="info"
          role="status"
          action={
            <Button color="inherit" component={RouterLink} to={`/cases/${c.id}`}>
              {t('caseCorrection.page.back')}
            </Button>
          }
        >
          {t(c.correction ? 'caseCorrection.page.notYours' : 'caseCorrection.page.nothingOpen')}
        </Alert>
      </>
    );
  }
  return <CorrectionForm c={c} correction={c.correction} title={title} onSent={() => setSent(true)} />;
}

/** The confirmation after sending: focused, so a screen reader says it at once. */
function Sent({ caseId, title }: { caseId: number; title: string }) {
  const { t } = useTranslation();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <>
      <PageHeader title={title} />
      <Alert severity="success" role="status" icon={<CheckCircleOutlined />} sx={{ '& .MuiAlert-message': { minWidth: 0 } }}>
        <AlertTitle ref={heading} component="h2" tabIndex={-1} sx={{ fontSize: '1.1rem', '&:focus': { outline: 'none' } }}>
          {t('caseCorrection.page.sentTitle')}
        </AlertTitle>
        <Typography variant="body2">{t('caseCorrection.page.sentText')}</Typography>
        <Button sx={{ mt: 1.5 }} variant="contained" color="success" component={RouterLink} to={`/cases/${caseId}`}>
          {t('caseCorrection.page.backToApplication')}
        </Button>
      </Alert>
    </>
  );
}

function CorrectionForm({ c, correction, title, onSent }: { c: CaseDetail; correction: Correction; title: string; onSent: () => void }) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? 'en';
  const session = useSession();
  const invalidate = useInvalidateCase();
  const formRef = useRef<FormRendererHandle>(null);
  const [summary, setSummary] = useState<SummaryItem[]>([]);
  const [stale, setStale] = useState(false);
  const form = c.form as FormDefinition;
  const definition = useMemo(() => correctionDefinition(form, correction), [form, correction]);
  const labels = useMemo(() => new Map(definition.fields.map((f) => [f.name, fieldLabel(f, language)])), [definition, language]);

  /** The summary: each field's message (its label first, a link to it), then what names no field. */
  const summarize = (problems: ReadonlyArray<{ path: string; message: string }>, unplaced: readonly ApiErrorDetail[] = []) => {
    const items: SummaryItem[] = problems.map(({ path, message }) => {
      const root = path.split('.')[0] ?? path;
      return { key: path, message: `${labels.get(root) ?? root}: ${message}`, onSelect: () => formRef.current?.focus(path) };
    });
    unplaced.forEach((d, i) => items.push({ key: `server-${i}`, message: d.message }));
    setSummary(items);
  };

  const resubmit = useResubmitCorrection(c.id, {
    onSuccess: () => onSent(),
    onError: async (error) => {
      if (error instanceof ApiError && error.code === 'STALE_DRAFT') return setStale(true);
      if (error instanceof ApiError && error.code === 'VALIDATION' && error.details.length) {
        // The server names asked fields as they are and documents by code: each goes beside its upload.
        const placed = error.details.map((d) => {
          const code = d.path.startsWith('documents.') ? d.path.slice('documents.'.length) : null;
          const index = code === null ? -1 : correction.documents.findIndex((x) => x.code === code);
          return index >= 0 ? { ...d, path: documentField(index) } : d;
        });
        const unplaced = formRef.current?.setServerErrors(placed) ?? placed;
        return summarize(
          placed.filter((d) => !unplaced.includes(d)),
          unplaced,
        );
      }
      showToast(errorMessage(error));
      if (error instanceof ApiError && ['NO_OPEN_CORRECTION', 'CASE_NOT_OPEN', 'NOT_FOUND'].includes(error.code)) await invalidate();
    },
  });

  const send = async (values: FormValues) => {
    setSummary([]);
    setStale(false);
    // Every asked field is sent, an emptied one as null (so that emptying it is a change too).
    const data = Object.fromEntries(correction.fields.map((name) => [name, values[name] ?? null]));
    const documents = correction.documents.map((d, i) => ({ code: d.code, files: fileRefs(values[documentField(i)]) }));
    // Awaited so that the button spins; a refusal is shown by onError.
    await resubmit.mutateAsync({ data, documents, version: c.version }).catch(() => undefined);
  };

  const tz = session.user.timeZone;
  const whyId = useId();
  return (
    <>
      <PageHeader title={title}>
        <Button component={RouterLink} to={`/cases/${c.id}`}>
          {t('caseCorrection.page.back')}
        </Button>
      </PageHeader>

      <Alert severity="warning" role="region" aria-labelledby={whyId} sx={{ mb: 2, '& .MuiAlert-message': { minWidth: 0 } }}>
        <AlertTitle id={whyId} component="h2" sx={{ fontSize: '1rem' }}>
          {t('caseCorrection.page.why')}
        </AlertTitle>
        <Typography variant="body2" sx={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
          {correction.reason}
        </Typography>
        <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 1 }}>
          {correction.requestedBy
            ? t('caseCorrection.notice.askedBy', { name: correction.requestedBy, at: formatDateTime(correction.requestedAt, tz) })
            : formatDateTime(correction.requestedAt, tz)}
        </Typography>
      </Alert>

      <ErrorSummary items={summary} />
      {stale && (
        <Alert
          severity="warning"
          role="alert"
          sx={{ mb: 2 }}
          action={
            <Button color="inherit" size="small" onClick={() => void invalidate().then(() => setStale(false))}>
              {t('caseCorrection.page.reload')}
            </Button>
          }
        >
          {t('caseCorrection.page.stale')}
        </Alert>
      )}

      <Box sx={{ display: 'grid', gap: 2 }}>
        <Section title={t('caseCorrection.page.toCorrect')}>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {t('caseCorrection.page.onlyAsked')}
          </Typography>
          <FormRenderer
            ref={formRef}
            definition={definition}
            formId={c.formId}
            defaultValues={c.data}
            role={session.user.role}
            onSubmit={send}
            onInvalid={(problems) => summarize(problems)}
            submitLabel={t('caseCorrection.page.send')}
          />
        </Section>
        <Section title={t('caseCorrection.page.asSent')}>
          <DocumentDetail form={c.form} data={c.data} optionLabels={c.optionLabels} />
        </Section>
      </Box>
    </>
  );
}
