import BookmarkAddOutlined from '@mui/icons-material/BookmarkAddOutlined';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../app/session/session.js';
import { useDialogs } from '../../components/feedback/FeedbackProvider.js';
import { showToast } from '../../components/feedback/toastStore.js';
import { InfoDialog } from '../../components/page/index.js';
import { ApiError, errorMessage } from '../../lib/api.js';
import { useTeamOptions } from '../teams/api.js';
import { type SavedReportItem, useDeleteSavedReport, useSavedReports, useSaveReport } from './api.js';
import { type ReportState, savedOf } from './reportUrl.js';

interface SavedReportsDialogProps {
  /** The report on screen, which "Save" keeps. */
  state: ReportState;
  onApply: (saved: SavedReportItem) => void;
  onClose: () => void;
}

/**
 * The saved reports of the report on screen: the reader's own and those a
 * team shares with them. Apply one, delete one of one's own (after a
 * confirmation), or save the screen's filters and layout under a name,
 * shared with a team or not.
 */
export function SavedReportsDialog({ state, onApply, onClose }: SavedReportsDialogProps) {
  const { t } = useTranslation();
  const can = useCan();
  const listId = useId();
  const dialogs = useDialogs();
  const saved = useSavedReports(state.kind);
  const teams = useTeamOptions(can('wf_equipos', 'show'));
  const [name, setName] = useState('');
  const [teamId, setTeamId] = useState('');
  const [nameError, setNameError] = useState<string | undefined>();

  const save = useSaveReport({
    onSuccess: (report) => {
      setName('');
      setTeamId('');
      showToast(t('reports.saved.savedAs', { name: report.name }), 'success');
    },
    onError: (error) => setNameError((error instanceof ApiError && error.details[0]?.message) || errorMessage(error)),
  });
  const remove = useDeleteSavedReport({ onSuccess: () => showToast(t('reports.saved.deleted'), 'success') });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const chosen = name.trim();
    if (!chosen) return setNameError(t('validation.required'));
    setNameError(undefined);
    save.mutate({ name: chosen, report: state.kind, ...savedOf(state), teamId: teamId ? Number(teamId) : null });
  };

  const confirmDelete = async (report: SavedReportItem) => {
    const confirmed = await dialogs.confirm({
      title: t('reports.saved.deleteTitle'),
      message: t('reports.saved.confirmDelete', { name: report.name }),
      confirmText: t('common.delete'),
    });
    if (confirmed) remove.mutate(report);
  };

  const items = saved.data?.items;
  return (
    <InfoDialog title={t('reports.saved.title', { report: t(`reports.names.${state.kind}`) })} onClose={onClose}>
      <Box component="form" noValidate onSubmit={submit} sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'flex-start', mt: 1 }}>
        <TextField
          size="small"
          label={t('reports.saved.name')}
          value={name}
          onChange={(event) => {
            setName(event.target.value);
            setNameError(undefined);
          }}
          error={!!nameError}
          helperText={nameError}
          slotProps={{ htmlInput: { maxLength: 100 } }}
          sx={{ flex: '1 1 200px' }}
        />
        {teams.data && (
          <TextField
            select
            size="small"
            label={t('reports.saved.shareWith')}
            value={teamId}
            onChange={(event) => setTeamId(event.target.value)}
            slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
            sx={{ flex: '1 1 200px' }}
          >
            <MenuItem value="">{t('reports.saved.notShared')}</MenuItem>
            {teams.data.items.map((team) => (
              <MenuItem key={team.id} value={String(team.id)}>
                {team.name}
              </MenuItem>
            ))}
          </TextField>
        )}
        <Button type="submit" variant="contained" startIcon={<BookmarkAddOutlined />} loading={save.isPending}>
          {t('reports.saved.save')}
        </Button>
      </Box>
      <Typography id={listId} component="h3" variant="subtitle1" sx={{ fontWeight: 600, mt: 3 }}>
        {t('reports.saved.list')}
      </Typography>
      {saved.isPending && <Skeleton height={48} />}
      {saved.isError && (
        <Alert severity="error" role="alert">
          {errorMessage(saved.error)}
        </Alert>
      )}
      {items?.length === 0 && (
        <Typography color="text.secondary" sx={{ py: 2 }}>
          {t('reports.saved.none')}
        </Typography>
      )}
      {items && items.length > 0 && (
        <List aria-labelledby={listId} dense>
          {items.map((report) => (
            <ListItem
              key={report.id}
              disablePadding
              secondaryAction={
                report.actions.includes('delete') ? (
                  <IconButton edge="end" aria-label={t('reports.saved.delete', { name: report.name })} onClick={() => void confirmDelete(report)}>
                    <DeleteOutline />
                  </IconButton>
                ) : undefined
              }
            >
              <ListItemButton onClick={() => onApply(report)}>
                <ListItemText
                  primary={report.name}
                  secondary={
                    report.actions.includes('delete')
                      ? report.teamName
                        ? t('reports.saved.sharedWith', { team: report.teamName })
                        : t('reports.saved.private')
                      : t('reports.saved.sharedBy', { owner: report.ownerName, team: report.teamName ?? '' })
                  }
                />
              </ListItemButton>
            </ListItem>
          ))}
        </List>
      )}
    </InfoDialog>
  );
}
