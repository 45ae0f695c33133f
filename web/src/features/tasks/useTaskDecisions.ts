import { type RefObject, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { validateForm } from '../../../../core/forms/validator.js';
import { useSession } from '../../app/session/session.js';
import { useDialogs } from '../../components/feedback/FeedbackProvider.js';
import { showToast } from '../../components/feedback/toastStore.js';
import { ApiError, type ApiErrorDetail, errorMessage } from '../../lib/api.js';
import type { FormRendererHandle } from '../forms/renderer/FormRenderer.js';
import type { AwardPanelHandle } from '../payments/AwardPanel.js';
import type { AssignTarget } from './AssignDialog.js';
import { type TaskDetail, useAcceptTask, useAssignTask, useInvalidateTasks, useRejectTask, useRestartTask, useSaveTaskData } from './api.js';
import { masterValues } from './masterValues.js';

/** Errors that mean the page shows an old state of the task: say so and load it again. */
const STALE_CODES = new Set(['STALE_TASK', 'INVALID_TRANSITION', 'CONFLICT', 'CASE_NOT_OPEN']);

/** A dialog of the task page: whether it is open, the message it shows under its field, and how it opens and closes. */
export interface DecisionDialog {
  open: boolean;
  error: string | undefined;
  show: () => void;
  close: () => void;
}

function useDecisionDialog(): DecisionDialog & { setError: (error: string | undefined) => void } {
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | undefined>();
  return {
    open,
    error,
    setError,
    show: () => {
      setError(undefined);
      setOpen(true);
    },
    close: () => setOpen(false),
  };
}

/**
 * The decisions of the task page (save, accept, reject, restart, change the
 * responsible): their mutations, confirmations and dialogs. The form's values
 * are read from `formRef` when the user acts; fields the server (or the
 * shared validator) names get their message under the field, other messages
 * a toast, and a stale page loads the task again.
 */
export function useTaskDecisions(
  id: string,
  task: TaskDetail | undefined,
  adhoc: boolean,
  formRef: RefObject<FormRendererHandle | null>,
  /** The award panel, on the task that sets the award (`task.award`): Accept sends its award. */
  awardRef?: RefObject<AwardPanelHandle | null>,
) {
  const { t } = useTranslation();
  const session = useSession();
  const dialogs = useDialogs();
  const invalidate = useInvalidateTasks();
  // The version sent with a decision is the one shown when it is sent (after its confirmation).
  const shownVersion = useRef(task?.version);
  shownVersion.current = task?.version;
  const values = () => formRef.current?.getValues() ?? task?.data ?? {};
  const rejecting = useDecisionDialog();
  const assigning = useDecisionDialog();

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
    onSuccess: () => {
      // What was saved is the form's starting point now: the version the save made replaces the page's.
      formRef.current?.reset(formRef.current.getValues());
      done(t('common.saved'));
    },
    onError: failed,
  });
  const accept = useAcceptTask({
    onSuccess: () => done(t('tasks.accepted', { name: task?.name ?? '' })),
    onError: failed,
  });
  const reject = useRejectTask({
    onSuccess: (answer) => {
      rejecting.close();
      done(adhoc ? t('adhocTasks.rejected') : answer.notEligible ? t('tasks.reject.doneNotEligible') : t('tasks.reject.done'));
    },
    onError: async (error) => {
      if (error instanceof ApiError && error.details.some((d) => d.path === 'reason')) {
        rejecting.setError(error.details.find((d) => d.path === 'reason')?.message);
        return;
      }
      rejecting.close();
      await failed(error);
    },
  });
  const restart = useRestartTask({
    onSuccess: () => done(t('tasks.restarted')),
    onError: failed,
  });
  const assign = useAssignTask({
    onSuccess: () => {
      assigning.close();
      done(t('tasks.assigned'));
    },
    onError: async (error) => {
      if (error instanceof ApiError && error.details.length) return assigning.setError(error.details[0]?.message);
      assigning.close();
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
    // Issue 23: the task that sets the award sends it; the panel says what is wrong (fields, caps) and keeps it back.
    let award: ReturnType<AwardPanelHandle['check']> | undefined;
    if (task.award) {
      award = awardRef?.current ? awardRef.current.check() : null;
      if (!award) {
        if (!awardRef?.current) showToast(t('payments.award.notReady'));
        return;
      }
    }
    const next = task.next.map((n) => n.name).join(', ');
    const message = adhoc
      ? t('adhocTasks.confirmAccept', { name: task.name })
      : next
        ? t('tasks.confirmAcceptNext', { name: task.name, next })
        : t('tasks.confirmAcceptLast', { name: task.name });
    const confirmed = await dialogs.confirm({
      title: t('tasks.acceptTitle'),
      message: award ? `${message} ${award.summary}` : message,
      confirmText: t('tasks.accept'),
    });
    // `data`: the values the shared validator cleaned (hidden fields left out).
    if (confirmed) accept.mutate({ id, data, version: shownVersion.current, award: award?.award });
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

  return {
    /** A decision is under way: every decision button waits. */
    busy: save.isPending || accept.isPending || reject.isPending || restart.isPending,
    pending: { save: save.isPending, accept: accept.isPending, reject: reject.isPending, restart: restart.isPending, assign: assign.isPending },
    accept: () => void confirmAccept(),
    restart: () => void confirmRestart(),
    save: () => save.mutate({ id, data: values(), version: task?.version }),
    rejecting,
    reject: (reason: string) => reject.mutate({ id, reason, data: task?.form ? values() : undefined, version: task?.version }),
    assigning,
    assign: (target: AssignTarget) => assign.mutate({ id, target }),
  };
}

export type TaskDecisions = ReturnType<typeof useTaskDecisions>;
