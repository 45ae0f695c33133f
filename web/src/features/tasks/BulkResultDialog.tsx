import Alert from '@mui/material/Alert';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import { useTranslation } from 'react-i18next';
import { InfoDialog } from '../../components/page/index.js';
import type { BulkResult } from './api.js';

interface BulkResultDialogProps {
  title: string;
  result: BulkResult;
  /** How to name a task in the report (its name and application number). */
  describe: (id: number) => string;
  onClose: () => void;
}

/** What a bulk action did: how many tasks moved, and each one that did not with the server's reason. */
export function BulkResultDialog({ title, result, describe, onClose }: BulkResultDialogProps) {
  const { t } = useTranslation();
  return (
    <InfoDialog title={title} onClose={onClose} report>
      {result.done.length > 0 && (
        <Alert severity="success" sx={{ mb: 2 }}>
          {t('tasks.bulk.done', { count: result.done.length })}
        </Alert>
      )}
      {result.failed.length > 0 && (
        <>
          <Alert severity="error">{t('tasks.bulk.failed', { count: result.failed.length })}</Alert>
          <List dense aria-label={t('tasks.bulk.failures')}>
            {result.failed.map((failure) => (
              <ListItem key={failure.id} disableGutters>
                <ListItemText primary={describe(failure.id)} secondary={failure.message} />
              </ListItem>
            ))}
          </List>
        </>
      )}
    </InfoDialog>
  );
}
