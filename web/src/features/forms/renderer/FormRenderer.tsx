import { zodResolver } from '@hookform/resolvers/zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { type Ref, useCallback, useImperativeHandle, useMemo, useRef, useState } from 'react';
import { type FieldErrors, type FieldValues, FormProvider, get, type Resolver, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { type FieldDef, type FormDefinition, orderedFields, scopeFieldsDeep } from '../../../../../core/forms/definition.js';
import { formValuesSchema, type ValidatorContext } from '../../../../../core/forms/validator.js';
import { useDialogs } from '../../../components/feedback/FeedbackProvider.js';
import type { ApiErrorDetail } from '../../../lib/api.js';
import i18n from '../../../i18n/index.js';
import { fetchFieldOptions, fetchMasterOptions, uploadFile } from '../api.js';
import { initialValues, safeFields, scopeValueFields } from './conditions.js';
import { type OptionsLoader, type PendingRow, RendererContext, type RendererContextValue, ScopeContext, type ScopeValue, useRenderer } from './context.js';
import { FieldList } from './FieldList.js';
import { errorPaths, errorText, useRetranslateErrors } from './hooks.js';
import { visibleSteps } from './widgets/StepperWidget.js';

export type FormValues = Record<string, unknown>;

/** What a page may do with a rendered form. */
export interface FormRendererHandle {
  /** The values as typed (drafts keep these; the validator cleans them on submit). */
  getValues: () => FormValues;
  /** Shows the server's messages under the fields they name; returns those that name no field. */
  setServerErrors: (details: readonly ApiErrorDetail[]) => ApiErrorDetail[];
  /** Validates and, when valid, calls onSubmit with the cleaned values. */
  submit: () => Promise<void>;
  reset: (values?: FormValues) => void;
  /** Whether the user changed anything since the form was loaded or last reset. */
  isDirty: () => boolean;
  /** Moves the focus to a field, opening its step (a link of an error summary). */
  focus: (path: string) => void;
  /** The labels of master and external options seen so far, by field and value (a summary of the answers shows them). */
  optionLabels: () => Record<string, Record<string, string>>;
}

export interface FormRendererProps {
  definition: Pick<FormDefinition, 'fields'> & Partial<Pick<FormDefinition, 'layout'>>;
  /** The saved form, for the options of master selects and external lists. */
  formId?: number | string;
  defaultValues?: FormValues;
  /** The user's role code, for conditions that use `role`. */
  role?: string;
  readOnly?: boolean;
  /** Receives the values the validator cleaned (hidden fields left out). */
  onSubmit?: (values: FormValues) => void | Promise<void>;
  /** A submit the validator refused, with every message by field path (the fields show them; a page may sum them up). */
  onInvalid?: (problems: Array<{ path: string; message: string }>) => void;
  /** A stepper moved to another step (Next found the steps it left valid, or Back): a page may clear its summary. */
  onStepChange?: () => void;
  submitLabel?: string;
  /** The page draws its own buttons and calls the handle's submit() (a party's side: the form, then the signature). */
  hideSubmit?: boolean;
  /** Where options come from; by default the saved form's options endpoint. */
  loadOptions?: OptionsLoader;
  /** Where files go; by default the files module. */
  upload?: RendererContextValue['upload'];
  ref?: Ref<FormRendererHandle>;
}

/** Option fields the validator cannot check from the definition: the values their lists offered so far. */
function optionValues(fields: FieldDef[], values: FormValues, seen: ReadonlyMap<string, ReadonlySet<string>>): ValidatorContext['options'] {
  const out: NonNullable<ValidatorContext['options']> = {};
  for (const field of scopeFieldsDeep(fields)) {
    if (field.type !== 'master_select' && field.type !== 'select_multiple_external') continue;
    const known = seen.get(field.name);
    if (known) out[field.name] = [...known];
    // Before its list has loaded (a saved draft), a master select's value is taken on trust; the server checks it.
    else if (field.type === 'master_select') out[field.name] = valuesNamed(values, field.name);
  }
  return out;
}

function valuesNamed(values: unknown, name: string): string[] {
  if (Array.isArray(values)) return values.flatMap((v) => valuesNamed(v, name));
  if (!values || typeof values !== 'object') return [];
  return Object.entries(values).flatMap(([key, value]) =>
    key === name && (typeof value === 'string' || typeof value === 'number') ? [String(value)] : valuesNamed(value, name),
  );
}

/**
 * Renders any form definition with MUI and checks it with the shared
 * validator (core/forms) through react-hook-form: a field's message shows
 * once it is left and on submit, hidden fields are neither shown nor
 * checked, steppers step, repeat groups edit rows in a dialog.
 */
export function FormRenderer(props: FormRendererProps) {
  const { definition, formId, role, readOnly = false, onSubmit, submitLabel, ref } = props;
  const { t } = useTranslation();
  const dialogs = useDialogs();
  const fields = useMemo(() => safeFields(definition.fields), [definition.fields]);
  const rootFields = useMemo(() => new Map(scopeValueFields(fields).map((f) => [f.name, f])), [fields]);

  // The resolver reads these through refs: a definition edited in the builder validates at once.
  const fieldsRef = useRef(fields);
  fieldsRef.current = fields;
  const roleRef = useRef(role);
  roleRef.current = role;
  const seenOptions = useRef(new Map<string, Set<string>>());
  const seenLabels = useRef<Record<string, Record<string, string>>>({});
  // Read through refs: goToStep is memoised, and a page passes new callbacks each render.
  const onInvalidRef = useRef(props.onInvalid);
  onInvalidRef.current = props.onInvalid;
  const onStepChangeRef = useRef(props.onStepChange);
  onStepChangeRef.current = props.onStepChange;

  const validatorContext = useCallback(
    (values: FormValues): ValidatorContext => ({
      role: roleRef.current,
      options: optionValues(fieldsRef.current, values, seenOptions.current),
      translate: (key, params) => i18n.t(key, params),
    }),
    [],
  );
  const resolver = useCallback<Resolver<FieldValues>>(
    (values, context, options) =>
      zodResolver(formValuesSchema({ fields: fieldsRef.current }, validatorContext(values)))(values, context, options) as ReturnType<Resolver<FieldValues>>,
    [validatorContext],
  );
  const form = useForm<FieldValues>({
    defaultValues: initialValues(fields, props.defaultValues),
    resolver,
    mode: 'onTouched',
    shouldFocusError: false,
  });
  useRetranslateErrors(form);

  const [steps, setSteps] = useState<Record<string, number>>({});
  const pending = useRef(new Map<string, PendingRow>());

  const registerPending = useCallback((id: string, row: PendingRow | null) => {
    if (row) pending.current.set(id, row);
    else pending.current.delete(id);
  }, []);

  const confirmPending = useCallback(async () => {
    const rows = [...pending.current.values()];
    const first = rows[0];
    if (!first) return true;
    const confirmed = await dialogs.confirm({
      title: t('forms.renderer.unaddedTitle'),
      message: t(first.editing ? 'forms.renderer.unsavedRowMessage' : 'forms.renderer.unaddedMessage', { group: first.group }),
      confirmText: t('forms.renderer.continueWithoutAdding'),
      cancelText: t('forms.renderer.keepEditing'),
    });
    if (confirmed) for (const row of rows) row.discard();
    return confirmed;
  }, [dialogs, t]);

  const setStep = useCallback((stepper: string, index: number) => setSteps((current) => ({ ...current, [stepper]: index })), []);

  const { trigger, getValues, setFocus, getFieldState } = form;
  const goToStep = useCallback(
    async (stepper: FieldDef, list: FieldDef[], from: number, to: number) => {
      if (to < 0 || to >= list.length) return;
      if (to > from) {
        if (!(await confirmPending())) return;
        for (let index = from; index < to; index++) {
          const names = scopeValueFields(list[index]?.children ?? []).map((f) => f.name);
          if (names.length && !(await trigger(names, { shouldFocus: true }))) {
            setStep(stepper.name, index);
            // The step's problems, for a summary above the form (each field shows its own message too).
            const errors = Object.fromEntries(names.map((name) => [name, getFieldState(name).error]).filter(([, error]) => error));
            onInvalidRef.current?.(errorPaths(errors).map((path) => ({ path, message: errorText(get(errors, path)) ?? '' })));
            return;
          }
        }
      }
      setStep(stepper.name, to);
      onStepChangeRef.current?.();
    },
    [confirmPending, setStep, trigger, getFieldState],
  );

  /** Opens the step that holds the first field in error and puts the focus on it. */
  const revealFirstError = useCallback(
    (errors: FieldErrors) => {
      const values = getValues();
      for (const field of orderedFields(fieldsRef.current)) {
        if (field.type === 'stepper') {
          const list = visibleSteps(field, values, roleRef.current);
          for (const [index, step] of list.entries()) {
            const name = orderedScope(step.children ?? []).find((n) => get(errors, n));
            if (name) {
              setStep(field.name, index);
              setTimeout(() => setFocus(name), 0);
              return;
            }
          }
        } else if (get(errors, field.name)) {
          setTimeout(() => setFocus(field.name), 0);
          return;
        }
      }
    },
    [getValues, setFocus, setStep],
  );

  // Files still uploading when the form is sent: it waits for them (a file field's value is set once its upload ends),
  // rather than checking the form without them and refusing a required file the person has just chosen.
  const uploading = useRef(new Set<Promise<unknown>>());
  const { upload: givenUpload } = props;
  const upload = useCallback<RendererContextValue['upload']>(
    (file, onProgress) => {
      const started = (givenUpload ?? uploadFile)(file, onProgress);
      uploading.current.add(started);
      const done = () => void uploading.current.delete(started);
      started.then(done, done);
      return started;
    },
    [givenUpload],
  );

  const { onInvalid } = props;
  const submit = useCallback(async () => {
    while (uploading.current.size > 0) {
      await Promise.allSettled([...uploading.current]);
      // The file fields take their values in their own continuation of the same upload.
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    if (!(await confirmPending())) return;
    await form.handleSubmit(
      async (values) => {
        await onSubmit?.(values);
      },
      (errors) => {
        revealFirstError(errors);
        onInvalid?.(errorPaths(errors).map((path) => ({ path, message: errorText(get(errors, path)) ?? '' })));
      },
    )();
  }, [confirmPending, form, onSubmit, onInvalid, revealFirstError]);

  useImperativeHandle(
    ref,
    () => ({
      getValues: () => form.getValues(),
      isDirty: () => form.formState.isDirty,
      setServerErrors: (details) => {
        const unplaced: ApiErrorDetail[] = [];
        for (const detail of details) {
          if (rootFields.has(detail.path.split('.')[0] ?? '')) form.setError(detail.path, { type: 'server', message: detail.message });
          else unplaced.push(detail);
        }
        revealFirstError(form.formState.errors);
        return unplaced;
      },
      submit,
      reset: (values) => form.reset(initialValues(fieldsRef.current, values)),
      // The field's root (a repeat group for one of its rows' fields) is what the form can focus.
      focus: (path) => revealFirstError({ [path.split('.')[0] ?? path]: { type: 'focus' } } as FieldErrors),
      optionLabels: () => seenLabels.current,
    }),
    [form, revealFirstError, rootFields, submit],
  );

  const reportOptions = useCallback((field: string, options: ReadonlyArray<{ value: string; label: string }>) => {
    const known = seenOptions.current.get(field) ?? new Set<string>();
    const labels = (seenLabels.current[field] ??= {});
    for (const option of options) {
      known.add(option.value);
      labels[option.value] = option.label;
    }
    seenOptions.current.set(field, known);
  }, []);

  const loadOptions = useMemo<OptionsLoader>(
    () =>
      props.loadOptions ??
      ((field, parent, signal) => {
        if (formId !== undefined) return fetchFieldOptions(formId, field.name, parent, signal);
        if (field.type === 'master_select' && field.master) return fetchMasterOptions(field.master, parent, signal);
        return Promise.resolve([]);
      }),
    [props.loadOptions, formId],
  );

  const context = useMemo<RendererContextValue>(
    () => ({
      role,
      readOnly,
      columns: (definition.layout ?? 'columns') === 'columns',
      optionsKey: formId !== undefined ? `form:${formId}` : 'preview',
      loadOptions,
      reportOptions,
      upload,
      activeStep: (stepper) => steps[stepper] ?? 0,
      setActiveStep: setStep,
      goToStep,
      getRootValues: () => getValues(),
      validatorContext,
      registerPending,
      confirmPending,
    }),
    [role, readOnly, definition.layout, formId, loadOptions, reportOptions, upload, steps, setStep, goToStep, getValues, validatorContext, registerPending, confirmPending],
  );
  const scope = useMemo<ScopeValue>(() => ({ control: form.control, fields: rootFields, parent: null }), [form.control, rootFields]);

  return (
    <RendererContext value={context}>
      <FormProvider {...form}>
        <ScopeContext value={scope}>
          <Box
            component="form"
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              void submit();
            }}
          >
            <FieldList fields={fields} />
            {onSubmit && !readOnly && !props.hideSubmit && <SubmitBar fields={fields} label={submitLabel ?? t('common.save')} busy={form.formState.isSubmitting} />}
          </Box>
        </ScopeContext>
      </FormProvider>
    </RendererContext>
  );
}

/** Names of a scope in display order, steps flattened. */
function orderedScope(fields: FieldDef[]): string[] {
  return orderedFields(fields).flatMap((f) =>
    f.type === 'stepper' || f.type === 'step' ? orderedScope(f.children ?? []) : f.type === 'static' ? [] : [f.name],
  );
}

/** The submit button, once every stepper of the form is on its last step. */
function SubmitBar({ fields, label, busy }: { fields: FieldDef[]; label: string; busy: boolean }) {
  const values = useWatch() as FormValues;
  const renderer = useRenderer();
  const steppers = fields.filter((f) => f.type === 'stepper');
  const onLastStep = steppers.every((stepper) => {
    const count = visibleSteps(stepper, values, renderer.role).length;
    return count === 0 || renderer.activeStep(stepper.name) >= count - 1;
  });
  if (!onLastStep) return null;
  return (
    <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 2 }}>
      <Button type="submit" variant="contained" loading={busy}>
        {label}
      </Button>
    </Box>
  );
}
