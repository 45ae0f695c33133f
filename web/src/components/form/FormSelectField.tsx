import MenuItem from '@mui/material/MenuItem';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import { type Control, type FieldValues, type Path, useController } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { fieldErrorText } from '../../lib/forms.js';

type Props<T extends FieldValues> = Omit<TextFieldProps, 'name' | 'value' | 'onChange' | 'onBlur' | 'error' | 'select'> & {
  control: Control<T>;
  name: Path<T>;
  options: ReadonlyArray<{ value: string; label: string }>;
};

/** A select bound to a react-hook-form field; values are strings. */
export function FormSelectField<T extends FieldValues>({ control, name, options, helperText, ...rest }: Props<T>) {
  const { t } = useTranslation();
  const { field, fieldState } = useController({ control, name });
  const message = fieldErrorText(t, fieldState.error);
  return (
    <TextField
      select
      fullWidth
      margin="normal"
      {...rest}
      name={field.name}
      value={field.value ?? ''}
      onChange={field.onChange}
      onBlur={field.onBlur}
      inputRef={field.ref}
      error={!!message}
      helperText={message ?? helperText}
    >
      {options.map((option) => (
        <MenuItem key={option.value} value={option.value}>
          {option.label}
        </MenuItem>
      ))}
    </TextField>
  );
}
