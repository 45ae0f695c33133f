import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldDef } from '../../../../../../core/forms/definition.js';
import { isEmpty } from '../../../../../../core/forms/expr.js';
import { errorMessage } from '../../../../lib/api.js';
import { type FieldOption, formKeys, useFieldOptionsQuery } from '../../api.js';
import { fieldLabel } from '../../labels.js';
import type { FieldRendererProps } from '../../registry.js';
import { fieldInScope, type ScopeValue, useRenderer, useScope } from '../context.js';
import { useFieldBinding, useScopedValue } from '../hooks.js';

/**
 * The options of a master select or an external list, from the server. A
 * master select whose `type_aux` names a parent field waits for that field
 * and asks for the options under its value.
 */
export function useFieldOptions(field: FieldDef, parent: unknown) {
  const renderer = useRenderer();
  const parentCode = field.type_aux ? (isEmpty(parent) ? undefined : String(parent)) : undefined;
  const waiting = !!field.type_aux && parentCode === undefined;
  const query = useFieldOptionsQuery(
    formKeys.fieldOptions(renderer.optionsKey, field.name, field.master ?? field.external_url ?? '', parentCode ?? null),
    (signal) => renderer.loadOptions(field, parentCode, signal),
    !waiting,
  );
  const { reportOptions } = renderer;
  useEffect(() => {
    if (query.data) reportOptions(field.name, query.data);
  }, [query.data, field.name, reportOptions]);
  return { ...query, waiting };
}

/** Empties a child select when the parent it depends on changes (not when the form first shows). */
function useClearOnParentChange(parent: unknown, clear: () => void) {
  const previous = useRef(parent);
  const clearRef = useRef(clear);
  clearRef.current = clear;
  useEffect(() => {
    if (Object.is(previous.current, parent)) return;
    previous.current = parent;
    clearRef.current();
  }, [parent]);
}

export function MasterSelectWidget({ field, name }: FieldRendererProps) {
  const { t } = useTranslation();
  const scope = useScope();
  const { binding, error, label, help, required, disabled, text } = useFieldBinding(field, name);
  const parent = useScopedValue(field.type_aux);
  const options = useFieldOptions(field, parent);
  useClearOnParentChange(parent, () => {
    if (!isEmpty(binding.value)) binding.onChange('');
  });
  const list = options.data ?? [];
  const value = isEmpty(binding.value) ? null : (list.find((o) => o.value === String(binding.value)) ?? { value: String(binding.value), label: String(binding.value) });
  const parentLabel = field.type_aux ? parentFieldLabel(scope, field.type_aux, text.language) : '';
  const hint = options.waiting ? t('forms.renderer.chooseParentFirst', { parent: parentLabel }) : undefined;
  const loadError = options.isError ? errorMessage(options.error) : undefined;
  return (
    <Autocomplete<FieldOption>
      options={list}
      value={value}
      onChange={(_event, option) => binding.onChange(option?.value ?? '')}
      onBlur={binding.onBlur}
      isOptionEqualToValue={(a, b) => a.value === b.value}
      getOptionLabel={(o) => o.label}
      loading={options.isFetching}
      loadingText={t('common.loading')}
      noOptionsText={t('forms.renderer.noOptions')}
      disabled={disabled || options.waiting}
      renderInput={(params) => (
        <TextField
          {...params}
          name={binding.name}
          inputRef={binding.ref}
          label={label}
          required={required}
          margin="dense"
          error={!!error || !!loadError}
          helperText={error ?? loadError ?? hint ?? help}
          // The hint of a select waiting for its parent must stay readable while the select is disabled.
          slotProps={{ ...params.slotProps, formHelperText: { sx: { '&.Mui-disabled:not(.Mui-error)': { color: 'text.secondary' } } } }}
        />
      )}
    />
  );
}

export function ExternalMultiSelectWidget({ field, name }: FieldRendererProps) {
  const { t } = useTranslation();
  const { binding, error, label, help, required, disabled } = useFieldBinding(field, name);
  const options = useFieldOptions(field, undefined);
  const list = options.data ?? [];
  const chosen = (Array.isArray(binding.value) ? binding.value : []).map(String);
  const value = chosen.map((v) => list.find((o) => o.value === v) ?? { value: v, label: v });
  const loadError = options.isError ? errorMessage(options.error) : undefined;
  return (
    <Autocomplete<FieldOption, true>
      multiple
      options={list}
      value={value}
      onChange={(_event, picked) => binding.onChange(picked.map((o) => o.value))}
      onBlur={binding.onBlur}
      isOptionEqualToValue={(a, b) => a.value === b.value}
      getOptionLabel={(o) => o.label}
      loading={options.isFetching}
      loadingText={t('common.loading')}
      noOptionsText={t('forms.renderer.noOptions')}
      disabled={disabled}
      renderInput={(params) => (
        <TextField
          {...params}
          name={binding.name}
          inputRef={binding.ref}
          label={label}
          required={required}
          margin="dense"
          error={!!error || !!loadError}
          helperText={error ?? loadError ?? help}
        />
      )}
    />
  );
}

/** The label of the field a child select depends on, for 'Choose State first'. */
function parentFieldLabel(scope: ScopeValue, name: string, language: string): string {
  const def = fieldInScope(scope, name);
  return def ? fieldLabel(def, language) : name;
}
