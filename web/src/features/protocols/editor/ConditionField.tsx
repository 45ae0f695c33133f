import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { checkCondition } from '../../../../../core/forms/expr.js';

/** The live error of a condition: where it stops parsing (1-based), or nothing when it parses. */
export function conditionError(text: string): { position: number } | null {
  if (!text.trim()) return null;
  const error = checkCondition(text);
  return error ? { position: Math.min(error.position, text.length) + 1 } : null;
}

interface ConditionFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** The server's message for this condition (from the last save). */
  serverError?: string;
}

/**
 * A guard on form values (`amount > 5000`, `eligible == 'yes'`), checked as
 * the user types by the same safe evaluator the server uses: an error names
 * the position and points at it under the text.
 */
export function ConditionField({ label, value, onChange, serverError }: ConditionFieldProps) {
  const { t } = useTranslation();
  const error = conditionError(value);
  const message = error ? t('protocols.editor.conditionError', { position: error.position }) : serverError;
  return (
    <Box sx={{ flexGrow: 1, minWidth: 0 }}>
      <TextField
        fullWidth
        size="small"
        margin="dense"
        label={label}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        error={!!message}
        helperText={message ?? t('protocols.editor.conditionHint')}
        slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: 'monospace' } } }}
      />
      {error && (
        <Typography
          component="pre"
          aria-hidden
          sx={{ m: 0, mt: -0.5, px: 1.75, fontFamily: 'monospace', fontSize: 12, color: 'error.dark', whiteSpace: 'pre', overflowX: 'auto' }}
        >
          {`${value}\n${' '.repeat(error.position - 1)}^`}
        </Typography>
      )}
    </Box>
  );
}
