import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { type Ref, useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMasterItemPicker } from './api.js';

interface ParentItemPickerProps {
  /** The parent master's code. */
  master: string;
  label: string;
  /** The chosen item's code, or '' for none. */
  value: string;
  /** The chosen item's name when known (an item being edited), shown before the list loads. */
  valueLabel?: string | null;
  onChange: (code: string) => void;
  required?: boolean;
  error?: string;
  size?: 'small' | 'medium';
  inputRef?: Ref<HTMLInputElement>;
}

type Choice = { code: string; name: string };

/** Picks an item of a parent master, searching the server as the user types (a parent may hold thousands). */
export function ParentItemPicker({ master, label, value, valueLabel, onChange, required, error, size = 'medium', inputRef }: ParentItemPickerProps) {
  const { t } = useTranslation();
  const [input, setInput] = useState('');
  const [term, setTerm] = useState('');
  const search = useDeferredValue(term);
  const query = useMasterItemPicker(master, search);
  const options: Choice[] = (query.data?.items ?? []).map((i) => ({ code: i.code, name: i.name }));
  const selected: Choice | null = value ? (options.find((o) => o.code === value) ?? { code: value, name: valueLabel ?? value }) : null;
  return (
    <Autocomplete<Choice>
      options={selected && !options.some((o) => o.code === selected.code) ? [selected, ...options] : options}
      value={selected}
      onChange={(_event, choice) => onChange(choice?.code ?? '')}
      inputValue={input}
      onInputChange={(_event, text, reason) => {
        setInput(text);
        // Typing searches; picking an option or clearing shows the whole list again.
        setTerm(reason === 'input' ? text : '');
      }}
      filterOptions={(all) => all}
      isOptionEqualToValue={(a, b) => a.code === b.code}
      getOptionLabel={(o) => `${o.name} (${o.code})`}
      loading={query.isFetching}
      loadingText={t('common.loading')}
      noOptionsText={t('forms.renderer.noOptions')}
      size={size}
      renderInput={(params) => (
        <TextField {...params} inputRef={inputRef} label={label} required={required} error={!!error} helperText={error} margin={size === 'small' ? 'none' : 'normal'} />
      )}
    />
  );
}
