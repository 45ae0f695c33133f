import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { type Ref, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type UserOption, useUserOptions } from './api.js';

interface UserPickerProps {
  label: string;
  value: UserOption | null;
  onChange: (user: UserOption | null) => void;
  required?: boolean;
  error?: string;
  disabled?: boolean;
  autoFocus?: boolean;
  /** Compact, for a row of filters. */
  size?: 'small' | 'medium';
  margin?: 'none' | 'normal';
  /** The text input, for a form library to focus when the choice is missing. */
  inputRef?: Ref<HTMLInputElement>;
}

const DEBOUNCE_MS = 250;

/**
 * Picks an active user of the tenant, searching the server as the user types
 * (name or email). Someone who may not list users types the user's number.
 */
export function UserPicker({ label, value, onChange, required, error, disabled, autoFocus, size = 'medium', margin = 'normal', inputRef }: UserPickerProps) {
  const { t } = useTranslation();
  const [input, setInput] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setSearch(input), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [input]);
  const options = useUserOptions(search);

  if (options.isError && !options.data) {
    return (
      <TextField
        fullWidth
        margin={margin}
        size={size}
        type="number"
        label={t('teams.userId')}
        required={required}
        disabled={disabled}
        value={value ? String(value.id) : ''}
        onChange={(event) => {
          const id = Number(event.target.value);
          onChange(Number.isInteger(id) && id > 0 ? { id, name: `#${id}`, email: '' } : null);
        }}
        inputRef={inputRef}
        error={!!error}
        helperText={error ?? t('teams.userIdHint')}
      />
    );
  }

  const list = options.data ?? [];
  const shown = value && !list.some((u) => u.id === value.id) ? [value, ...list] : list;
  return (
    <Autocomplete
      size={size}
      options={shown}
      value={value}
      disabled={disabled}
      loading={options.isFetching}
      filterOptions={(x) => x}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      getOptionLabel={(user) => (user.email ? `${user.name} (${user.email})` : user.name)}
      onChange={(_event, user) => onChange(user)}
      onInputChange={(_event, text, reason) => {
        if (reason === 'input') setInput(text);
        if (reason === 'clear') setInput('');
      }}
      noOptionsText={t('teams.noUsers')}
      loadingText={t('common.loading')}
      renderInput={(params) => (
        <TextField {...params} label={label} required={required} margin={margin} error={!!error} helperText={error} autoFocus={autoFocus} inputRef={inputRef} />
      )}
    />
  );
}
