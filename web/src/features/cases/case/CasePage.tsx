import AddTaskOutlined from '@mui/icons-material/AddTaskOutlined';
import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import DoNotDisturbOnOutlined from '@mui/icons-material/DoNotDisturbOnOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import GroupOutlined from '@mui/icons-material/GroupOutlined';
import LockOpenOutlined from '@mui/icons-material/LockOpenOutlined';
import PersonOutlined from '@mui/icons-material/PersonOutlined';
import PlayArrowOutlined from '@mui/icons-material/PlayArrowOutlined';
import WarningAmberOutlined from '@mui/icons-material/WarningAmberOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { formatDate, formatDateTime } from '../../../../../core/dates.js';
import { type FieldDef, type FormDefinition, orderedFields } from '../../../../../core/forms/definition.js';
import type { Target } from '../../../../../core/targets.js';
import { useCan, useSession } from '../../../app/session/session.js';
import { useDialogs } from '../../../components/feedback/FeedbackProvider.js';
import { showToast } from '../../../components/feedback/toastStore.js';
import { PageHeader } from '../../../components/PageHeader.js';
import { ApiError, errorMessage } from '../../../lib/api.js';
import { TaskTimeline } from '../../tasks/CaseTimelinePage.js';
import { DocumentDetail, FileLinks } from '../../tasks/DocumentDetail.js';
import { labelOf } from '../../tasks/fieldText.js';
import { TaskStateChip } from '../../tasks/TaskStateChip.js';
import { useCaseTimeline } from '../../tasks/api.js';
import {
  type CaseDetail,
  type CaseTransition,
  newCaseUrl,
  useCase,
  useCaseTransition,
  useChangeOwner,
  useInvalidateCase,
  useSetParticipants,
  useSimilarCases,
} from '../api.js';
import { CloseDialog } from '../CloseDialog.js';
import { CaseDataEditor } from './CaseDataEditor.js';
import { CaseHistory } from './CaseHistory.js';
import { FactsList, Section } from '../../../components/page/index.js';
import { OwnerDialog, ParticipantsDialog } from './PeopleDialogs.js';

/** The transitions of a case, each guarded by its permission target (spec section 4). */
const TRANSITIONS: Array<{ name: CaseTransition; target: Target; icon: ReactNode; color: 'primary' | 'success' | 'error' }> = [
  { name: 'open', target: 'wf_abrir_caso', icon: <PlayArrowOutlined />, color: 'primary' },
  { name: 'complete', target: 'wf_completar_caso', icon: <CheckCircleOutlined />, color: 'success' },
  { name: 'close', target: 'wf_cerrar_caso', icon: <DoNotDisturbOnOutlined />, color: 'error' },
  { name: 'activate', target: 'wf_activar_caso', icon: <LockOpenOutlined />, color: 'primary' },
];

/** Errors that mean the page shows an old state of the case: it loads again. */
const STALE_CODES = new Set(['INVALID_TRANSITION', 'CONFLICT', 'STALE_DRAFT', 'CASE_NOT_OPEN']);

/**
 * /cases/:id: one application. Its summary, its form's values and
 * documents, its tasks as a timeline, its history and similar applications
 * (each with its own permission target), and the actions open, complete,
 * close and 'Enable again', owner and participants. A button shows only when
 * the server lists the action for this user and state, and the session
 * holds its target; the server decides again.
 */
export default function CasePage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const session = useSession();
  const can = useCan();
  const dialogs = useDialogs();
  const invalidate = useInvalidateCase();
  const query = useCase(id);
  const c = query.data;
  const [dialog, setDialog] = useState<'owner' | 'participants' | 'close' | null>(null);
  const [editing, setEditing] = useState(false);
  const [dialogError, setDialogError] = useState<string | undefined>();
  const showTasks = session.targets.includes('wf_tareas');
  const timeline = useCaseTimeline(id, showTasks && !!c && c.state !== 'DRAFT');

  const failed = async (error: unknown) => {
    showToast(errorMessage(error));
    if (error instanceof ApiError && STALE_CODES.has(error.code)) await invalidate();
  };

  const transition = useCaseTransition(Number(id), {
    onSuccess: (_answer, { name }) => {
      setDialog(null);
      setEditing(false);
      showToast(t(`caseView.actions.${name}.done`), 'success');
    },
    onError: async (error) => {
      setDialog(null);
      await failed(error);
    },
  });

  /** Dialog changes: a message about the choice stays in the dialog, anything else closes it. */
  const dialogFailed = async (error: unknown) => {
    if (error instanceof ApiError && error.details.length) return setDialogError(error.details[0]?.message);
    setDialog(null);
    await failed(error);
  };
  const owner = useChangeOwner(Number(id), {
    onSuccess: () => {
      setDialog(null);
      showToast(t('caseView.owner.done'), 'success');
    },
    onError: dialogFailed,
  });
  const participants = useSetParticipants(Number(id), {
    onSuccess: () => {
      setDialog(null);
      showToast(t('common.saved'), 'success');
    },
    onError: dialogFailed,
  });

  const confirm = async (name: CaseTransition, number: string) => {
    // Closing asks for a reason too (optional), which the history keeps.
    if (name === 'close') return setDialog('close');
    const confirmed = await dialogs.confirm({
      title: t(`caseView.actions.${name}.title`, { number }),
      message: t(`caseView.actions.${name}.message`),
      confirmText: t(`caseView.actions.${name}.label`),
    });
    if (confirmed) transition.mutate({ name });
  };

  const pageTitle = t('caseView.title');
  if (query.isError) {
    return (
      <>
        <PageHeader title={pageTitle} />
        <Alert severity="error">{errorMessage(query.error)}</Alert>
      </>
    );
  }
  if (!c) {
    return (
      <>
        <PageHeader title={pageTitle} />
        <Skeleton variant="rectangular" height={240} aria-label={t('common.loading')} />
      </>
    );
  }

  const number = c.number ?? `#${c.id}`;
  const tz = session.user.timeZone;
  const transitions = TRANSITIONS.filter((a) => c.actions.includes(a.name) && can(a.target, 'confirm'));
  const mayChangeOwner = c.actions.includes('changeOwner') && can('change_owner_case', 'update');
  const mayEditParticipants = c.actions.includes('participants') && can('wf_casos_participantes', 'update');
  const mayEditData = c.actions.includes('editData') && can('wf_casos', 'update');
  const mine = String(c.ownerId) === session.user.uid;
  const busy = transition.isPending;

  return (
    <>
      <PageHeader title={t('caseView.titleNumber', { number })}>
        <TaskStateChip state={c.state} size="medium" />
      </PageHeader>

      {transitions.length > 0 && (
        <Box role="toolbar" aria-label={t('caseView.actions.label')} sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mb: 2 }}>
          {transitions.map((a) => (
            <Button
              key={a.name}
              variant={a.name === 'close' ? 'outlined' : 'contained'}
              color={a.color}
              startIcon={a.icon}
              disabled={busy}
              loading={transition.isPending && transition.variables.name === a.name}
              onClick={() => void confirm(a.name, number)}
            >
              {t(`caseView.actions.${a.name}.label`)}
            </Button>
          ))}
        </Box>
      )}

      {c.state === 'DRAFT' && (
        <Alert
          severity="info"
          sx={{ mb: 2 }}
          action={
            mine && session.targets.includes('borradores') ? (
              <Button color="inherit" component={RouterLink} to={newCaseUrl(c.id)}>
                {t('caseView.drafts.continue')}
              </Button>
            ) : undefined
          }
        >
          {t('caseView.draftNote')}
        </Alert>
      )}
      {c.possibleDuplicated && (
        <Alert severity="warning" icon={<WarningAmberOutlined />} sx={{ mb: 2 }}>
          {t('caseView.possibleDuplicate')}
        </Alert>
      )}

      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 2fr) minmax(0, 1fr)' }, alignItems: 'start' }}>
        <Box sx={{ display: 'grid', gap: 2, minWidth: 0 }}>
          <Section
            title={t('caseView.data')}
            action={
              mayEditData && !editing ? (
                <Button size="small" startIcon={<EditOutlined />} onClick={() => setEditing(true)}>
                  {t('caseView.edit.button')}
                </Button>
              ) : undefined
            }
          >
            {editing && mayEditData && c.form ? (
              <CaseDataEditor
                caseId={c.id}
                form={c.form}
                formId={c.formId}
                data={c.data}
                version={c.version}
                onDone={(saved) => {
                  setEditing(false);
                  if (saved) void invalidate();
                }}
              />
            ) : (
              <DocumentDetail form={c.form} data={c.data} optionLabels={c.optionLabels} />
            )}
          </Section>
          <Documents form={c.form} data={c.data} />
          {showTasks && c.state !== 'DRAFT' && (
            <Section
              title={t('caseView.tasks')}
              action={
                c.state === 'PENDING' && can('wf_tareas', 'create') ? (
                  <Button size="small" startIcon={<AddTaskOutlined />} component={RouterLink} to={`/tareas/nuevo?case=${c.id}`}>
                    {t('adhocTasks.new')}
                  </Button>
                ) : undefined
              }
            >
              {timeline.isError && <Alert severity="error">{errorMessage(timeline.error)}</Alert>}
              {timeline.isPending && <Skeleton variant="rectangular" height={120} aria-label={t('common.loading')} />}
              {timeline.data && timeline.data.tasks.length === 0 && <Typography color="text.secondary">{t('tasks.timeline.empty')}</Typography>}
              {timeline.data && timeline.data.tasks.length > 0 && <TaskTimeline tasks={timeline.data.tasks} headingLevel="h3" />}
            </Section>
          )}
          {c.canSeeHistory && session.targets.includes('historialaplicacion') && (
            <Section title={t('caseView.history.title')}>
              <CaseHistory caseId={id} form={c.form} />
            </Section>
          )}
        </Box>
        {/* On phones the summary comes first. */}
        <Box sx={{ display: 'grid', gap: 2, minWidth: 0, order: { xs: -1, md: 0 } }}>
          <Section title={t('caseView.summary')}>
            <FactsList
              items={[
                [t('tasks.applicationNumber'), number],
                [t('caseView.state'), <TaskStateChip key="s" state={c.state} />],
                [t('tasks.protocol'), c.protocolName],
                [t('caseView.applicant'), c.applicant || '—'],
                [t('tasks.owner'), c.ownerName],
                [t('tasks.docDate'), c.docDate ? formatDate(c.docDate, tz) : '—'],
                [t('caseView.createdAt'), formatDateTime(c.createdAt, tz)],
                [t('caseView.updatedAt'), formatDateTime(c.updatedAt, tz)],
                [t('caseView.openTasks'), String(c.openTasks)],
                [
                  t('tasks.possibleDuplicated'),
                  c.possibleDuplicated ? (
                    <Box component="span" key="d" sx={{ color: 'warning.dark', fontWeight: 600 }}>
                      {t('tasks.yes')}
                    </Box>
                  ) : (
                    t('tasks.no')
                  ),
                ],
              ]}
            />
            {mayChangeOwner && (
              <Button
                sx={{ mt: 1.5 }}
                variant="outlined"
                size="small"
                startIcon={<PersonOutlined />}
                onClick={() => {
                  setDialogError(undefined);
                  setDialog('owner');
                }}
              >
                {t('caseView.owner.title')}
              </Button>
            )}
          </Section>
          <Section
            title={t('caseView.participants.title')}
            action={
              mayEditParticipants ? (
                <Button
                  size="small"
                  startIcon={<EditOutlined />}
                  onClick={() => {
                    setDialogError(undefined);
                    setDialog('participants');
                  }}
                  aria-label={t('caseView.participants.edit')}
                >
                  {t('common.edit')}
                </Button>
              ) : undefined
            }
          >
            {c.participants.length === 0 ? (
              <Typography variant="body2" color="text.secondary">
                {t('caseView.participants.none')}
              </Typography>
            ) : (
              <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 0.5 }}>
                {c.participants.map((p) => (
                  <Box component="li" key={p.id} sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
                    <GroupOutlined fontSize="small" color="action" aria-hidden />
                    <Typography variant="body2">{p.name}</Typography>
                  </Box>
                ))}
              </Box>
            )}
          </Section>
          {c.possibleDuplicated && c.canSeeSimilar && session.targets.includes('aplicacionessimilares') && <Similar caseId={id} />}
        </Box>
      </Box>

      {dialog === 'owner' && (
        <OwnerDialog number={number} current={c.ownerName} pending={owner.isPending} error={dialogError} onSubmit={(userId) => owner.mutate(userId)} onClose={() => setDialog(null)} />
      )}
      {dialog === 'close' && (
        <CloseDialog
          title={t('caseView.actions.close.title', { number })}
          message={t('caseView.actions.close.message')}
          confirmText={t('caseView.actions.close.label')}
          pending={transition.isPending}
          onConfirm={(reason) => transition.mutate({ name: 'close', ...(reason ? { reason } : {}) })}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog === 'participants' && (
        <ParticipantsDialog
          number={number}
          current={c.participants}
          pending={participants.isPending}
          error={dialogError}
          onSubmit={(ids) => participants.mutate(ids)}
          onClose={() => setDialog(null)}
        />
      )}
    </>
  );
}

function rootFileFields(fields: FieldDef[]): FieldDef[] {
  return orderedFields(fields).flatMap((f) => (f.type === 'stepper' || f.type === 'step' ? rootFileFields(f.children ?? []) : f.type === 'file' ? [f] : []));
}

/** The files of the application, field by field (each opens through a short-lived link of the files module). */
function Documents({ form, data }: { form: FormDefinition | null; data: CaseDetail['data'] }) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? 'en';
  // Files inside a repeat group's rows show with their rows in the form data.
  const topLevel = rootFileFields(form?.fields ?? []);
  if (topLevel.length === 0) return null;
  return (
    <Section title={t('caseView.documents')}>
      <Box component="dl" sx={{ m: 0, display: 'grid', gap: 1 }}>
        {topLevel.map((field) => (
          <Box key={field.name}>
            <Typography component="dt" variant="body2" color="text.secondary">
              {labelOf(field, language)}
            </Typography>
            <Box component="dd" sx={{ m: 0, minWidth: 0 }}>
              <FileLinks value={data[field.name]} />
            </Box>
          </Box>
        ))}
      </Box>
    </Section>
  );
}

/** Applications that share this one's identifying fields or name (target aplicacionessimilares). */
function Similar({ caseId }: { caseId: string }) {
  const { t } = useTranslation();
  const session = useSession();
  const similar = useSimilarCases(caseId, true);
  return (
    <Section title={t('caseView.similar.title')}>
      {similar.isError && <Alert severity="error">{errorMessage(similar.error)}</Alert>}
      {similar.isPending && <Skeleton variant="rectangular" height={80} aria-label={t('common.loading')} />}
      {similar.data && similar.data.length === 0 && (
        <Typography variant="body2" color="text.secondary">
          {t('caseView.similar.none')}
        </Typography>
      )}
      {similar.data && similar.data.length > 0 && (
        <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1 }}>
          {similar.data.map((s) => (
            <Box component="li" key={s.id} sx={{ display: 'grid', gap: 0.25 }}>
              <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
                <Link component={RouterLink} to={`/cases/${s.id}`} sx={{ fontWeight: 500, mr: 'auto' }}>
                  {s.number ?? `#${s.id}`}
                </Link>
                <TaskStateChip state={s.state} />
              </Box>
              <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                {[s.applicant, s.docDate ? formatDate(s.docDate, session.user.timeZone) : null].filter(Boolean).join(' · ')}
              </Typography>
            </Box>
          ))}
        </Box>
      )}
    </Section>
  );
}
