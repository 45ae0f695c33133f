import TextField from '@mui/material/TextField';
import type { SxProps, Theme } from '@mui/material/styles';
import { useEffect, useRef, useState } from 'react';

/**
 * A whole calendar date as a date input gives it (YYYY-MM-DD), with a year
 * of four digits: while a year is typed digit by digit the browser already
 * reports 0002, 0020 and 0202 as dates.
 */
export function isWholeDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1000) return false;
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

interface DateFilterFieldProps {
  label: string;
  /** The date the filter applies now ('' for none). */
  value: string;
  /** Called with a whole date, or '' when the field is emptied; never with a date half typed. */
  onChange: (value: string) => void;
  min?: string;
  max?: string;
  sx?: SxProps<Theme>;
}

/**
 * A date filter of a list. The field keeps what is being typed; the filter
 * changes only when the date is whole and valid (or the field is emptied),
 * so typing 01022026 digit by digit asks for one list, not one per digit,
 * and nothing typed is reset by the list reloading. Left half typed, the
 * field shows again the date that applies.
 */
export function DateFilterField({ label, value, onChange, min, max, sx }: DateFilterFieldProps) {
  const [text, setText] = useState(value);
  const applied = useRef(value);
  // Another date from outside (Clear, Back, a saved search): the field shows it.
  useEffect(() => {
    if (value !== applied.current) {
      applied.current = value;
      setText(value);
    }
  }, [value]);

  const apply = (next: string) => {
    if (next === applied.current) return;
    applied.current = next;
    onChange(next);
  };
  // A date input reports '' both when emptied and while half typed; only the second is a bad input.
  const emptied = (input: HTMLInputElement) => input.value === '' && !input.validity.badInput;

  return (
    <TextField
      type="date"
      size="small"
      label={label}
      value={text}
      onChange={(event) => {
        const next = event.target.value;
        setText(next);
        if (isWholeDate(next) || emptied(event.target as HTMLInputElement)) apply(next);
      }}
      onBlur={(event) => {
        const input = event.target as HTMLInputElement;
        if (emptied(input)) apply('');
        else if (!isWholeDate(input.value)) {
          // Half typed (or a year of fewer than four digits): back to the date that applies. Written to the
          // input too, since the state may already hold that value while the browser shows the typed parts.
          input.value = applied.current;
          setText(applied.current);
        }
      }}
      slotProps={{ inputLabel: { shrink: true }, htmlInput: { min, max } }}
      sx={sx}
    />
  );
}
