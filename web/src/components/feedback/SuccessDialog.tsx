import DialogContentText from '@mui/material/DialogContentText';
import { useTranslation } from 'react-i18next';
import { MessageDialog } from './MessageDialog.js';

interface SuccessDialogProps {
  open: boolean;
  /** Defaults to 'Operation successful.'. */
  message?: string;
  onClose: () => void;
}

export function SuccessDialog({ open, message, onClose }: SuccessDialogProps) {
  const { t } = useTranslation();
  return (
    <MessageDialog open={open} title={t('sms.success')} onClose={onClose}>
      <DialogContentText>{message ?? t('sms.operationSuccessful')}</DialogContentText>
    </MessageDialog>
  );
}
