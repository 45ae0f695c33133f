import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

interface LoadingDialogProps {
  open: boolean;
  /** Defaults to 'Loading...'. */
  text?: string;
}

/** Blocks the page while work the user must wait for is running; it has no close action on purpose. */
export function LoadingDialog({ open, text }: LoadingDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} aria-labelledby="loading-dialog-text" aria-busy="true">
      <DialogContent sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
        <CircularProgress size={28} aria-hidden />
        <Typography id="loading-dialog-text" role="status">
          {text ?? t('common.loading')}
        </Typography>
      </DialogContent>
    </Dialog>
  );
}
