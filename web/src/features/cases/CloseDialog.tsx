import Alert from '@mui/material/Alert';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../components/page/index.js';

interface CloseDialogProps {
  title: string;
  message: string;
  /** A warning under the message (it cannot be undone), when the message does not say it already. */
  warning?: string;
  confirmText: string;
  pending: boolean;
  onConfirm: (reason: string) => void;
  onClose: () => void;
}

/**
 * Asks before closing one application or several, with an optional reason
 * that the history keeps. Closing cannot be undone: Cancel holds the focus.
 */
export function CloseDialog({ title, message, warning, confirmText, pending, onConfirm, onClose }: CloseDialogProps) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  return (
    <FormDialog
      title={title}
      description={message}
      onClose={onClose}
      onSubmit={(event) => {
        event.preventDefault();
        onConfirm(reason.trim());
      }}
      submitLabel={confirmText}
      submitColor="error"
      pending={pending}
      irreversible
      maxWidth="xs"
      fullScreenOnPhone={false}
    >
      {warning && (
        <Alert severity="warning" sx={{ mt: 2 }}>
          {warning}
        </Alert>
      )}
      <TextField
        fullWidth
        multiline
        minRows={2}
        margin="normal"
        label={t('caseList.admin.reason')}
        value={reason}
        onChange={(event) => setReason(event.target.value)}
        slotProps={{ htmlInput: { maxLength: 2000 } }}
      />
    </FormDialog>
  );
}
