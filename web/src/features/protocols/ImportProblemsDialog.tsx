import DialogContentText from '@mui/material/DialogContentText';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import { useTranslation } from 'react-i18next';
import { InfoDialog } from '../../components/page/index.js';
import type { ApiErrorDetail } from '../../lib/api.js';

/** Why an import was refused: every problem the server named, with where it is in the file. Nothing was imported. */
export function ImportProblemsDialog({ fileName, message, problems, onClose }: { fileName: string; message: string; problems: readonly ApiErrorDetail[]; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <InfoDialog title={t('protocols.import.failedTitle')} onClose={onClose} report>
      <DialogContentText>{t('protocols.import.nothingImported', { file: fileName })}</DialogContentText>
      {problems.length === 0 ? (
        <DialogContentText sx={{ mt: 1 }}>{message}</DialogContentText>
      ) : (
        <List dense aria-label={t('protocols.import.problems')}>
          {problems.map((problem, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: paths may repeat.
            <ListItem key={i} disableGutters>
              <ListItemText primary={problem.message} secondary={problem.path} slotProps={{ secondary: { sx: { fontFamily: 'monospace', overflowWrap: 'anywhere' } } }} />
            </ListItem>
          ))}
        </List>
      )}
    </InfoDialog>
  );
}
