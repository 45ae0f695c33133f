import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';

interface InfoDialogProps {
  title: ReactNode;
  children: ReactNode;
  /** Escape, the backdrop and the one button. */
  onClose: () => void;
  /** The button's text: Close by default (Cancel while there is something to stop or nothing was chosen). */
  closeLabel?: string;
  /** A report to read, then close: the button is the dialog's main one and holds the focus. */
  report?: boolean;
  maxWidth?: 'xs' | 'sm' | 'md' | 'lg';
  /** Full screen on phones (the default), so a long report scrolls as a page. */
  fullScreenOnPhone?: boolean;
  /** The content runs edge to edge between dividers (a list to choose from). */
  flush?: boolean;
}

/**
 * A dialog that shows something rather than asks for a form: a report, a
 * progress, a list to choose from. The title names it; one button closes it.
 * A dialog with a form to submit is a `FormDialog`.
 */
export function InfoDialog({ title, children, onClose, closeLabel, report = false, maxWidth = 'sm', fullScreenOnPhone = true, flush = false }: InfoDialogProps) {
  const { t } = useTranslation();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const titleId = useId();
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth={maxWidth} fullScreen={fullScreenOnPhone && phone}>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent dividers={flush} sx={flush ? { p: 0 } : undefined}>
        {children}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} variant={report ? 'contained' : 'text'} autoFocus={report}>
          {closeLabel ?? t('common.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
