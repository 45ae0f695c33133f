import CheckCircleOutline from '@mui/icons-material/CheckCircleOutlined';
import ErrorOutline from '@mui/icons-material/ErrorOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog, InfoDialog } from '../../../components/page/index.js';
import type { UserOption } from '../../teams/api.js';
import { UserPicker } from '../../teams/UserPicker.js';
import type { BulkResult } from '../api.js';

interface ReassignDialogProps {
  count: number;
  pending: boolean;
  /** The server's message about the chosen user. */
  error?: string;
  onSubmit: (userId: number) => void;
  onClose: () => void;
}

/** Give the selected cases to another owner. */
export function ReassignDialog({ count, pending, error, onSubmit, onClose }: ReassignDialogProps) {
  const { t } = useTranslation();
  const [user, setUser] = useState<UserOption | null>(null);
  const [missing, setMissing] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!user) return setMissing(true);
    onSubmit(user.id);
  };
  return (
    <FormDialog
      title={t('caseList.admin.reassignTitle')}
      description={t('caseList.admin.reassignText', { count })}
      onClose={onClose}
      onSubmit={submit}
      pending={pending}
      submitLabel={t('caseList.admin.reassign')}
    >
      <UserPicker label={t('caseList.admin.newOwner')} value={user} onChange={setUser} required error={(missing && !user ? t('validation.chooseOption') : undefined) ?? error} autoFocus />
    </FormDialog>
  );
}

interface BulkReportProps {
  title: string;
  result: BulkResult;
  /** How to name a case in the report (its application number). */
  describe: (id: number) => string;
  onClose: () => void;
}

/** What a bulk action did to each case: done, or not done with the server's reason. */
export function BulkReportDialog({ title, result, describe, onClose }: BulkReportProps) {
  const { t } = useTranslation();
  const listId = useId();
  return (
    <InfoDialog title={title} onClose={onClose} report>
      <Box sx={{ display: 'grid', gap: 1 }}>
        {result.done.length > 0 && <Alert severity="success" role="status">{t('caseList.admin.done', { count: result.done.length })}</Alert>}
        {result.failed.length > 0 && <Alert severity="error">{t('caseList.admin.failed', { count: result.failed.length })}</Alert>}
      </Box>
      <List dense aria-label={t('caseList.admin.results')} id={listId}>
        {result.failed.map((failure) => (
          <ListItem key={`f${failure.id}`} disableGutters>
            <ListItemIcon sx={{ minWidth: 32 }}>
              <ErrorOutline color="error" aria-hidden />
            </ListItemIcon>
            <ListItemText primary={describe(failure.id)} secondary={failure.message} />
          </ListItem>
        ))}
        {result.done.map((id) => (
          <ListItem key={`d${id}`} disableGutters>
            <ListItemIcon sx={{ minWidth: 32 }}>
              <CheckCircleOutline color="success" aria-hidden />
            </ListItemIcon>
            <ListItemText primary={describe(id)} secondary={t('caseList.admin.doneOne')} />
          </ListItem>
        ))}
      </List>
    </InfoDialog>
  );
}
