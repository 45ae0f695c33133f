import SaveOutlined from '@mui/icons-material/SaveOutlined';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldDef, FormDefinition } from '../../../../../core/forms/definition.js';
import { useSession } from '../../../app/session/session.js';
import { ErrorSummary, type SummaryItem } from '../../../components/feedback/ErrorSummary.js';
import { useDialogs } from '../../../components/feedback/FeedbackProvider.js';
import { showToast } from '../../../components/feedback/toastStore.js';
import { ApiError, type ApiErrorDetail, errorMessage } from '../../../lib/api.js';
import { AutosaveStatus } from '../../forms/AutosaveStatus.js';
import { FormRenderer, type FormRendererHandle, type FormValues } from '../../forms/renderer/FormRenderer.js';
import { useAutosave } from '../../forms/useAutosave.js';
import { labelOf } from '../../tasks/fieldText.js';
import { createDraft, loadDraft, saveDraft, submitDraft } from '../api.js';
import { CheckAnswers } from './CheckAnswers.js';
import { ConflictAlert } from './parts.js';

export interface EditorProtocol {
  id: number;
  name: string;
  formId: number;
  form: FormDefinition;
}

interface CaseEditorProps {
  protocol: EditorProtocol;
  /** The values the form starts with (a draft's, or none for a new application). */
  initialData: FormValues;
  /** The draft being continued; a new application has none until its first save. */
  draft: { id: number; version: number } | null;
  autosaveSeconds: number;
  /** The first save of a new application made it a draft. */
  onDraftCreated: (id: number) => void;
  /** 'Save, but come back later to complete' saved it. */
  onSavedForLater: () => void;
  onSubmitted: (submitted: { id: number; number: string }) => void;
}

const isStale = (error: unknown) => error instanceof ApiError && error.code === 'STALE_DRAFT';

/** The form's fields by name, steps and steppers flattened (for the summary's labels). */
function fieldsByName(fields: FieldDef[], into = new Map<string, FieldDef>()): Map<string, FieldDef> {
  for (const field of fields) {
    if (field.type === 'stepper' || field.type === 'step') fieldsByName(field.children ?? [], into);
    else into.set(field.name, field);
  }
  return into;
}

/**
 * The main form of a new application or a draft. Whatever is typed is saved
 * as a draft (autosave every `autosaveSeconds`, on leaving the page, and with
 * 'Save, but come back later to complete'), as typed: only submitting checks
 * it. Problems of a step (Next) or of the whole form (Continue) are summed up
 * above the form, each a link to its field; a valid form leads to "Check your
 * answers" (every answer by step, each with Change), where Submit sends it.
 * The form stays mounted (hidden) meanwhile, so autosave goes on and Change
 * finds every value where it was. A draft changed elsewhere since it was loaded (a second tab) is not
 * overwritten silently: the user keeps what they typed and chooses whether
 * to save it over the other version or load that one.
 */
export function CaseEditor({ protocol, initialData, draft, autosaveSeconds, onDraftCreated, onSavedForLater, onSubmitted }: CaseEditorProps) {
  const { t, i18n } = useTranslation();
  const session = useSession();
  const dialogs = useDialogs();
  const formRef = useRef<FormRendererHandle>(null);
  const draftRef = useRef(draft);
  /** Values read last; the form is gone when the page unmounts, the final save still needs them. */
  const lastValues = useRef<FormValues | null>(null);
  const lastError = useRef<unknown>(null);
  const conflictRef = useRef(false);
  const submittedRef = useRef(false);
  const [conflict, setConflict] = useState(false);
  const [submitError, setSubmitError] = useState<string | null>(null);
  const [savingForLater, setSavingForLater] = useState(false);
  const [summary, setSummary] = useState<SummaryItem[]>([]);
  /** The values the validator accepted, while "Check your answers" shows. */
  const [checking, setChecking] = useState<FormValues | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const language = i18n.resolvedLanguage ?? 'en';
  const fields = useMemo(() => fieldsByName(protocol.form.fields), [protocol.form.fields]);

  /** The summary: each problem under its field's label, a link that opens its step and focuses it. */
  const summarize = (problems: ReadonlyArray<{ path: string; message: string }>, unplaced: readonly ApiErrorDetail[] = []) => {
    const items: SummaryItem[] = problems.map(({ path, message }) => {
      const root = path.split('.')[0] ?? path;
      const field = fields.get(root);
      return { key: path, message: `${field ? labelOf(field, language) : root}: ${message}`, onSelect: () => formRef.current?.focus(path) };
    });
    unplaced.forEach((d, i) => items.push({ key: `server-${i}`, message: d.message }));
    setSummary(items);
  };

  /** Back from "Check your answers" to the form, at a field. */
  const change = (path: string) => {
    setChecking(null);
    formRef.current?.focus(path);
  };

  const readValues = (): FormValues => {
    const values = formRef.current?.getValues();
    if (values) lastValues.current = values;
    return lastValues.current ?? initialData;
  };

  const markConflict = (value: boolean) => {
    conflictRef.current = value;
    setConflict(value);
  };

  /** One write of the draft: created by the first save, then saved with its version. */
  const write = async (values: FormValues, force = false): Promise<void> => {
    if (submittedRef.current) return;
    try {
      // While a conflict is open, saving waits for the user's choice.
      if (conflictRef.current && !force) throw new ApiError(409, 'STALE_DRAFT', t('cases.errors.stale'));
      const current = draftRef.current;
      if (!current) {
        const created = await createDraft(protocol.id, values);
        draftRef.current = { id: created.id, version: created.version };
        onDraftCreated(created.id);
      } else {
        const saved = await saveDraft(current.id, values, force ? undefined : current.version);
        draftRef.current = { id: current.id, version: saved.version };
      }
      lastError.current = null;
      if (force) markConflict(false);
    } catch (error) {
      lastError.current = error;
      if (isStale(error)) markConflict(true);
      throw error;
    }
  };

  const autosave = useAutosave(readValues, (values) => write(values), autosaveSeconds);

  // Leaving the page (another screen of the app) saves what was typed since the last save.
  const flushRef = useRef(autosave.flush);
  flushRef.current = autosave.flush;
  useLayoutEffect(
    () => () => {
      const values = formRef.current?.getValues();
      if (values) lastValues.current = values;
      void flushRef.current();
    },
    [],
  );

  const saveForLater = async () => {
    setSubmitError(null);
    setSavingForLater(true);
    try {
      await autosave.flush();
      // Nothing typed yet: the user still asked for a draft.
      if (!lastError.current && !draftRef.current) await write(readValues()).catch(() => undefined);
      if (lastError.current) {
        if (!isStale(lastError.current)) showToast(errorMessage(lastError.current));
        return;
      }
      onSavedForLater();
    } finally {
      setSavingForLater(false);
    }
  };

  const keepMine = async () => {
    try {
      await write(readValues(), true);
      showToast(t('common.saved'), 'success');
    } catch (error) {
      showToast(errorMessage(error));
    }
  };

  const loadTheirs = async () => {
    const current = draftRef.current;
    if (!current) return;
    const confirmed = await dialogs.confirm({
      title: t('caseView.editor.loadSavedTitle'),
      message: t('caseView.editor.loadSavedMessage'),
      confirmText: t('caseView.editor.loadSaved'),
    });
    if (!confirmed) return;
    try {
      const fresh = await loadDraft(current.id);
      draftRef.current = { id: fresh.id, version: fresh.version };
      formRef.current?.reset(fresh.data);
      lastValues.current = fresh.data;
      lastError.current = null;
      markConflict(false);
    } catch (error) {
      showToast(errorMessage(error));
    }
  };

  /** The form is valid: its answers to check before sending. */
  const check = (cleaned: FormValues) => {
    setSubmitError(null);
    setSummary([]);
    setChecking(cleaned);
    // What the last read holds is what autosave keeps saving while the answers are checked.
    readValues();
  };

  const submit = async (cleaned: FormValues) => {
    setSubmitError(null);
    setSubmitting(true);
    try {
      await send(cleaned);
    } finally {
      setSubmitting(false);
    }
  };

  const send = async (cleaned: FormValues) => {
    // The draft first holds what was typed, so that nothing is lost if submitting is refused.
    await autosave.flush();
    if (lastError.current && !isStale(lastError.current)) {
      setSubmitError(errorMessage(lastError.current));
      return;
    }
    try {
      if (!draftRef.current) await write(readValues());
      const id = draftRef.current?.id;
      if (!id) return;
      const result = await submitDraft(id, cleaned);
      submittedRef.current = true;
      onSubmitted(result);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'VALIDATION' && error.details.length) {
        // Back to the form: each refusal beside its field and in the summary.
        setChecking(null);
        const unplaced = formRef.current?.setServerErrors(error.details) ?? [...error.details];
        summarize(
          error.details.filter((d) => !unplaced.includes(d)),
          unplaced,
        );
        setSubmitError(unplaced.length ? unplaced.map((d) => d.message).join(' ') : t('tasks.form.fix'));
        return;
      }
      setSubmitError(errorMessage(error));
    }
  };

  return (
    <>
      <Paper
        variant="outlined"
        role="toolbar"
        aria-label={t('caseView.editor.toolbar')}
        sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, p: 1.5, mb: 2 }}
      >
        <Button variant="outlined" startIcon={<SaveOutlined />} onClick={() => void saveForLater()} loading={savingForLater}>
          {t('caseView.editor.saveForLater')}
        </Button>
        {/* The status stays mounted: a live region announces changes only once it is in the page. */}
        <Box sx={{ ml: { sm: 'auto' }, display: 'flex', alignItems: 'center' }}>
          {autosave.state.status === 'idle' && (
            <Typography variant="body2" color="text.secondary">
              {autosaveSeconds >= 60
                ? t('caseView.editor.autosaveMinutes', { minutes: Math.round(autosaveSeconds / 60) })
                : t('caseView.editor.autosaveSeconds', { seconds: autosaveSeconds })}
            </Typography>
          )}
          <AutosaveStatus state={autosave.state} />
        </Box>
      </Paper>

      {conflict && <ConflictAlert onKeepMine={() => void keepMine()} onLoadSaved={() => void loadTheirs()} />}

      {submitError && (
        <Alert severity="error" role="alert" sx={{ mb: 2 }} onClose={() => setSubmitError(null)}>
          <AlertTitle>{submitError}</AlertTitle>
          {draftRef.current ? t('caseView.editor.keptAsDraft') : t('caseView.editor.keptInForm')}
        </Alert>
      )}

      {checking && (
        <CheckAnswers
          form={protocol.form}
          values={checking}
          role={session.user.role}
          optionLabels={formRef.current?.optionLabels() ?? {}}
          onChange={change}
          onSubmit={() => void submit(checking)}
          submitting={submitting}
        />
      )}

      {!checking && <ErrorSummary items={summary} />}
      {/* Hidden, not unmounted, while the answers are checked: the values stay and autosave goes on. */}
      <Paper variant="outlined" hidden={checking !== null} sx={{ p: { xs: 1.5, sm: 2 } }}>
        <FormRenderer
          ref={formRef}
          definition={protocol.form}
          formId={protocol.formId}
          defaultValues={initialData}
          role={session.user.role}
          onSubmit={check}
          onInvalid={(problems) => summarize(problems)}
          onStepChange={() => setSummary([])}
          submitLabel={t('caseApply.check.continue')}
        />
      </Paper>
    </>
  );
}
