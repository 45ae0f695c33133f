import DialogContentText from '@mui/material/DialogContentText';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { MessageDialog } from './MessageDialog.js';

interface ErrorDialogProps {
  open: boolean;
  /** What failed, when known (e.g. the server's message). */
  message?: string;
  onClose: () => void;
}

export function ErrorDialog({ open, message, onClose }: ErrorDialogProps) {
  const { t } = useTranslation();
  return (
    <MessageDialog open={open} title={t('sms.error')} onClose={onClose}>
      <Typography variant="subtitle1" component="p" gutterBottom>
        {t('sms.errorTitle')}
      </Typography>
      {message && <DialogContentText gutterBottom>{message}</DialogContentText>}
      <DialogContentText>{t('sms.errorSoluction')}</DialogContentText>
    </MessageDialog>
  );
}
