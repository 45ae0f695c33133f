import CheckOutlined from '@mui/icons-material/CheckOutlined';
import CloseOutlined from '@mui/icons-material/CloseOutlined';
import RestartAltOutlined from '@mui/icons-material/RestartAltOutlined';
import SaveOutlined from '@mui/icons-material/SaveOutlined';
import TimelineOutlined from '@mui/icons-material/TimelineOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { validateForm } from '../../../../core/forms/validator.js';
import { ADHOC_TASK_CODE } from '../../../../core/workflow/adhoc.js';
import { useSession } from '../../app/session/session.js';
import { useDialogs } from '../../components/feedback/FeedbackProvider.js';
import { showToast } from '../../components/feedback/toastStore.js';
import { ActionToolbar, QueryState, Section } from '../../components/page/index.js';
import { PageHeader } from '../../components/PageHeader.js';
import { ApiError, type ApiErrorDetail, errorMessage } from '../../lib/api.js';
import { FormRenderer, type FormRendererHandle } from '../forms/renderer/FormRenderer.js';
import { AssignDialog } from './AssignDialog.js';
import { DocumentDetail } from './DocumentDetail.js';
import { masterValues } from './masterValues.js';
import { RejectDialog, useRejectDestination } from './RejectDialog.js';
import { TaskNext } from './TaskNext.js';
import { TaskNotes } from './TaskNotes.js';
import { TaskStateChip } from './TaskStateChip.js';
import { TaskSummary } from './TaskSummary.js';
import { type TaskDetail, useAcceptTask, useAssignTask, useInvalidateTasks, useRejectTask, useRestartTask, useSaveTaskData, useTask } from './api.js';

/** Errors that mean the page shows an old state of the task: say so and load it again. */
const STALE_CODES = new Set(['STALE_TASK', 'INVALID_TRANSITION', 'CONFLICT', 'CASE_NOT_OPEN']);


/**
 * /tasks/:id: the case and its summary, who is responsible (and changing
 * it), the task's form, where the case goes next, the application's values,
 * and the decisions. Every button follows the `actions` the server lists for
 * this user; the task's version goes with each change, so a page left open
 * while someone else decided gets the server's 409 message and reloads.
 */
export default function TaskPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const session = useSession();
  const dialogs = useDialogs();
  const invalidate = useInvalidateTasks();
  const query = useTask(id);
  const task = query.data;
  // The version sent with a decision is the one shown when it is sent (after its confirmation).
  const shownVersion = useRef(task?.version);
  shownVersion.current = task?.version;
  // The task form (the forms feature's renderer) holds the values; the page reads them when it acts.
  const formRef = useRef<FormRendererHandle>(null);
  const values = () => formRef.current?.getValues() ?? task?.data ?? {};
  const [rejecting, setRejecting] = useState(false);
  const [rejectError, setRejectError] = useState<string | undefined>();
  const [assigning, setAssigning] = useState(false);
  const [assignError, setAssignError] = useState<string | undefined>();
  // An ad-hoc task is outside the protocol: nothing comes after it, and a reject sends nothing back.
  const adhoc = task?.code === ADHOC_TASK_CODE;
  const destination = useRejectDestination(task?.onReject ?? null, adhoc);

  // A new version of the task (loaded, saved, decided by anyone) replaces what the form shows.
  const loadedVersion = task ? `${task.id}:${task.version}` : '';

  const can = (action: TaskDetail['actions'][number]) => task?.actions.includes(action) ?? false;
  const editable = can('save') || can('accept');

  /** Messages under the form's fields; those that name no field are said in a toast. */
  const showFieldErrors = (details: readonly ApiErrorDetail[]) => {
    const unplaced = formRef.current ? formRef.current.setServerErrors(details) : [...details];
    showToast(unplaced.length ? unplaced.map((d) => d.message).join(' ') : t('tasks.form.fix'));
  };

  /** A failed change: fields named by the server go under their fields; a stale page reloads. */
  const failed = async (error: unknown) => {
    if (error instanceof ApiError && error.details.length && (error.code === 'VALIDATION' || error.code === 'UNPROCESSABLE')) {
      showFieldErrors(error.details);
      return;
    }
    showToast(errorMessage(error));
    if (error instanceof ApiError && STALE_CODES.has(error.code)) await invalidate();
  };
  // Each decision's hook refreshes every task view after its success message.
  const done = (message: string) => showToast(message, 'success');

  const save = useSaveTaskData({
    onSuccess: () => done(t('common.saved')),
    onError: failed,
  });
  const accept = useAcceptTask({
    onSuccess: () => done(t('tasks.accepted', { name: task?.name ?? '' })),
    onError: failed,
  });
  const reject = useRejectTask({
    onSuccess: (answer) => {
      setRejecting(false);
      done(adhoc ? t('adhocTasks.rejected') : answer.notEligible ? t('tasks.reject.doneNotEligible') : t('tasks.reject.done'));
    },
    onError: async (error) => {
      if (error instanceof ApiError && error.details.some((d) => d.path === 'reason')) {
        setRejectError(error.details.find((d) => d.path === 'reason')?.message);
        return;
      }
      setRejecting(false);
      await failed(error);
    },
  });
  const restart = useRestartTask({
    onSuccess: () => done(t('tasks.restarted')),
    onError: failed,
  });
  const assign = useAssignTask({
    onSuccess: () => {
      setAssigning(false);
      done(t('tasks.assigned'));
    },
    onError: async (error) => {
      if (error instanceof ApiError && error.details.length) return setAssignError(error.details[0]?.message);
      setAssigning(false);
      await failed(error);
    },
  });

  const confirmAccept = async () => {
    if (!task) return;
    let data: Record<string, unknown> | undefined;
    if (task.form) {
      // The shared validator, as the server's gate will check it.
      const current = values();
      const checked = validateForm(task.form.definition, current, { role: session.user.role, options: masterValues(task.form.definition.fields, current) });
      if (!checked.success) {
        showFieldErrors(checked.issues.map((issue) => ({ path: issue.path, message: t(issue.key, issue.params) })));
        return;
      }
      data = checked.data;
    }
    const next = task.next.map((n) => n.name).join(', ');
    const confirmed = await dialogs.confirm({
      title: t('tasks.acceptTitle'),
      message: adhoc
        ? t('adhocTasks.confirmAccept', { name: task.name })
        : next
          ? t('tasks.confirmAcceptNext', { name: task.name, next })
          : t('tasks.confirmAcceptLast', { name: task.name }),
      confirmText: t('tasks.accept'),
    });
    // `data`: the values the shared validator cleaned (hidden fields left out).
    if (confirmed) accept.mutate({ id, data, version: shownVersion.current });
  };
  const openAssign = () => {
    setAssignError(undefined);
    setAssigning(true);
  };
  const confirmRestart = async () => {
    if (!task) return;
    const confirmed = await dialogs.confirm({
      title: t('tasks.restartTitle'),
      message: t('tasks.confirmRestart', { name: task.name }),
      confirmText: t('tasks.restart'),
    });
    if (confirmed) restart.mutate(id);
  };

  if (query.isError || !task) {
    return (
      <>
        <PageHeader title={t('tasks.taskTitle')} />
        <QueryState query={query} height={240}>
          {() => null}
        </QueryState>
      </>
    );
  }

  const busy = save.isPending || accept.isPending || reject.isPending || restart.isPending;

  return (
    <>
      <PageHeader title={task.name}>
        <TaskStateChip state={task.state} size="medium" />
      </PageHeader>
      <ActionToolbar label={t('tasks.decisions')}>
        {can('accept') && (
          <Button variant="contained" color="success" startIcon={<CheckOutlined />} onClick={() => void confirmAccept()} disabled={busy} loading={accept.isPending}>
            {t('tasks.accept')}
          </Button>
        )}
        {can('reject') && (
          <Button
            variant="outlined"
            color="error"
            startIcon={<CloseOutlined />}
            onClick={() => {
              setRejectError(undefined);
              setRejecting(true);
            }}
            disabled={busy}
          >
            {t('tasks.rejectAction')}
          </Button>
        )}
        {can('save') && task.form && (
          <Button variant="outlined" startIcon={<SaveOutlined />} onClick={() => save.mutate({ id, data: values(), version: task?.version })} disabled={busy} loading={save.isPending}>
            {t('common.save')}
          </Button>
        )}
        {can('restart') && (
          <Button variant="outlined" startIcon={<RestartAltOutlined />} onClick={() => void confirmRestart()} disabled={busy} loading={restart.isPending}>
            {t('tasks.restart')}
          </Button>
        )}
        <Button component={RouterLink} to={`/tasks/case/${task.caseId}`} startIcon={<TimelineOutlined />}>
          {t('tasks.caseTimeline')}
        </Button>
      </ActionToolbar>

      <TaskNotes task={task} adhoc={adhoc} />

      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 2fr) minmax(0, 1fr)' }, alignItems: 'start' }}>
        <Box sx={{ display: 'grid', gap: 2, minWidth: 0 }}>
          <Section title={t('tasks.form.title')} id="task-form">
            {task.form ? (
              <FormRenderer
                key={loadedVersion}
                ref={formRef}
                definition={task.form.definition}
                defaultValues={task.data}
                role={session.user.role}
                readOnly={!editable}
              />
            ) : (
              <Typography color="text.secondary">{t('tasks.form.noForm')}</Typography>
            )}
          </Section>
          <Section title={t('tasks.documentDetail')} id="task-document">
            <DocumentDetail form={task.case.mainForm} data={task.case.data} optionLabels={task.case.optionLabels} />
          </Section>
        </Box>
        {/* On phones the case comes first, then the form. */}
        <Box sx={{ display: 'grid', gap: 2, minWidth: 0, order: { xs: -1, md: 0 } }}>
          <TaskSummary task={task} onAssign={can('assign') ? openAssign : undefined} />
          <TaskNext task={task} adhoc={adhoc} destination={destination} />
        </Box>
      </Box>

      {rejecting && (
        <RejectDialog
          taskName={task.name}
          onReject={task.onReject}
          adhoc={adhoc}
          pending={reject.isPending}
          error={rejectError}
          onSubmit={(reason) => reject.mutate({ id, reason, data: task?.form ? values() : undefined, version: task?.version })}
          onClose={() => setRejecting(false)}
        />
      )}
      {assigning && (
        <AssignDialog
          title={t('tasks.changeResponsible')}
          description={t('tasks.assignDescription', { name: task.name, number: task.case.number ?? task.case.id })}
          pending={assign.isPending}
          error={assignError}
          onSubmit={(target) => assign.mutate({ id, target })}
          onClose={() => setAssigning(false)}
        />
      )}
    </>
  );
}
