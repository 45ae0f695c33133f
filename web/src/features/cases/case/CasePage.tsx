import EditOutlined from '@mui/icons-material/EditOutlined';
import WarningAmberOutlined from '@mui/icons-material/WarningAmberOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { useCan, useSession } from '../../../app/session/session.js';
import { useDialogs } from '../../../components/feedback/FeedbackProvider.js';
import { showToast } from '../../../components/feedback/toastStore.js';
import { QueryState, Section } from '../../../components/page/index.js';
import { PageHeader } from '../../../components/PageHeader.js';
import { Presence } from '../../../components/Presence.js';
import { useRoom } from '../../../lib/realtime.js';
import { ApiError, type ApiErrorDetail, errorMessage } from '../../../lib/api.js';
import { CommentThread, DocumentChecklist } from '../../comments/index.js';
import { DocumentReview } from '../../review/index.js';
import { DocumentDetail } from '../../tasks/DocumentDetail.js';
import { TaskStateChip } from '../../tasks/TaskStateChip.js';
import {
  type CaseTransition,
  newCaseUrl,
  useCancelCorrection,
  useCase,
  useCaseTransition,
  useChangeOwner,
  useInvalidateCase,
  usePublicTimeline,
  useReturnForCorrection,
  useSetParticipants,
} from '../api.js';
import { CloseDialog } from '../CloseDialog.js';
import { ApplicationStatus, PublicStatusChip } from './ApplicationStatus.js';
import { CaseActions } from './CaseActions.js';
import { CaseDataEditor } from './CaseDataEditor.js';
import { CaseDocuments } from './CaseDocuments.js';
import { CaseHistory } from './CaseHistory.js';
import { CaseSummary } from './CaseSummary.js';
import { CaseTasks } from './CaseTasks.js';
import { CorrectionNotice } from './CorrectionNotice.js';
import { OwnerDialog, ParticipantsDialog } from './PeopleDialogs.js';
import { ReturnForCorrectionDialog } from './ReturnForCorrectionDialog.js';
import { SimilarCases } from './SimilarCases.js';
import { LandingLinkButton } from './LandingLinkButton.js';
import { CasePrintMenu } from '../../printing/CasePrintMenu.js';
import { CasePartiesPanel } from '../../parties/CasePartiesPanel.js';

/** Errors that mean the page shows an old state of the case: it loads again. */
const STALE_CODES = new Set(['INVALID_TRANSITION', 'CONFLICT', 'STALE_DRAFT', 'CASE_NOT_OPEN', 'CORRECTION_OPEN', 'NO_OPEN_CORRECTION']);

/**
 * /cases/:id: one application. Its summary, its form's values and
 * documents, its tasks as a timeline, its history and similar applications
 * (each with its own permission target), and the actions open, complete,
 * close and 'Enable again', owner and participants, and 'Return for
 * correction' (with the open request shown to staff and the applicant, who
 * is led to the correction page). A button shows only when
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
  // Live: who else has the case open; its changes refetch it (app/realtime).
  const room = useRoom(id ? { kind: 'case', id: Number(id) } : null);
  const [dialog, setDialog] = useState<'owner' | 'participants' | 'close' | 'return' | null>(null);
  const [editing, setEditing] = useState(false);
  const [dialogError, setDialogError] = useState<string | undefined>();
  const [returnErrors, setReturnErrors] = useState<readonly ApiErrorDetail[]>([]);
  const showTasks = session.targets.includes('wf_tareas');
  // The applicant's own application (not staff's view): its status in plain words and its public steps.
  const applicantView = !!query.data && String(query.data.ownerId) === session.user.uid && !showTasks && query.data.state !== 'DRAFT';
  const publicView = usePublicTimeline(id, applicantView);

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

  const returnForCorrection = useReturnForCorrection(Number(id), {
    onSuccess: () => {
      setDialog(null);
      showToast(t('caseCorrection.dialog.done'), 'success');
    },
    onError: async (error) => {
      // A refused field or document stays in the dialog beside it; anything else closes it.
      if (error instanceof ApiError && error.code === 'VALIDATION' && error.details.length) return setReturnErrors(error.details);
      setDialog(null);
      await failed(error);
    },
  });
  const cancelCorrection = useCancelCorrection(Number(id), {
    onSuccess: () => showToast(t('caseCorrection.notice.cancelled'), 'success'),
    onError: failed,
  });
  const askCancelCorrection = async () => {
    const confirmed = await dialogs.confirm({
      title: t('caseCorrection.notice.cancelTitle'),
      message: t('caseCorrection.notice.cancelMessage'),
      confirmText: t('caseCorrection.notice.cancel'),
    });
    if (confirmed) cancelCorrection.mutate();
  };

  const openDialog = (name: 'owner' | 'participants') => {
    setDialogError(undefined);
    setDialog(name);
  };

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
  if (query.isError || !c) {
    return (
      <>
        <PageHeader title={pageTitle} />
        <QueryState query={query} height={240}>
          {() => null}
        </QueryState>
      </>
    );
  }

  const number = c.number ?? `#${c.id}`;
  const mayChangeOwner = c.actions.includes('changeOwner') && can('change_owner_case', 'update');
  const mayEditParticipants = c.actions.includes('participants') && can('wf_casos_participantes', 'update');
  const mayEditData = c.actions.includes('editData') && can('wf_casos', 'update');
  const mine = String(c.ownerId) === session.user.uid;
  const busy = transition.isPending;
  const mayResubmit = c.actions.includes('resubmit') && can('wf_casos', 'create');
  const mayCancelCorrection = c.actions.includes('cancelCorrection') && can('wf_casos', 'update');

  return (
    <>
      <PageHeader title={t('caseView.titleNumber', { number })}>
        {applicantView && publicView.data ? <PublicStatusChip status={publicView.data.status} /> : <TaskStateChip state={c.state} size="medium" />}
        {c.correction && <Chip variant="outlined" label={t('caseCorrection.chip')} sx={{ borderColor: 'warning.main' }} />}
        {!applicantView && <CasePrintMenu caseId={c.id} />}
        {!applicantView && <LandingLinkButton caseId={c.id} state={c.state} />}
      </PageHeader>

      <Presence users={room.users} me={Number(session.user.uid)} />
      <CaseActions
        c={c}
        busy={busy}
        pendingName={transition.isPending ? transition.variables.name : undefined}
        onChoose={(name) => void confirm(name, number)}
        onReturn={() => {
          setReturnErrors([]);
          setDialog('return');
        }}
      />

      {c.correction && (
        <CorrectionNotice
          caseId={c.id}
          correction={c.correction}
          form={c.form}
          mayResubmit={mayResubmit}
          onCancel={mayCancelCorrection ? () => void askCancelCorrection() : undefined}
          cancelling={cancelCorrection.isPending}
        />
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

      {/* The applicant reads where their application stands first, on every width. */}
      {applicantView && (
        <Box sx={{ mb: 2 }}>
          <ApplicationStatus caseId={c.id} mayResubmit={mayResubmit} />
        </Box>
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
          <CaseDocuments form={c.form} data={c.data} />
          {showTasks && c.state !== 'DRAFT' && <DocumentReview caseId={c.id} form={c.form} data={c.data} />}
          {showTasks && c.state !== 'DRAFT' && <CaseTasks caseId={id} mayAddTask={c.state === 'PENDING' && can('wf_tareas', 'create')} />}
          {/* The landlord and other parties (issue 23): staff only, as the server allows. */}
          {showTasks && c.state !== 'DRAFT' && <CasePartiesPanel caseId={c.id} />}
          {c.state !== 'DRAFT' && <CommentThread caseId={c.id} />}
          {c.canSeeHistory && session.targets.includes('historialaplicacion') && (
            <Section title={t('caseView.history.title')}>
              <CaseHistory caseId={id} form={c.form} />
            </Section>
          )}
        </Box>
        {/* On phones the summary comes first. */}
        <Box sx={{ display: 'grid', gap: 2, minWidth: 0, order: { xs: -1, md: 0 } }}>
          <CaseSummary
            c={c}
            number={number}
            status={applicantView && publicView.data ? <PublicStatusChip key="s" status={publicView.data.status} size="small" /> : undefined}
            onChangeOwner={mayChangeOwner ? () => openDialog('owner') : undefined}
            onEditParticipants={mayEditParticipants ? () => openDialog('participants') : undefined}
          />
          {c.possibleDuplicated && c.canSeeSimilar && session.targets.includes('aplicacionessimilares') && <SimilarCases caseId={id} />}
          {c.state !== 'DRAFT' && <DocumentChecklist caseId={c.id} />}
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
      {dialog === 'return' && (
        <ReturnForCorrectionDialog
          c={c}
          number={number}
          pending={returnForCorrection.isPending}
          serverErrors={returnErrors}
          onSubmit={(body) => {
            setReturnErrors([]);
            returnForCorrection.mutate(body);
          }}
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


