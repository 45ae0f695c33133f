import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

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
  const titleId = useId();
  const textId = useId();
  const [reason, setReason] = useState('');
  return (
    <Dialog open onClose={pending ? undefined : onClose} aria-labelledby={titleId} aria-describedby={textId} fullWidth maxWidth="xs">
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText id={textId}>{message}</DialogContentText>
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
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} autoFocus disabled={pending}>
          {t('common.cancel')}
        </Button>
        <Button variant="contained" color="error" loading={pending} onClick={() => onConfirm(reason.trim())}>
          {confirmText}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
