import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { moneyInput, parseMoney } from '../../payments/format.js';

interface AmountFieldProps {
  label: string;
  /** Days or months, or cents when `money`; null: the box is empty (no cap, never). */
  value: number | null;
  onChange: (value: number | null) => void;
  /** Dollars in the box, cents in the value. */
  money?: boolean;
  /** What an empty box means: null, or a number (0: none); absent: the box is required. */
  empty?: number | null;
  /** The range of whole days or months (money has no upper bound here: the server checks it). */
  min?: number;
  max?: number;
  helperText?: string;
  /** What the last save said about this value. */
  error?: string;
}

/**
 * A number of the draft's definition typed as text: the definition takes
 * each value that reads as a number (one out of range too, for the checks
 * of Save to name); text that does not read stays in the box with its error
 * and the definition keeps the last number.
 */
export function AmountField({ label, value, onChange, money = false, empty, min = 0, max, helperText, error }: AmountFieldProps) {
  const { t } = useTranslation();
  const required = empty === undefined;
  // What an empty box means shows as an empty box; so does a required amount of 0, one not chosen yet (a cap just turned on).
  const format = (v: number | null) => (v === null || v === empty || (required && money && v === 0) ? '' : money ? moneyInput(v) : String(v));
  const [text, setText] = useState(() => format(value));
  const sent = useRef(value);
  // A value changed from outside (the protocol loaded again) replaces the text.
  useEffect(() => {
    if (value !== sent.current) {
      sent.current = value;
      setText(format(value));
    }
  });

  /** The value the text gives (undefined: none, the text does not read), and what is wrong with it. */
  const read = (raw: string): { value?: number | null; problem?: string } => {
    const clean = raw.trim();
    if (clean === '') return required ? { problem: t('validation.required') } : { value: empty ?? null };
    if (money) {
      const cents = parseMoney(clean);
      return cents === null || Number.isNaN(cents) ? { problem: t('protocols.editor.awards.badMoney') } : { value: cents };
    }
    const range = max === undefined ? t('protocols.editor.parties.badWhole', { min }) : t('protocols.editor.parties.badNumber', { min, max });
    if (!/^\d+$/.test(clean)) return { problem: range };
    const n = Number(clean);
    return { value: n, problem: n < min || (max !== undefined && n > max) ? range : undefined };
  };
  const local = read(text).problem;

  return (
    <TextField
      margin="dense"
      label={label}
      required={required}
      value={text}
      onChange={(event) => {
        setText(event.target.value);
        const next = read(event.target.value);
        if (next.value !== undefined && next.value !== value) {
          sent.current = next.value;
          onChange(next.value);
        }
      }}
      error={!!(local ?? error)}
      helperText={local ?? error ?? helperText}
      slotProps={{
        htmlInput: { inputMode: money ? 'decimal' : 'numeric' },
        input: money ? { startAdornment: <InputAdornment position="start">$</InputAdornment> } : undefined,
      }}
    />
  );
}
