import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FormDefinition } from '../../../../../core/forms/definition.js';
import { useSession } from '../../../app/session/session.js';
import { useDialogs } from '../../../components/feedback/FeedbackProvider.js';
import { showToast } from '../../../components/feedback/toastStore.js';
import { ApiError, errorMessage } from '../../../lib/api.js';
import { FormRenderer, type FormRendererHandle, type FormValues } from '../../forms/renderer/FormRenderer.js';
import { loadCase, saveCaseData } from '../api.js';
import { ConflictAlert } from './parts.js';

interface CaseDataEditorProps {
  caseId: number;
  form: FormDefinition;
  formId: number;
  data: FormValues;
  version: number;
  /** Saved (the page loads the case again) or given up. */
  onDone: (saved: boolean) => void;
}

type Problem = { kind: 'stale' } | { kind: 'error'; message: string };

/**
 * Staff correct an open application's data in its own form: the shared
 * validator checks it here and again on the server, and the history records
 * every changed field. Nothing typed is lost on a refusal: a changed field
 * the server refuses is marked, and when someone else saved the application
 * meanwhile the user keeps their values and chooses whose version stays.
 */
export function CaseDataEditor({ caseId, form, formId, data, version, onDone }: CaseDataEditorProps) {
  const { t } = useTranslation();
  const session = useSession();
  const dialogs = useDialogs();
  const formRef = useRef<FormRendererHandle>(null);
  /** The version the next save is based on: the one read, or the newer one the user chose to save over. */
  const versionRef = useRef(version);
  const [problem, setProblem] = useState<Problem | null>(null);

  const save = async (values: FormValues) => {
    setProblem(null);
    try {
      await saveCaseData(caseId, values, versionRef.current);
      showToast(t('caseView.edit.done'), 'success');
      onDone(true);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'STALE_DRAFT') return setProblem({ kind: 'stale' });
      if (error instanceof ApiError && error.code === 'CASE_NOT_OPEN') {
        showToast(errorMessage(error));
        return onDone(true);
      }
      if (error instanceof ApiError && error.code === 'VALIDATION' && error.details.length) {
        const unplaced = formRef.current?.setServerErrors(error.details) ?? [...error.details];
        return setProblem({ kind: 'error', message: unplaced.length ? unplaced.map((d) => d.message).join(' ') : t('tasks.form.fix') });
      }
      setProblem({ kind: 'error', message: errorMessage(error) });
    }
  };

  /** Someone saved meanwhile: save these values over theirs (the history keeps both). */
  const keepMine = async () => {
    try {
      versionRef.current = (await loadCase(caseId)).version;
      setProblem(null);
      await formRef.current?.submit();
    } catch (error) {
      setProblem({ kind: 'error', message: errorMessage(error) });
    }
  };

  const loadTheirs = async () => {
    const confirmed = await dialogs.confirm({
      title: t('caseView.editor.loadSavedTitle'),
      message: t('caseView.edit.loadSavedMessage'),
      confirmText: t('caseView.editor.loadSaved'),
    });
    if (!confirmed) return;
    try {
      const fresh = await loadCase(caseId);
      versionRef.current = fresh.version;
      formRef.current?.reset(fresh.data);
      setProblem(null);
    } catch (error) {
      setProblem({ kind: 'error', message: errorMessage(error) });
    }
  };

  const cancel = async () => {
    const typed = formRef.current?.getValues();
    const changed = typed !== undefined && JSON.stringify(typed) !== JSON.stringify(data);
    if (
      changed &&
      !(await dialogs.confirm({ title: t('caseView.edit.discardTitle'), message: t('caseView.edit.discardMessage'), confirmText: t('caseView.edit.discard') }))
    ) {
      return;
    }
    onDone(false);
  };

  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <Alert
        severity="info"
        role="note"
        action={
          <Button color="inherit" size="small" onClick={() => void cancel()}>
            {t('common.cancel')}
          </Button>
        }
      >
        {t('caseView.edit.note')}
      </Alert>
      {problem?.kind === 'stale' && <ConflictAlert onKeepMine={() => void keepMine()} onLoadSaved={() => void loadTheirs()} />}
      {problem?.kind === 'error' && (
        <Alert severity="error" role="alert" onClose={() => setProblem(null)}>
          <AlertTitle>{problem.message}</AlertTitle>
          {t('caseView.editor.keptInForm')}
        </Alert>
      )}
      <FormRenderer ref={formRef} definition={form} formId={formId} defaultValues={data} role={session.user.role} onSubmit={save} submitLabel={t('caseView.edit.save')} />
    </Box>
  );
}
