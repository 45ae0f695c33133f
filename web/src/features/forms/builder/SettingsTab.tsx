import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES } from '../../../i18n/index.js';
import type { BuilderState } from './tree.js';

interface SettingsTabProps {
  state: BuilderState;
  /** Messages by setting (name, code, layout, languages, description). */
  errors: Readonly<Record<string, string | undefined>>;
  onSettings: (patch: Partial<BuilderState['settings']>) => void;
  onCode: (code: string) => void;
}

/** The form's own settings: name, code, description, layout and languages. */
export function SettingsTab({ state, errors, onSettings, onCode }: SettingsTabProps) {
  const { t } = useTranslation();
  const layoutId = useId();
  const languagesId = useId();
  const { settings } = state;
  return (
    <Box sx={{ maxWidth: 720 }}>
      <TextField
        fullWidth
        margin="normal"
        required
        label={t('forms.builder.name')}
        value={settings.name}
        onChange={(event) => onSettings({ name: event.target.value })}
        error={!!errors.name}
        helperText={errors.name}
      />
      <TextField
        fullWidth
        margin="normal"
        required
        label={t('forms.builder.code')}
        value={state.code}
        onChange={(event) => onCode(event.target.value.trim().toLowerCase())}
        error={!!errors.code}
        helperText={errors.code ?? t('forms.builder.codeHelp')}
        slotProps={{ htmlInput: { spellCheck: false, autoCapitalize: 'off' } }}
      />
      <TextField
        fullWidth
        margin="normal"
        multiline
        minRows={2}
        label={t('forms.builder.description')}
        value={settings.description}
        onChange={(event) => onSettings({ description: event.target.value })}
        error={!!errors.description}
        helperText={errors.description}
      />
      <FormControl margin="normal" error={!!errors.layout} component="fieldset">
        <FormLabel id={layoutId} component="legend">
          {t('forms.builder.layout')}
        </FormLabel>
        <RadioGroup row aria-labelledby={layoutId} value={settings.layout} onChange={(event) => onSettings({ layout: event.target.value as BuilderState['settings']['layout'] })}>
          <FormControlLabel value="columns" control={<Radio />} label={t('forms.builder.layoutColumns')} />
          <FormControlLabel value="stepper" control={<Radio />} label={t('forms.builder.layoutStepper')} />
        </RadioGroup>
        {errors.layout && <FormHelperText>{errors.layout}</FormHelperText>}
      </FormControl>
      <FormControl margin="normal" error={!!errors.languages} component="fieldset" sx={{ display: 'block' }}>
        <FormLabel id={languagesId} component="legend">
          {t('forms.builder.languages')}
        </FormLabel>
        <FormGroup row aria-labelledby={languagesId}>
          {LANGUAGES.map((language) => (
            <FormControlLabel
              key={language}
              control={
                <Checkbox
                  checked={settings.languages.includes(language)}
                  onChange={(event) =>
                    onSettings({ languages: event.target.checked ? LANGUAGES.filter((l) => l === language || settings.languages.includes(l)) : settings.languages.filter((l) => l !== language) })
                  }
                />
              }
              label={t(`common.languages.${language}`)}
            />
          ))}
        </FormGroup>
        {errors.languages && <FormHelperText>{errors.languages}</FormHelperText>}
      </FormControl>
    </Box>
  );
}
