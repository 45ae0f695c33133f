import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

export interface ConfirmOptions {
  message: string;
  /** Defaults to 'Are you sure?'. */
  title?: string;
  confirmText?: string;
  cancelText?: string;
}

interface ConfirmDialogProps extends ConfirmOptions {
  open: boolean;
  onAnswer: (confirmed: boolean) => void;
}

/**
 * Asks before an action. Escape, a click outside and Cancel all answer no,
 * and Cancel holds the focus so that a hasty Enter does no harm.
 */
export function ConfirmDialog({ open, message, title, confirmText, cancelText, onAnswer }: ConfirmDialogProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const textId = useId();
  return (
    <Dialog
      open={open}
      onClose={() => onAnswer(false)}
      aria-labelledby={titleId}
      aria-describedby={textId}
      maxWidth="xs"
      fullWidth
    >
      <DialogTitle id={titleId}>{title ?? t('sms.confirmTitle')}</DialogTitle>
      <DialogContent>
        <DialogContentText id={textId}>{message}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => onAnswer(false)} autoFocus>
          {cancelText ?? t('common.cancel')}
        </Button>
        <Button onClick={() => onAnswer(true)} variant="contained">
          {confirmText ?? t('common.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
