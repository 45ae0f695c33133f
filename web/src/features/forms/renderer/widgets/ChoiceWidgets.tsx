import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldRendererProps } from '../../registry.js';
import { useFieldBinding } from '../hooks.js';

/** Option values may be numbers in a definition; inputs speak strings. */
const sameValue = (a: unknown, b: unknown) => a !== undefined && a !== null && a !== '' && String(a) === String(b);

export function SelectWidget({ field, name }: FieldRendererProps) {
  const { t } = useTranslation();
  const { binding, error, label, help, required, disabled, text } = useFieldBinding(field, name);
  const options = field.options ?? [];
  const current = options.findIndex((o) => sameValue(o.value, binding.value));
  return (
    <TextField
      select
      fullWidth
      margin="dense"
      name={binding.name}
      label={label}
      required={required}
      value={current < 0 ? '' : String(current)}
      onChange={(event) => binding.onChange(event.target.value === '' ? '' : options[Number(event.target.value)]?.value)}
      onBlur={binding.onBlur}
      inputRef={binding.ref}
      disabled={disabled}
      error={!!error}
      helperText={error ?? help}
    >
      {!required && (
        <MenuItem value="">
          <em>{t('forms.renderer.none')}</em>
        </MenuItem>
      )}
      {options.map((option, index) => (
        <MenuItem key={String(option.value)} value={String(index)}>
          {text.option(option)}
        </MenuItem>
      ))}
    </TextField>
  );
}

export function RadioWidget({ field, name }: FieldRendererProps) {
  const labelId = useId();
  const { binding, error, label, help, required, disabled, text } = useFieldBinding(field, name);
  const options = field.options ?? [];
  return (
    <FormControl component="fieldset" margin="dense" required={required} error={!!error} disabled={disabled} fullWidth>
      <FormLabel component="legend" id={labelId}>
        {label}
      </FormLabel>
      <RadioGroup
        aria-labelledby={labelId}
        name={binding.name}
        value={options.findIndex((o) => sameValue(o.value, binding.value))}
        onChange={(event) => {
          binding.onChange(options[Number(event.target.value)]?.value);
          binding.onBlur();
        }}
      >
        {options.map((option, index) => (
          <FormControlLabel
            key={String(option.value)}
            value={index}
            control={<Radio slotProps={{ input: { ref: index === 0 ? binding.ref : undefined } }} />}
            label={text.option(option)}
          />
        ))}
      </RadioGroup>
      {(error ?? help) && <FormHelperText>{error ?? help}</FormHelperText>}
    </FormControl>
  );
}

export function MultiCheckboxWidget({ field, name }: FieldRendererProps) {
  const labelId = useId();
  const { binding, error, label, help, required, disabled, text } = useFieldBinding(field, name);
  const options = field.options ?? [];
  const chosen: unknown[] = Array.isArray(binding.value) ? binding.value : [];
  const toggle = (value: string | number, on: boolean) => {
    const next = on ? [...chosen.filter((v) => !sameValue(v, value)), value] : chosen.filter((v) => !sameValue(v, value));
    // Keep the order of the options, not of the clicks.
    binding.onChange(options.map((o) => o.value).filter((v) => next.some((n) => sameValue(n, v))));
    binding.onBlur();
  };
  return (
    <FormControl component="fieldset" margin="dense" required={required} error={!!error} disabled={disabled} fullWidth>
      <FormLabel component="legend" id={labelId}>
        {label}
      </FormLabel>
      <FormGroup aria-labelledby={labelId}>
        {options.map((option, index) => (
          <FormControlLabel
            key={String(option.value)}
            control={
              <Checkbox
                checked={chosen.some((v) => sameValue(v, option.value))}
                onChange={(event) => toggle(option.value, event.target.checked)}
                slotProps={{ input: { ref: index === 0 ? binding.ref : undefined } }}
              />
            }
            label={text.option(option)}
          />
        ))}
      </FormGroup>
      {(error ?? help) && <FormHelperText>{error ?? help}</FormHelperText>}
    </FormControl>
  );
}

function BooleanWidget({ field, name, kind }: FieldRendererProps & { kind: 'checkbox' | 'switch' }) {
  const { binding, error, label, help, required, disabled } = useFieldBinding(field, name);
  const Control = kind === 'switch' ? Switch : Checkbox;
  return (
    <FormControl margin="dense" required={required} error={!!error} disabled={disabled} fullWidth>
      <FormControlLabel
        required={required}
        control={
          <Control
            name={binding.name}
            checked={binding.value === true}
            onChange={(event) => {
              binding.onChange(event.target.checked);
              binding.onBlur();
            }}
            slotProps={{ input: { ref: binding.ref } }}
          />
        }
        label={label}
      />
      {(error ?? help) && <FormHelperText>{error ?? help}</FormHelperText>}
    </FormControl>
  );
}

export function CheckboxWidget(props: FieldRendererProps) {
  return <BooleanWidget {...props} kind="checkbox" />;
}

export function SwitchWidget(props: FieldRendererProps) {
  return <BooleanWidget {...props} kind="switch" />;
}
