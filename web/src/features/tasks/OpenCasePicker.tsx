import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type Ref, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type OpenCaseOption, useOpenCaseOptions } from '../cases/api.js';

export type { OpenCaseOption };

interface OpenCasePickerProps {
  label: string;
  value: OpenCaseOption | null;
  onChange: (value: OpenCaseOption | null) => void;
  error?: string;
  helperText?: string;
  required?: boolean;
  autoFocus?: boolean;
  inputRef?: Ref<HTMLInputElement>;
}

const DEBOUNCE_MS = 250;
const caseLabel = (c: OpenCaseOption) => [c.number ?? `#${c.id}`, c.applicant].filter(Boolean).join(' · ');

/**
 * Picks an open application (state PENDING), searching the server as the
 * user types (application number, applicant's name or document). Someone who
 * may not list applications types the application's ID instead.
 */
export function OpenCasePicker({ label, value, onChange, error, helperText, required, autoFocus, inputRef }: OpenCasePickerProps) {
  const { t } = useTranslation();
  const [input, setInput] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setSearch(input.trim()), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [input]);
  const options = useOpenCaseOptions(search);

  if (options.isError && !options.data) {
    return (
      <TextField
        fullWidth
        margin="normal"
        type="number"
        label={t('adhocTasks.caseIdLabel')}
        required={required}
        autoFocus={autoFocus}
        value={value ? String(value.id) : ''}
        onChange={(event) => {
          const id = Number(event.target.value);
          onChange(Number.isInteger(id) && id > 0 ? { id, number: null, applicant: '', protocolName: '' } : null);
        }}
        inputRef={inputRef}
        error={!!error}
        helperText={error ?? t('adhocTasks.caseIdHint')}
      />
    );
  }

  const list = options.data?.items ?? [];
  const shown = value && !list.some((c) => c.id === value.id) ? [value, ...list] : list;
  return (
    <Autocomplete
      options={shown}
      value={value}
      loading={options.isFetching}
      filterOptions={(x) => x}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      getOptionLabel={caseLabel}
      onChange={(_event, option) => onChange(option)}
      onInputChange={(_event, text, reason) => {
        if (reason === 'input') setInput(text);
        if (reason === 'clear') setInput('');
      }}
      renderOption={({ key, ...props }, option) => (
        <Box component="li" key={key} {...props}>
          <Box sx={{ minWidth: 0 }}>
            <Typography variant="body2" sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>
              {caseLabel(option)}
            </Typography>
            {option.protocolName && (
              <Typography variant="caption" color="text.secondary">
                {option.protocolName}
              </Typography>
            )}
          </Box>
        </Box>
      )}
      noOptionsText={t('adhocTasks.noCases')}
      loadingText={t('common.loading')}
      renderInput={(params) => (
        <TextField
          {...params}
          label={label}
          required={required}
          margin="normal"
          error={!!error}
          helperText={error ?? helperText}
          autoFocus={autoFocus}
          inputRef={inputRef}
        />
      )}
    />
  );
}
