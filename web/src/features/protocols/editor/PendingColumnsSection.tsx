import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import type { ProtocolDefinition } from '../../../../../core/workflow/protocol.js';

interface FieldChoice {
  name: string;
  label: string;
}

interface PendingColumnsSectionProps {
  value: ProtocolDefinition['pendingColumns'];
  onChange: (value: ProtocolDefinition['pendingColumns']) => void;
  /** The main form's fields; empty when they cannot be read (names are typed then). */
  fields: readonly FieldChoice[];
}

/** Which main-form fields fill the pending list's flag columns (require income, Section 8, third party). */
export function PendingColumnsSection({ value, onChange, fields }: PendingColumnsSectionProps) {
  const { t } = useTranslation();
  const names = fields.map((f) => f.name);
  const labelOf = (name: string) => {
    const field = fields.find((f) => f.name === name);
    return field && field.label !== name ? `${field.label} (${name})` : name;
  };
  const single = (key: 'section8' | 'thirdParty', label: string, hint: string) => (
    <Autocomplete
      freeSolo
      options={names}
      value={value[key] ?? null}
      getOptionLabel={labelOf}
      onChange={(_event, next) => onChange({ ...value, [key]: next ? String(next).trim() || null : null })}
      onInputChange={(_event, text, reason) => {
        if (reason === 'input') onChange({ ...value, [key]: text.trim() || null });
      }}
      renderInput={(params) => <TextField {...params} margin="dense" label={label} helperText={hint} />}
    />
  );
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr 1fr' }, columnGap: 2 }}>
      <Autocomplete
        multiple
        freeSolo
        options={names}
        value={value.requireIncome}
        getOptionLabel={labelOf}
        onChange={(_event, next) => onChange({ ...value, requireIncome: next.map((x) => String(x).trim()).filter(Boolean).slice(0, 5) })}
        slotProps={{ chip: { size: 'small', sx: { maxWidth: '100%' } } }}
        sx={{ minWidth: 0 }}
        renderInput={(params) => <TextField {...params} margin="dense" label={t('protocols.editor.requireIncome')} helperText={t('protocols.editor.requireIncomeHint')} />}
      />
      {single('section8', t('protocols.editor.section8'), t('protocols.editor.flagHint'))}
      {single('thirdParty', t('protocols.editor.thirdParty'), t('protocols.editor.flagHint'))}
    </Box>
  );
}
