import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiErrorDetail } from '../../../lib/api.js';

interface BpmnUnsupportedDialogProps {
  fileName: string;
  /** Each element the engine cannot run: its id (`path`) and what dropping it does (`message`). */
  elements: readonly ApiErrorDetail[];
  dropping: boolean;
  onDrop: () => void;
  onClose: () => void;
}

/**
 * A BPMN file refused for what the engine cannot run (timers, messages,
 * service tasks ...): every element with its id and what dropping it does.
 * Nothing was imported; "Drop them and import" sends the file again with
 * the drop flag. Cancel holds the focus, so a hasty Enter drops nothing.
 */
export function BpmnUnsupportedDialog({ fileName, elements, dropping, onDrop, onClose }: BpmnUnsupportedDialogProps) {
  const { t } = useTranslation();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const titleId = useId();
  const textId = useId();
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} aria-describedby={textId} fullWidth maxWidth="sm" fullScreen={phone}>
      <DialogTitle id={titleId}>{t('protocols.bpmn.unsupportedTitle')}</DialogTitle>
      <DialogContent>
        <DialogContentText id={textId}>{t('protocols.bpmn.unsupportedIntro', { file: fileName, count: elements.length })}</DialogContentText>
        <List dense aria-label={t('protocols.bpmn.unsupportedList')}>
          {elements.map((element, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: an element may be named twice (a loop on a task and its timer).
            <ListItem key={i} disableGutters>
              <ListItemText primary={element.path} secondary={element.message} slotProps={{ primary: { sx: { fontFamily: 'monospace', overflowWrap: 'anywhere' } } }} />
            </ListItem>
          ))}
        </List>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} autoFocus disabled={dropping}>
          {t('common.cancel')}
        </Button>
        <Button onClick={onDrop} variant="contained" loading={dropping}>
          {t('protocols.bpmn.dropAndImport')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
