import UploadFile from '@mui/icons-material/UploadFile';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { SearchProtocol } from '../api.js';
import { problemOf } from './importMapping.js';

interface ImportFileStepProps {
  protocols: SearchProtocol[];
  protocolId: string;
  /** The user chose a file before a protocol. */
  protocolMissing: boolean;
  onProtocolChange: (id: string) => void;
  onProtocolMissing: () => void;
  onFile: (file: File | undefined) => void;
  uploading: boolean;
  /** Why the upload was refused; null when it was not. */
  uploadError: unknown;
}

/** The import's first step: the protocol (when there are several) and the CSV file. */
export function ImportFileStep({ protocols, protocolId, protocolMissing, onProtocolChange, onProtocolMissing, onFile, uploading, uploadError }: ImportFileStepProps) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement | null>(null);
  return (
    <Box>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('caseList.import.fileHelp')}
      </Typography>
      {protocols.length === 0 && <Alert severity="warning" role="status">{t('caseList.import.noProtocols')}</Alert>}
      {protocols.length > 1 && (
        <TextField
          select
          fullWidth
          label={t('caseList.import.protocol')}
          value={protocolId}
          onChange={(event) => onProtocolChange(event.target.value)}
          required
          error={protocolMissing}
          helperText={protocolMissing ? t('validation.chooseOption') : undefined}
          sx={{ mb: 2 }}
        >
          {protocols.map((p) => (
            <MenuItem key={p.id} value={String(p.id)}>
              {p.name}
            </MenuItem>
          ))}
        </TextField>
      )}
      <input
        ref={input}
        type="file"
        accept=".csv,text/csv"
        hidden
        aria-label={t('caseList.import.choose')}
        onChange={(event) => {
          onFile(event.target.files?.[0]);
          event.target.value = '';
        }}
      />
      <Button variant="contained" startIcon={<UploadFile />} disabled={protocols.length === 0} loading={uploading} onClick={() => (protocolId ? input.current?.click() : onProtocolMissing())}>
        {t('caseList.import.choose')}
      </Button>
      {uploadError !== null && (
        <Alert severity="error" role="alert" sx={{ mt: 2 }}>
          {problemOf(uploadError)}
        </Alert>
      )}
    </Box>
  );
}
