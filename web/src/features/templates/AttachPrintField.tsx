import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { type Control, useController } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { TemplateBody } from '../../../../core/api/templates.js';
import { fieldErrorText } from '../../lib/forms.js';
import { type PrintChoice, usePrintTemplateChoices } from './api.js';

/**
 * The print template whose PDF, made for the email's case, goes with the
 * email (issue 20). Lists the tenant's print templates (they need
 * `menu_configuracion` show: without it the list is empty and the choice
 * kept as it is).
 */
export function AttachPrintField({ control, disabled }: { control: Control<TemplateBody>; disabled?: boolean }) {
  const { t, i18n } = useTranslation();
  const { field, fieldState } = useController({ control, name: 'printTemplateId' });
  const choices = usePrintTemplateChoices();
  const items = (choices.data?.items ?? []).filter((p) => p.kind === 'letter' || p.hasPdf);
  const nameOf = (p: PrintChoice) => (i18n.language.startsWith('es') ? p.name : p.nameEn || p.name);
  const value = field.value ?? null;
  return (
    <TextField
      select
      fullWidth
      margin="normal"
      label={t('templates.attachPrint')}
      name={field.name}
      inputRef={field.ref}
      disabled={disabled}
      value={value === null ? '' : String(value)}
      onChange={(event) => field.onChange(event.target.value === '' ? null : Number(event.target.value))}
      onBlur={field.onBlur}
      error={!!fieldState.error}
      helperText={fieldErrorText(t, fieldState.error) ?? t('templates.attachPrintHint')}
      slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
    >
      <MenuItem value="">{t('templates.attachNone')}</MenuItem>
      {items.map((p) => (
        <MenuItem key={p.id} value={String(p.id)}>
          {nameOf(p)}
        </MenuItem>
      ))}
      {value !== null && !items.some((p) => p.id === value) && <MenuItem value={String(value)}>{`#${value}`}</MenuItem>}
    </TextField>
  );
}
