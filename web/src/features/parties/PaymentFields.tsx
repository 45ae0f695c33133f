import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import Box from '@mui/material/Box';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type Control, useController, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ACCOUNT_TYPES, isValidRoutingNumber, PAYMENT_METHODS } from '../../../../core/payments.js';
import { fieldErrorText } from '../../lib/forms.js';
import type { SideField, SideValues } from './sideForm.js';

type FieldProps = {
  control: Control<SideValues>;
  name: SideField;
  label: string;
  help?: string;
  required?: boolean;
  autoComplete?: string;
  inputMode?: 'numeric' | 'text';
  type?: string;
  /** A message computed as the person types (the routing checksum), shown before the form's own. */
  live?: (value: string) => { error?: string; ok?: string };
};

/** One text field of the side form, its (translated) message under it. */
export function SideTextField({ control, name, label, help, required, autoComplete, inputMode, type, live }: FieldProps) {
  const { t } = useTranslation();
  const { field, fieldState } = useController({ control, name });
  const value = String(field.value ?? '');
  const now = live?.(value) ?? {};
  const error = now.error ?? fieldErrorText(t, fieldState.error);
  const helper = error ?? now.ok ?? help;
  return (
    <TextField
      fullWidth
      margin="dense"
      label={label}
      required={required}
      type={type}
      name={field.name}
      value={value}
      onChange={field.onChange}
      onBlur={field.onBlur}
      inputRef={field.ref}
      error={!!error}
      helperText={
        helper && !error && now.ok ? (
          <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, color: 'success.dark' }}>
            <CheckCircleOutlined sx={{ fontSize: 16 }} aria-hidden />
            {now.ok}
          </Box>
        ) : (
          helper
        )
      }
      autoComplete={autoComplete}
      slotProps={{ htmlInput: { inputMode, spellCheck: false }, inputLabel: type === 'date' ? { shrink: true } : undefined }}
    />
  );
}

function SideRadios({ control, name, label, options }: { control: Control<SideValues>; name: SideField; label: string; options: ReadonlyArray<{ value: string; label: string }> }) {
  const { t } = useTranslation();
  const { field, fieldState } = useController({ control, name });
  const error = fieldErrorText(t, fieldState.error);
  return (
    <FormControl component="fieldset" margin="dense" required error={!!error} fullWidth>
      <FormLabel component="legend">{label}</FormLabel>
      <RadioGroup row name={field.name} value={field.value ?? ''} onChange={(event) => field.onChange(event.target.value)} onBlur={field.onBlur}>
        {options.map((option, index) => (
          <FormControlLabel key={option.value} value={option.value} control={<Radio slotProps={{ input: { ref: index === 0 ? field.ref : undefined } }} />} label={option.label} />
        ))}
      </RadioGroup>
      {error && <FormHelperText>{error}</FormHelperText>}
    </FormControl>
  );
}

/** The routing number as typed: its checksum said at once once nine digits are there. */
export function routingCheck(t: (key: string) => string) {
  return (value: string): { error?: string; ok?: string } => {
    const digits = value.replace(/[\s-]/g, '');
    if (digits === '') return {};
    if (!/^\d*$/.test(digits) || digits.length > 9) return { error: t('payments.invalidRouting') };
    if (digits.length < 9) return {};
    return isValidRoutingNumber(digits) ? { ok: t('parties.page.routingOk') } : { error: t('payments.invalidRouting') };
  };
}

/**
 * A paid party's payment details: direct deposit (routing number checked
 * with the ABA checksum as it is typed, the account number twice, the
 * account type) or a check (a mailing address). The payee's name and tax id
 * come first; the tax id is the one on their W-9.
 */
export function PaymentFields({ control }: { control: Control<SideValues> }) {
  const { t } = useTranslation();
  const method = useWatch({ control, name: 'method' });
  return (
    <Box>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {t('parties.page.paymentIntro')}
      </Typography>
      <Box sx={{ display: 'grid', gap: { sm: 2 }, gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'minmax(0, 1fr) minmax(0, 1fr)' } }}>
        <SideTextField control={control} name="payeeName" label={t('parties.page.payeeName')} required autoComplete="name" />
        <SideTextField control={control} name="taxId" label={t('parties.page.taxId')} help={t('parties.page.taxIdHelp')} inputMode="numeric" autoComplete="off" />
      </Box>
      <SideRadios control={control} name="method" label={t('parties.page.method')} options={PAYMENT_METHODS.map((m) => ({ value: m, label: t(`parties.page.methods.${m}`) }))} />
      {method === 'ach' && (
        <Box sx={{ display: 'grid', gap: { sm: 2 }, gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'minmax(0, 1fr) minmax(0, 1fr)' } }}>
          <Box sx={{ gridColumn: '1 / -1' }}>
            <SideTextField
              control={control}
              name="routingNumber"
              label={t('parties.page.routingNumber')}
              help={t('parties.page.routingHelp')}
              required
              inputMode="numeric"
              autoComplete="off"
              live={routingCheck(t)}
            />
          </Box>
          <SideTextField control={control} name="accountNumber" label={t('parties.page.accountNumber')} required inputMode="numeric" autoComplete="off" />
          <SideTextField control={control} name="accountConfirm" label={t('parties.page.accountConfirm')} required inputMode="numeric" autoComplete="off" />
          <Box sx={{ gridColumn: '1 / -1' }}>
            <SideRadios control={control} name="accountType" label={t('parties.page.accountType')} options={ACCOUNT_TYPES.map((a) => ({ value: a, label: t(`parties.page.accountTypes.${a}`) }))} />
          </Box>
        </Box>
      )}
      {method === 'check' && (
        <Box component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
          <Typography component="legend" variant="subtitle2" sx={{ mt: 1 }}>
            {t('parties.page.mailingAddress')}
          </Typography>
          <SideTextField control={control} name="line1" label={t('parties.page.line1')} required autoComplete="address-line1" />
          <SideTextField control={control} name="line2" label={t('parties.page.line2')} autoComplete="address-line2" />
          <Box sx={{ display: 'grid', gap: { sm: 2 }, gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: '2fr 1fr 1fr' } }}>
            <SideTextField control={control} name="city" label={t('parties.page.city')} required autoComplete="address-level2" />
            <SideTextField control={control} name="state" label={t('parties.page.state')} required autoComplete="address-level1" />
            <SideTextField control={control} name="zip" label={t('parties.page.zip')} required inputMode="numeric" autoComplete="postal-code" />
          </Box>
        </Box>
      )}
    </Box>
  );
}
