import Alert from '@mui/material/Alert';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { CsvFileStep } from '../../../components/page/index.js';
import type { SearchProtocol } from '../api.js';

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

/** The import's first step: the protocol (when there are several), then the kit's CSV file step. */
export function ImportFileStep({ protocols, protocolId, protocolMissing, onProtocolChange, onProtocolMissing, onFile, uploading, uploadError }: ImportFileStepProps) {
  const { t } = useTranslation();
  return (
    <CsvFileStep
      help={t('caseList.import.fileHelp')}
      onFile={onFile}
      ready={() => {
        if (!protocolId) onProtocolMissing();
        return protocolId !== '';
      }}
      disabled={protocols.length === 0}
      pending={uploading}
      error={uploadError}
    >
      {protocols.length === 0 && (
        <Alert severity="warning" role="status" sx={{ mb: 2 }}>
          {t('caseList.import.noProtocols')}
        </Alert>
      )}
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
    </CsvFileStep>
  );
}
