import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { IMPORT_MODES, type ImportMode } from '../api.js';

/** How the import treats bad rows: import the valid ones (the rejected come back as a file), or all or nothing. */
export function ImportModeChoice({ mode, onChange, disabled }: { mode: ImportMode; onChange: (mode: ImportMode) => void; disabled?: boolean }) {
  const { t } = useTranslation();
  const labelId = useId();
  return (
    <FormControl component="fieldset" disabled={disabled} sx={{ mt: 1, mb: 1 }}>
      <FormLabel component="legend" id={labelId}>
        {t('caseList.import.mode.label')}
      </FormLabel>
      <RadioGroup aria-labelledby={labelId} value={mode} onChange={(event) => onChange(event.target.value as ImportMode)}>
        {IMPORT_MODES.map((value) => (
          <FormControlLabel key={value} value={value} control={<Radio />} label={t(`caseList.import.mode.${value}`)} />
        ))}
      </RadioGroup>
    </FormControl>
  );
}
