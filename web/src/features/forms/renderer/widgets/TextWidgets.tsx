import dayjs from 'dayjs';
import TextField from '@mui/material/TextField';
import type { HTMLAttributes } from 'react';
import type { FieldRendererProps } from '../../registry.js';
import { useFieldBinding } from '../hooks.js';

interface InputOptions {
  type?: string;
  inputMode?: HTMLAttributes<HTMLInputElement>['inputMode'];
  autoComplete?: string;
  multiline?: boolean;
  /** The text the input shows for a stored value. */
  show?: (value: unknown) => string;
}

/** One text input bound to the form: label, required mark, help, and the message under it. */
function TextInput({ field, name, options }: FieldRendererProps & { options: InputOptions }) {
  const { binding, error, label, help, required, disabled } = useFieldBinding(field, name);
  const dateLike = options.type === 'date' || options.type === 'datetime-local';
  return (
    <TextField
      fullWidth
      margin="dense"
      name={binding.name}
      label={label}
      required={required}
      value={binding.value === undefined || binding.value === null ? '' : options.show ? options.show(binding.value) : String(binding.value)}
      onChange={(event) => binding.onChange(event.target.value)}
      onBlur={binding.onBlur}
      inputRef={binding.ref}
      type={options.type ?? 'text'}
      autoComplete={options.autoComplete}
      multiline={options.multiline}
      minRows={options.multiline ? 3 : undefined}
      disabled={disabled}
      error={!!error}
      helperText={error ?? help}
      slotProps={{
        htmlInput: { inputMode: options.inputMode },
        // Native date inputs draw their own placeholder: keep the label above it.
        inputLabel: dateLike ? { shrink: true } : undefined,
      }}
    />
  );
}

const renderer = (options: InputOptions) =>
  function Widget(props: FieldRendererProps) {
    return <TextInput {...props} options={options} />;
  };

export const TextWidget = renderer({});
export const TextareaWidget = renderer({ multiline: true });
export const NumberWidget = renderer({ inputMode: 'decimal' });
export const CurrencyWidget = renderer({ inputMode: 'decimal' });
export const EmailWidget = renderer({ type: 'email', inputMode: 'email', autoComplete: 'off' });
export const PhoneWidget = renderer({ type: 'tel', inputMode: 'tel' });
export const ZipWidget = renderer({ inputMode: 'numeric' });
export const DateWidget = renderer({ type: 'date' });
/** A saved date-time is an instant (ISO, UTC); the input shows it in local time. */
export const DateTimeWidget = renderer({
  type: 'datetime-local',
  show: (value) => (typeof value === 'string' && /[zZ]|[+-]\d\d:\d\d$/.test(value) && dayjs(value).isValid() ? dayjs(value).format('YYYY-MM-DDTHH:mm') : String(value)),
});
