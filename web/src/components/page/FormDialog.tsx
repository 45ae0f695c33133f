import Button, { type ButtonProps } from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { type FormEvent, type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';

interface FormDialogProps {
  title: ReactNode;
  /** Escape, the backdrop and Cancel. A form that guards typed changes passes its guard here. */
  onClose: () => void;
  /** The form's submit (the button, or Enter in a field); the dialog does not close by itself. */
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  children: ReactNode;
  /** The submit button's text; Save by default. */
  submitLabel?: string;
  submitColor?: ButtonProps['color'];
  /** The request is under way: the submit button spins. */
  pending?: boolean;
  submitDisabled?: boolean;
  maxWidth?: 'xs' | 'sm' | 'md' | 'lg';
  /** Full screen on phones (the default), so a long form scrolls as a page. */
  fullScreenOnPhone?: boolean;
  /** More buttons before Cancel. */
  extraActions?: ReactNode;
  /** A sentence above the fields that says what the submit does; it describes the dialog. */
  description?: ReactNode;
  /**
   * The submit cannot be undone (closing a case): Cancel holds the focus so
   * that a hasty Enter does no harm, and the dialog stays while the request
   * is under way.
   */
  irreversible?: boolean;
}

/**
 * A dialog holding one form: the title names the dialog, Enter in a field
 * submits, Cancel and the submit button sit at the bottom. Full screen on
 * phones.
 */
export function FormDialog({
  title,
  onClose,
  onSubmit,
  children,
  submitLabel,
  submitColor,
  pending,
  submitDisabled,
  maxWidth = 'sm',
  fullScreenOnPhone = true,
  extraActions,
  description,
  irreversible = false,
}: FormDialogProps) {
  const { t } = useTranslation();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const titleId = useId();
  const textId = useId();
  const held = irreversible && pending;
  return (
    <Dialog
      open
      onClose={held ? undefined : onClose}
      aria-labelledby={titleId}
      aria-describedby={description ? textId : undefined}
      fullWidth
      maxWidth={maxWidth}
      fullScreen={fullScreenOnPhone && phone}
    >
      <form noValidate onSubmit={onSubmit}>
        <DialogTitle id={titleId}>{title}</DialogTitle>
        <DialogContent>
          {description && <DialogContentText id={textId}>{description}</DialogContentText>}
          {children}
        </DialogContent>
        <DialogActions>
          {extraActions}
          <Button onClick={onClose} autoFocus={irreversible} disabled={held}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant="contained" color={submitColor} loading={pending} disabled={submitDisabled}>
            {submitLabel ?? t('common.save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
