import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput from '@mui/material/OutlinedInput';
import { type HTMLAttributes, type ReactNode, useId, useState } from 'react';
import { type Control, type FieldValues, type Path, useController } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { fieldErrorText } from '../../lib/forms.js';

export interface FormTextFieldProps<T extends FieldValues> {
  control: Control<T>;
  name: Path<T>;
  label: string;
  type?: string;
  autoComplete?: string;
  inputMode?: HTMLAttributes<HTMLInputElement>['inputMode'];
  required?: boolean;
  autoFocus?: boolean;
  disabled?: boolean;
  multiline?: boolean;
  minRows?: number;
  /** Shown under the field while it has no error. */
  helperText?: ReactNode;
  endAdornment?: ReactNode;
}

/**
 * A text field bound to a react-hook-form field; its error (translated) shows
 * under it. Built from the outlined input rather than MUI's TextField, which
 * also brings the select and the other input variants: this field is on the
 * sign-in page, inside the first bundle.
 */
export function FormTextField<T extends FieldValues>(props: FormTextFieldProps<T>) {
  const { control, name, label, helperText, required, disabled } = props;
  const { t } = useTranslation();
  const id = useId();
  const { field, fieldState } = useController({ control, name });
  const message = fieldErrorText(t, fieldState.error);
  const helper = message ?? helperText;
  const helperId = `${id}-helper`;
  return (
    <FormControl fullWidth margin="normal" variant="outlined" required={required} disabled={disabled} error={!!message}>
      <InputLabel htmlFor={id}>{label}</InputLabel>
      <OutlinedInput
        id={id}
        label={label}
        name={field.name}
        value={field.value ?? ''}
        onChange={field.onChange}
        onBlur={field.onBlur}
        inputRef={field.ref}
        type={props.type}
        autoComplete={props.autoComplete}
        autoFocus={props.autoFocus}
        multiline={props.multiline}
        minRows={props.minRows}
        endAdornment={props.endAdornment}
        inputProps={{ inputMode: props.inputMode, 'aria-describedby': helper ? helperId : undefined }}
      />
      {helper && <FormHelperText id={helperId}>{helper}</FormHelperText>}
    </FormControl>
  );
}

/** A password field with a button that shows or hides what was typed. */
export function FormPasswordField<T extends FieldValues>(props: Omit<FormTextFieldProps<T>, 'type' | 'endAdornment'>) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  return (
    <FormTextField
      {...props}
      type={visible ? 'text' : 'password'}
      endAdornment={
        <InputAdornment position="end">
          <IconButton
            onClick={() => setVisible(!visible)}
            aria-label={t(visible ? 'form.hidePassword' : 'form.showPassword')}
            aria-pressed={visible}
            edge="end"
            size="small"
          >
            {visible ? <VisibilityOff fontSize="small" /> : <Visibility fontSize="small" />}
          </IconButton>
        </InputAdornment>
      }
    />
  );
}
