import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { useMemo } from 'react';
import { type Control, type FieldValues, type Path, useController } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { DEFAULT_TIME_ZONE } from '../../../../core/project.js';
import { fieldErrorText } from '../../lib/forms.js';

/** Every IANA time zone this browser knows, America/Bogota (the default) included. */
export function timeZones(): string[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return zones.includes(DEFAULT_TIME_ZONE) ? zones : [DEFAULT_TIME_ZONE, ...zones];
}

interface TimeZoneFieldProps<T extends FieldValues> {
  control: Control<T>;
  name: Path<T>;
  label: string;
  disabled?: boolean;
}

/** A time-zone picker that filters as the user types (there are some 400 zones). */
export function TimeZoneField<T extends FieldValues>({ control, name, label, disabled }: TimeZoneFieldProps<T>) {
  const { t } = useTranslation();
  const { field, fieldState } = useController({ control, name });
  const value = (field.value as string | undefined) || DEFAULT_TIME_ZONE;
  const options = useMemo(() => {
    const zones = timeZones();
    return zones.includes(value) ? zones : [value, ...zones];
  }, [value]);
  const message = fieldErrorText(t, fieldState.error);
  return (
    <Autocomplete
      options={options}
      value={value}
      disableClearable
      disabled={disabled}
      onChange={(_event, zone) => field.onChange(zone)}
      onBlur={field.onBlur}
      renderInput={(params) => (
        <TextField
          {...params}
          name={field.name}
          inputRef={field.ref}
          label={label}
          margin="normal"
          error={!!message}
          helperText={message}
        />
      )}
    />
  );
}
