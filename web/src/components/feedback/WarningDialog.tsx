import DialogContentText from '@mui/material/DialogContentText';
import { useTranslation } from 'react-i18next';
import { MessageDialog } from './MessageDialog.js';

interface WarningDialogProps {
  open: boolean;
  message: string;
  onClose: () => void;
}

export function WarningDialog({ open, message, onClose }: WarningDialogProps) {
  const { t } = useTranslation();
  return (
    <MessageDialog open={open} title={t('sms.warning')} onClose={onClose}>
      <DialogContentText>{message}</DialogContentText>
    </MessageDialog>
  );
}
