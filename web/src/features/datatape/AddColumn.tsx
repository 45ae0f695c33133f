import Autocomplete, { createFilterOptions } from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AvailableColumn, TapeColumn } from './api.js';
import { headerIn, type Lang, missingColumns } from './columnsDraft.js';

interface AddColumnProps {
  inputId: string;
  columns: readonly TapeColumn[];
  available: readonly AvailableColumn[];
  lang: Lang;
  onAdd: (column: AvailableColumn) => void;
}

/**
 * "Add a column": the form's columns not in the tape yet, the application's
 * own first, then the form's fields; typing narrows them by name or key. A
 * field of a repeat group says it becomes one column per row. The chosen
 * column goes to the end of the list and the box empties for the next one.
 */
export function AddColumn({ inputId, columns, available, lang, onAdd }: AddColumnProps) {
  const { t } = useTranslation();
  const [input, setInput] = useState('');
  const options = useMemo(() => missingColumns(columns, available), [columns, available]);
  const filter = useMemo(() => createFilterOptions<AvailableColumn>({ stringify: (o) => `${headerIn(o, lang)} ${o.source}` }), [lang]);

  if (options.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
        {t('dataTape.columns.allIn')}
      </Typography>
    );
  }
  return (
    <Autocomplete<AvailableColumn, false, false, false>
      id={inputId}
      sx={{ mt: 2, maxWidth: { sm: 560 } }}
      options={options}
      value={null}
      inputValue={input}
      onInputChange={(_event, value, reason) => setInput(reason === 'reset' ? '' : value)}
      onChange={(_event, chosen) => {
        if (!chosen) return;
        onAdd(chosen);
        setInput('');
      }}
      filterOptions={filter}
      groupBy={(o) => t(o.kind === 'case' ? 'dataTape.columns.groups.case' : 'dataTape.columns.groups.field')}
      getOptionLabel={(o) => headerIn(o, lang)}
      isOptionEqualToValue={(a, b) => a.source === b.source}
      noOptionsText={t('dataTape.columns.noOptions')}
      renderOption={({ key, ...props }, o) => {
        return (
          <Box component="li" key={key} {...props} sx={{ display: 'block !important' }}>
            <Typography variant="body2">{headerIn(o, lang)}</Typography>
            <Typography variant="caption" color="text.secondary" component="p" sx={{ overflowWrap: 'anywhere' }}>
              {o.source.replace(/^(case|field):/, '')}
              {o.repeat && ` · ${t('dataTape.columns.numberedShort')}`}
            </Typography>
          </Box>
        );
      }}
      renderInput={(params) => <TextField {...params} label={t('dataTape.columns.add')} helperText={t('dataTape.columns.addHelp', { count: options.length })} />}
    />
  );
}
