import UploadFile from '@mui/icons-material/UploadFile';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { type ReactNode, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, errorMessage } from '../../lib/api.js';

/** Why the server refused a file or an import: the first problem it names (encoding, a column...), else its message. */
export const importProblem = (error: unknown) => (error instanceof ApiError && error.details[0]?.message) || errorMessage(error);

interface CsvFileStepProps {
  /** What the file must hold, said above the choice. */
  help: ReactNode;
  /** Choices made before the file (a protocol), between the help and the button. */
  children?: ReactNode;
  onFile: (file: File) => void;
  /** Asked when the button is pressed: false keeps the file picker closed (a choice before the file is missing). */
  ready?: () => boolean;
  disabled?: boolean;
  /** The file is being sent: the button spins. */
  pending?: boolean;
  /** The chosen file's name, shown beside the button. */
  fileName?: string;
  /** Why the file was refused; nothing when it was not. */
  error?: unknown;
  /** The file types the picker offers; CSV unless told. */
  accept?: string;
  /** The button's text; "Choose a CSV file" unless told. */
  chooseLabel?: string;
}

/**
 * The first step of a CSV import: what the file must hold, a button that
 * opens the file picker (the next thing to do until a file is chosen), the
 * chosen file's name, and why the server refused it.
 */
export function CsvFileStep({ help, children, onFile, ready, disabled, pending, fileName, error, accept = '.csv,text/csv', chooseLabel }: CsvFileStepProps) {
  const { t } = useTranslation();
  const label = chooseLabel ?? t('importFile.choose');
  const input = useRef<HTMLInputElement | null>(null);
  return (
    <Box>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {help}
      </Typography>
      {children}
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1.5 }}>
        <input
          ref={input}
          type="file"
          accept={accept}
          hidden
          aria-label={label}
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (file) onFile(file);
            // The same file again is a new choice.
            event.target.value = '';
          }}
        />
        <Button
          variant={fileName ? 'outlined' : 'contained'}
          startIcon={<UploadFile />}
          disabled={disabled}
          loading={pending}
          onClick={() => {
            if (!ready || ready()) input.current?.click();
          }}
        >
          {label}
        </Button>
        {fileName && <Typography sx={{ overflowWrap: 'anywhere' }}>{fileName}</Typography>}
      </Box>
      {error !== undefined && error !== null && (
        <Alert severity="error" role="alert" sx={{ mt: 2 }}>
          {importProblem(error)}
        </Alert>
      )}
    </Box>
  );
}
