import AddOutlined from '@mui/icons-material/AddOutlined';
import ArrowForwardOutlined from '@mui/icons-material/ArrowForwardOutlined';
import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { useProjectSettings } from '../../../app/project/projectSettings.js';
import { useSession } from '../../../app/session/session.js';
import { showToast } from '../../../components/feedback/toastStore.js';
import { PageHeader } from '../../../components/PageHeader.js';
import { newCaseUrl, type ProtocolOption, useCase, useInvalidateDrafts, useNewOptions, useOpenDraft } from '../api.js';
import { CaseEditor, type EditorProtocol } from './CaseEditor.js';
import { FactsList, type QueryLike, QueryState } from '../../../components/page/index.js';

/** An application started on this page; `draftId` once its first save made it a draft. */
interface Started {
  key: string;
  protocol: EditorProtocol;
  draftId?: number;
}

function draftParam(value: string | null): number | undefined {
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

/**
 * /cases/new: choose a protocol (when several are published), fill its main
 * form, keep it as a draft or submit it; /cases/new?protocol=ID opens the
 * form of that protocol when it is one the user may start (the public
 * programme page's Apply), the choice otherwise; /cases/new?draft=ID continues a
 * draft in the same editor. The first save of a new application puts its
 * draft in the address (without reloading the form), so a reload or a
 * bookmark continues it.
 */
export default function NewCasePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const invalidateDrafts = useInvalidateDrafts();
  const settings = useProjectSettings();
  const [params, setParams] = useSearchParams();
  const wanted = draftParam(params.get('draft'));
  // The protocol the address names (ids are positive integers, like drafts').
  const named = draftParam(params.get('protocol'));
  const [started, setStarted] = useState<Started | null>(null);
  const [submitted, setSubmitted] = useState<{ id: number; number: string } | null>(null);
  const options = useNewOptions();
  // A draft opened from the address (not the one this page created a moment ago). Once submitted it is gone:
  // the query stops, so the change the submission announces does not ask for it again (a 404 toast).
  const opening = !submitted && wanted !== undefined && started?.draftId !== wanted ? wanted : undefined;
  const draft = useOpenDraft(opening);
  const autosaveSeconds = options.data?.autosaveSeconds ?? settings.autosaveSeconds;

  const startNew = () => {
    setSubmitted(null);
    setStarted(null);
    navigate(newCaseUrl());
  };

  if (submitted) return <Submitted submitted={submitted} onNew={startNew} />;

  const title = wanted ? t('caseView.editor.draftTitle') : t('caseView.editor.newTitle');
  const header = (protocolName?: string) => (
    <PageHeader title={title}>
      {protocolName && (
        <Typography color="text.secondary" sx={{ width: { xs: '100%', sm: 'auto' } }}>
          {t('caseView.editor.protocol', { name: protocolName })}
        </Typography>
      )}
    </PageHeader>
  );

  // The page waits for the protocols it offers and, when the address names a draft, for that draft.
  const draftFailed = opening !== undefined && draft.isError;
  const ready: QueryLike<true> = {
    data: options.data && (opening === undefined || draft.data) ? true : undefined,
    isError: options.isError || draftFailed,
    error: options.isError ? options.error : draft.error,
    refetch: options.isError ? options.refetch : undefined,
  };
  if (ready.data === undefined || ready.isError || !options.data) {
    return (
      <>
        {header()}
        <QueryState
          query={ready}
          height={320}
          retry={options.isError}
          errorAction={
            draftFailed && !options.isError ? (
              <Button color="inherit" component={RouterLink} to="/cases/drafts">
                {t('menu.drafts')}
              </Button>
            ) : undefined
          }
        >
          {() => null}
        </QueryState>
      </>
    );
  }

  // Under maintenance the form is not shown at all (the server refuses to start or send one meanwhile); drafts wait.
  if (options.data.maintenance) {
    return (
      <>
        {header()}
        <Alert severity="warning" sx={{ mb: 2 }}>
          {t('cases.errors.maintenance')}
        </Alert>
      </>
    );
  }

  const open = options.data.open;
  const closedAlert = (
    <Alert severity="error" sx={{ mb: 2 }}>
      {t('cases.errors.applicationsClosed')}
    </Alert>
  );

  // Which editor shows: a draft from the address, the application started here, or the only protocol.
  let editor: { key: string; protocol: EditorProtocol; data: Record<string, unknown>; draft: { id: number; version: number } | null } | null = null;
  if (opening !== undefined && draft.data) {
    const d = draft.data;
    editor = { key: `draft:${d.id}`, protocol: { id: d.protocolId, name: d.protocolName, formId: d.formId, form: d.form }, data: d.data, draft: { id: d.id, version: d.version } };
  } else if (started && started.draftId === wanted) {
    editor = { key: started.key, protocol: started.protocol, data: {}, draft: null };
  } else if (wanted === undefined && (options.data.protocols.length === 1 || options.data.protocols.some((p) => p.id === named))) {
    const only = (options.data.protocols.find((p) => p.id === named) ?? options.data.protocols[0]) as ProtocolOption;
    // A new key once the previous application here became a draft: the page starts afresh.
    editor = { key: `new:${only.id}:${started?.draftId ?? ''}`, protocol: only, data: {}, draft: null };
  }

  if (!editor) {
    if (!open) {
      return (
        <>
          {header()}
          {closedAlert}
        </>
      );
    }
    return (
      <>
        {header()}
        <ProtocolChoice
          protocols={options.data.protocols}
          onChoose={(protocol) => setStarted({ key: `new:${protocol.id}:${Date.now()}`, protocol })}
        />
      </>
    );
  }
  if (!open && !editor.draft && !started?.draftId) {
    return (
      <>
        {header()}
        {closedAlert}
      </>
    );
  }

  const current = editor;
  return (
    <>
      {header(current.protocol.name)}
      {!open && closedAlert}
      <CaseEditor
        key={current.key}
        protocol={current.protocol}
        initialData={current.data}
        draft={current.draft}
        autosaveSeconds={autosaveSeconds}
        onDraftCreated={(id) => {
          setStarted({ key: current.key, protocol: current.protocol, draftId: id });
          setParams({ draft: String(id) }, { replace: true });
          void invalidateDrafts();
        }}
        onSavedForLater={() => {
          showToast(t('caseView.editor.savedForLater'), 'success');
          void invalidateDrafts();
          navigate('/cases/drafts');
        }}
        onSubmitted={(result) => {
          setSubmitted(result);
          setParams({}, { replace: true });
          void invalidateDrafts();
        }}
      />
    </>
  );
}

/** Several protocols are published: the user picks the one to apply under. */
function ProtocolChoice({ protocols, onChoose }: { protocols: ProtocolOption[]; onChoose: (protocol: ProtocolOption) => void }) {
  const { t } = useTranslation();
  if (protocols.length === 0) return <Alert severity="info">{t('caseView.editor.noProtocols')}</Alert>;
  return (
    <>
      <Typography sx={{ mb: 2 }}>{t('caseView.editor.chooseProtocol')}</Typography>
      <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))' } }}>
        {protocols.map((protocol) => (
          <Card component="li" variant="outlined" key={protocol.id} sx={{ display: 'flex', flexDirection: 'column' }}>
            <CardContent sx={{ flexGrow: 1 }}>
              <Typography component="h2" variant="h6" sx={{ overflowWrap: 'anywhere' }}>
                {protocol.name}
              </Typography>
              {protocol.form?.description && (
                <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
                  {protocol.form.description}
                </Typography>
              )}
            </CardContent>
            <CardActions>
              <Button variant="contained" endIcon={<ArrowForwardOutlined />} onClick={() => onChoose(protocol)} aria-label={t('caseView.editor.startWith', { name: protocol.name })}>
                {t('caseView.editor.start')}
              </Button>
            </CardActions>
          </Card>
        ))}
      </Box>
    </>
  );
}

/**
 * After submitting (the GOV.UK confirmation page): the reference number in a
 * panel, what happens next, and the way to the application. The heading
 * takes the focus, so a screen reader starts with the number.
 */
function Submitted({ submitted, onNew }: { submitted: { id: number; number: string }; onNew: () => void }) {
  const { t } = useTranslation();
  const session = useSession();
  const detail = useCase(String(submitted.id));
  const c = detail.data;
  return (
    <>
      <PageHeader title={t('caseView.submitted.title')} />
      <Alert severity="success" icon={<CheckCircleOutlined />} sx={{ mb: 2, '& .MuiAlert-message': { minWidth: 0 } }}>
        <AlertTitle component="h2" sx={{ fontSize: '1.1rem' }}>
          {t('caseView.submitted.number', { number: submitted.number })}
        </AlertTitle>
        <Typography variant="body2" color="text.secondary">
          {t('caseApply.done.reference')}
        </Typography>
        <Typography component="p" sx={{ fontSize: '1.6rem', fontWeight: 700, letterSpacing: 0.5, overflowWrap: 'anywhere', my: 0.5 }}>
          {submitted.number}
        </Typography>
        <Typography variant="body2">{t('caseApply.done.email')}</Typography>
      </Alert>
      {c?.possibleDuplicated && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          <AlertTitle>{t('caseView.possibleDuplicate')}</AlertTitle>
          {t('caseView.submitted.duplicateHint')}
        </Alert>
      )}
      <Card variant="outlined" component="section" aria-labelledby="submitted-next" sx={{ mb: 2 }}>
        <CardContent>
          <Typography id="submitted-next" component="h2" variant="h6" sx={{ mb: 1 }}>
            {t('caseApply.done.nextTitle')}
          </Typography>
          <Box component="ul" sx={{ m: 0, pl: 2.5, display: 'grid', gap: 0.5 }}>
            <li>{t('caseApply.done.next1')}</li>
            <li>{t('caseApply.done.next2')}</li>
            <li>{t('caseApply.done.next3')}</li>
          </Box>
          {c && (
            <Box sx={{ mt: 2 }}>
              <FactsList
                items={[
                  [t('tasks.applicationNumber'), <strong key="n">{submitted.number}</strong>],
                  [t('tasks.protocol'), c.protocolName],
                  [t('caseView.applicant'), c.applicant || '—'],
                ]}
              />
            </Box>
          )}
        </CardContent>
      </Card>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
        {session.targets.includes('wf_casos') ? (
          <Button
            variant="contained"
            component={RouterLink}
            to={`/cases/${submitted.id}`}
            endIcon={<ArrowForwardOutlined />}
            aria-label={t('caseView.submitted.open', { number: submitted.number })}
          >
            {t('caseApply.done.view')}
          </Button>
        ) : null}
        <Button variant="outlined" startIcon={<AddOutlined />} onClick={onNew}>
          {t('caseView.submitted.another')}
        </Button>
        <Link component={RouterLink} to="/cases/drafts" sx={{ alignSelf: 'center', ml: 1 }}>
          {t('caseView.drafts.title')}
        </Link>
      </Box>
    </>
  );
}
