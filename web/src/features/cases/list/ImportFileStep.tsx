import Alert from '@mui/material/Alert';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { CsvFileStep } from '../../../components/page/index.js';
import { IMPORT_MAX_MB, IMPORT_MAX_ROWS, type SearchProtocol } from '../api.js';
import { formatCount } from '../imports/importFormat.js';

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

/** What the picker offers: CSV and Excel workbooks (the server tells them apart by content). */
const ACCEPT = '.csv,text/csv,.xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The import's first step: the protocol (when there are several), then the kit's file step, for a CSV or an Excel file. */
export function ImportFileStep({ protocols, protocolId, protocolMissing, onProtocolChange, onProtocolMissing, onFile, uploading, uploadError }: ImportFileStepProps) {
  const { t, i18n } = useTranslation();
  return (
    <CsvFileStep
      help={t('caseList.import.fileHelp', { rows: formatCount(IMPORT_MAX_ROWS, i18n.language), size: formatCount(IMPORT_MAX_MB, i18n.language) })}
      accept={ACCEPT}
      chooseLabel={t('caseList.import.chooseFile')}
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
