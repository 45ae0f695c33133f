import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type FieldDef, type FormDefinition, scopeFieldsDeep } from '../../../../../core/forms/definition.js';
import { ApiError, errorMessage } from '../../../lib/api.js';
import { AutosaveStatus } from '../AutosaveStatus.js';
import { fetchFieldOptions, fetchMasterOptions, useCheckFormValues } from '../api.js';
import type { OptionsLoader } from '../renderer/context.js';
import { FormRenderer, type FormRendererHandle, type FormValues } from '../renderer/FormRenderer.js';
import { useAutosave } from '../useAutosave.js';

/** The preview keeps its values in this tab's storage: cheap, so it saves often. */
const PREVIEW_AUTOSAVE_SECONDS = 5;

export const previewStorageKey = (formId: number | undefined) => `forms.preview.${formId ?? 'new'}`;

function readPreview(key: string): FormValues | undefined {
  try {
    const text = sessionStorage.getItem(key);
    const values = text ? (JSON.parse(text) as unknown) : undefined;
    return values && typeof values === 'object' && !Array.isArray(values) ? (values as FormValues) : undefined;
  } catch {
    return undefined;
  }
}

interface ViewTabProps {
  definition: FormDefinition;
  /** The saved form, when there is one. */
  formId?: number;
  /** The definition the server has (its options endpoint and its check use it). */
  saved?: FormDefinition;
  /** The definition on screen differs from the saved one. */
  dirty: boolean;
  role?: string;
}

const sameSource = (a: FieldDef | undefined, b: FieldDef) =>
  !!a && a.type === b.type && a.master === b.master && a.external_url === b.external_url && a.type_aux === b.type_aux;

/**
 * The View tab: the form as a user will fill it, from the definition on
 * screen (saved or not), validated by the shared validator as they type;
 * 'Check with the server' sends the values to the saved form's gate and
 * shows its messages under the same fields.
 */
export function ViewTab({ definition, formId, saved, dirty, role }: ViewTabProps) {
  const { t } = useTranslation();
  const renderer = useRef<FormRendererHandle | null>(null);
  const storageKey = previewStorageKey(formId);
  const [generation, setGeneration] = useState(0);
  const [initial, setInitial] = useState(() => readPreview(storageKey));
  const [outcome, setOutcome] = useState<{ severity: 'success' | 'error'; text: string; details?: string[] } | null>(null);
  const lastValues = useRef<FormValues>(initial ?? {});

  const getValues = () => {
    lastValues.current = renderer.current?.getValues() ?? lastValues.current;
    return lastValues.current;
  };
  const autosave = useAutosave(getValues, (values) => sessionStorage.setItem(storageKey, JSON.stringify(values)), PREVIEW_AUTOSAVE_SECONDS);
  const { flush } = autosave;
  // Leaving the tab keeps what was typed (layout cleanup: the form is still there to read).
  useLayoutEffect(() => () => void flush(), [flush]);

  const savedFields = useMemo(() => new Map(scopeFieldsDeep(saved?.fields ?? []).map((f) => [f.name, f])), [saved]);
  const loadOptions = useMemo<OptionsLoader>(
    () => (field, parent, signal) => {
      if (formId !== undefined && sameSource(savedFields.get(field.name), field)) return fetchFieldOptions(formId, field.name, parent, signal);
      if (field.type === 'master_select' && field.master) return fetchMasterOptions(field.master, parent, signal);
      return Promise.reject(new ApiError(422, 'UNPROCESSABLE', t('forms.renderer.saveToLoadOptions')));
    },
    [formId, savedFields, t],
  );

  const check = useCheckFormValues(formId, {
    onSuccess: () => setOutcome({ severity: 'success', text: t('forms.builder.checkOk') }),
    onError: (error) => {
      if (error instanceof ApiError && error.details.length) {
        const unplaced = renderer.current?.setServerErrors(error.details) ?? [];
        setOutcome({ severity: 'error', text: t('forms.builder.checkFailed'), details: unplaced.map((d) => `${d.path}: ${d.message}`) });
      } else {
        setOutcome({ severity: 'error', text: errorMessage(error) });
      }
    },
  });
  const canCheck = formId !== undefined && !dirty;

  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
        <Typography variant="body2" color="text.secondary" sx={{ flex: '1 1 240px' }}>
          {t('forms.builder.previewNote')}
        </Typography>
        <AutosaveStatus state={autosave.state} />
        <Button
          onClick={() => {
            sessionStorage.removeItem(storageKey);
            lastValues.current = {};
            setInitial(undefined);
            setOutcome(null);
            setGeneration((g) => g + 1);
          }}
        >
          {t('forms.builder.clearPreview')}
        </Button>
        <Button variant="outlined" disabled={!canCheck} loading={check.isPending} onClick={() => check.mutate(renderer.current?.getValues() ?? {})}>
          {t('forms.builder.checkServer')}
        </Button>
      </Box>
      {!canCheck && <Alert severity="info">{t('forms.builder.checkSaveFirst')}</Alert>}
      {outcome && (
        <Alert severity={outcome.severity} onClose={() => setOutcome(null)}>
          {outcome.text}
          {outcome.details?.map((d) => (
            <div key={d}>{d}</div>
          ))}
        </Alert>
      )}
      <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 3 } }}>
        <Typography component="h2" variant="h6" sx={{ mb: 1, overflowWrap: 'anywhere' }}>
          {definition.name || t('forms.builder.untitled')}
        </Typography>
        {definition.description && (
          <Typography color="text.secondary" sx={{ mb: 2 }}>
            {definition.description}
          </Typography>
        )}
        <FormRenderer
          key={generation}
          ref={renderer}
          definition={definition}
          formId={formId}
          defaultValues={initial}
          role={role}
          loadOptions={loadOptions}
          submitLabel={t('forms.builder.previewSubmit')}
          onSubmit={() => setOutcome({ severity: 'success', text: t('forms.builder.previewValid') })}
        />
      </Paper>
    </Box>
  );
}
