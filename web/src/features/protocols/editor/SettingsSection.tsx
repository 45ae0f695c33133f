import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { Section } from '../../../components/page/index.js';
import { CASE_TYPES, type CaseType } from '../api.js';
import type { SortedProblems } from './problems.js';
import type { Draft } from './protocolDraft.js';

interface SettingsSectionProps {
  draft: Draft;
  update: (patch: Partial<Draft>) => void;
  /** The server's problems with each setting, shown under its field. */
  problems: SortedProblems['settings'];
  /** The forms to choose from; null when the user may not list them (the form is then given by id). */
  forms: ReadonlyArray<{ id: number; name: string }> | null;
  /** The saved main form's name, for a form the list does not hold. */
  mainFormName?: string | null;
}

/** A protocol's settings: code, name, description, case type, main form, public. */
export function SettingsSection({ draft, update, problems, forms, mainFormName }: SettingsSectionProps) {
  const { t } = useTranslation();
  return (
    <Section title={t('protocols.editor.settings')} id="protocol-settings">
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 2fr' }, columnGap: 2 }}>
        <TextField
          margin="dense"
          label={t('protocols.code')}
          required
          value={draft.code}
          onChange={(event) => update({ code: event.target.value })}
          error={!!problems.code}
          helperText={problems.code ?? t('protocols.editor.codeHint')}
          slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: 'monospace' } } }}
        />
        <TextField
          margin="dense"
          label={t('protocols.name')}
          required
          value={draft.name}
          onChange={(event) => update({ name: event.target.value })}
          error={!!problems.name}
          helperText={problems.name}
        />
      </Box>
      <TextField
        fullWidth
        margin="dense"
        label={t('protocols.editor.nameEn')}
        value={draft.nameEn}
        onChange={(event) => update({ nameEn: event.target.value })}
        error={!!problems.nameEn}
        helperText={problems.nameEn ?? t('protocols.editor.nameEnHint')}
      />
      <TextField
        fullWidth
        multiline
        minRows={2}
        margin="dense"
        label={t('protocols.description')}
        value={draft.description}
        onChange={(event) => update({ description: event.target.value })}
        error={!!problems.description}
        helperText={problems.description}
      />
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr auto' }, columnGap: 2, alignItems: 'center' }}>
        <TextField
          select
          margin="dense"
          label={t('protocols.caseType')}
          value={draft.caseType}
          onChange={(event) => update({ caseType: event.target.value as CaseType })}
          error={!!problems.caseType}
          helperText={problems.caseType}
        >
          {CASE_TYPES.map((type) => (
            <MenuItem key={type} value={type}>
              {t(`protocols.caseTypes.${type}`)}
            </MenuItem>
          ))}
        </TextField>
        {forms ? (
          <TextField
            select
            margin="dense"
            label={t('protocols.mainForm')}
            required
            value={draft.mainFormId === null ? '' : String(draft.mainFormId)}
            onChange={(event) => update({ mainFormId: Number(event.target.value) })}
            error={!!problems.mainFormId}
            helperText={problems.mainFormId}
          >
            {forms.map((form) => (
              <MenuItem key={form.id} value={String(form.id)}>
                {form.name}
              </MenuItem>
            ))}
            {draft.mainFormId !== null && !forms.some((f) => f.id === draft.mainFormId) && (
              <MenuItem value={String(draft.mainFormId)}>{mainFormName ?? `#${draft.mainFormId}`}</MenuItem>
            )}
          </TextField>
        ) : (
          <TextField
            margin="dense"
            type="number"
            label={t('protocols.editor.mainFormId')}
            required
            value={draft.mainFormId === null ? '' : String(draft.mainFormId)}
            onChange={(event) => update({ mainFormId: event.target.value ? Number(event.target.value) : null })}
            error={!!problems.mainFormId}
            helperText={problems.mainFormId ?? (mainFormName || t('protocols.editor.formIdHint'))}
          />
        )}
        <FormControlLabel
          control={<Switch checked={draft.public} onChange={(event) => update({ public: event.target.checked })} />}
          label={t('protocols.public')}
        />
      </Box>
    </Section>
  );
}
