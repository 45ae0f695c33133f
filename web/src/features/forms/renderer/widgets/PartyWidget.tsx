import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { PARTY_ROLES } from '../../../../../../core/parties.js';
import type { FieldRendererProps } from '../../registry.js';
import { errorText, useErrorsUnder, useFieldBinding } from '../hooks.js';

type Party = { role?: string; name?: string; email?: string; phone?: string | null };

/**
 * A "party" field (issue 23): another party of the case (the landlord, a
 * utility ...), their role (unless the field fixes it), name, email and
 * phone, held as one value. The validator checks it (core/forms/validator.ts).
 */
export function PartyWidget({ field, name }: FieldRendererProps) {
  const { t } = useTranslation();
  const { binding, error, label, help, required, disabled } = useFieldBinding(field, name);
  const under = useErrorsUnder(name) as Record<string, unknown> | undefined;
  const value: Party = binding.value && typeof binding.value === 'object' ? (binding.value as Party) : {};
  // Emptied again (no name, email or phone): no party, as if never touched, so an optional field stays optional.
  const set = (key: keyof Party, v: string) => {
    const next: Party = { ...value, ...(field.partyRole ? { role: field.partyRole } : {}), [key]: v };
    binding.onChange([next.name, next.email, next.phone].some((x) => typeof x === 'string' && x.trim() !== '') || (!field.partyRole && next.role) ? next : undefined);
  };
  const part = (key: keyof Party) => errorText(under?.[key]);
  return (
    <FormControl component="fieldset" fullWidth margin="dense" required={required} disabled={disabled} error={!!error}>
      <FormLabel component="legend">{label}</FormLabel>
      <Stack spacing={0}>
        {!field.partyRole && (
          <TextField select fullWidth margin="dense" label={t('parties.fields.role')} value={value.role ?? ''} onChange={(e) => set('role', e.target.value)} onBlur={binding.onBlur} disabled={disabled} error={!!part('role')} helperText={part('role')}>
            {PARTY_ROLES.map((role) => (
              <MenuItem key={role} value={role}>
                {t(`parties.roleTitle.${role}`)}
              </MenuItem>
            ))}
          </TextField>
        )}
        <TextField fullWidth margin="dense" name={`${binding.name}.name`} inputRef={binding.ref} label={t('parties.fields.name')} value={value.name ?? ''} onChange={(e) => set('name', e.target.value)} onBlur={binding.onBlur} disabled={disabled} error={!!part('name')} helperText={part('name')} />
        <TextField fullWidth margin="dense" type="email" label={t('parties.fields.email')} value={value.email ?? ''} onChange={(e) => set('email', e.target.value)} onBlur={binding.onBlur} disabled={disabled} error={!!part('email')} helperText={part('email')} />
        <TextField fullWidth margin="dense" type="tel" label={t('parties.fields.phone')} value={value.phone ?? ''} onChange={(e) => set('phone', e.target.value)} onBlur={binding.onBlur} disabled={disabled} error={!!part('phone')} helperText={part('phone')} />
      </Stack>
      {(error ?? help) && <FormHelperText>{error ?? help}</FormHelperText>}
    </FormControl>
  );
}
