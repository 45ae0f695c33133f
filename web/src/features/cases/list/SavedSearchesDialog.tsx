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
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDialogs } from '../../../components/feedback/FeedbackProvider.js';
import { showToast } from '../../../components/feedback/toastStore.js';
import { InfoDialog } from '../../../components/page/index.js';
import { ApiError, errorMessage } from '../../../lib/api.js';
import { type CaseQuery, FILTER_KEYS, type SavedSearch, useDeleteSavedSearch, useSavedSearches, useSaveSearch } from '../api.js';
import { readRows } from './caseUrl.js';

/** How many conditions a saved query holds: each filter, each state, each row of the advanced search. */
function filterCount(query: Record<string, unknown>): number {
  return FILTER_KEYS.reduce((n, key) => {
    const value = query[key];
    if (key === 'filters' && typeof value === 'string') return n + readRows(value).length;
    if (Array.isArray(value)) return n + value.length;
    return n + (typeof value === 'string' && value !== '' ? 1 : 0);
  }, 0);
}

interface SavedSearchesDialogProps {
  /** The search on screen, which "Save" keeps. */
  current: CaseQuery;
  /** Whether the search on screen narrows the list (there is something to save). */
  canSave: boolean;
  onApply: (search: SavedSearch) => void;
  onClose: () => void;
}

/** My saved searches: apply one, delete one (after a confirmation), or save the search on screen under a name. */
export function SavedSearchesDialog({ current, canSave, onApply, onClose }: SavedSearchesDialogProps) {
  const { t } = useTranslation();
  const listId = useId();
  const dialogs = useDialogs();
  const saved = useSavedSearches();
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | undefined>();

  const save = useSaveSearch({
    onSuccess: (search) => {
      setName('');
      showToast(t('caseList.saved.savedAs', { name: search.name }), 'success');
    },
    onError: (error) => setNameError((error instanceof ApiError && error.details[0]?.message) || errorMessage(error)),
  });
  const remove = useDeleteSavedSearch({ onSuccess: () => showToast(t('caseList.saved.deleted'), 'success') });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const chosen = name.trim();
    if (!chosen) return setNameError(t('validation.required'));
    const exists = saved.data?.some((s) => s.name === chosen);
    setNameError(undefined);
    // The server keeps one search per name: saving under a used name replaces it.
    void (async () => {
      if (exists && !(await dialogs.confirm({ title: t('caseList.saved.replaceTitle'), message: t('caseList.saved.confirmReplace', { name: chosen }), confirmText: t('caseList.saved.replace') }))) return;
      save.mutate({ name: chosen, query: current });
    })();
  };

  const confirmDelete = async (search: SavedSearch) => {
    const confirmed = await dialogs.confirm({
      title: t('caseList.saved.deleteTitle'),
      message: t('caseList.saved.confirmDelete', { name: search.name }),
      confirmText: t('common.delete'),
    });
    if (confirmed) remove.mutate(search);
  };

  return (
    <InfoDialog title={t('caseList.saved.title')} onClose={onClose}>
      <Box component="form" noValidate onSubmit={submit} sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'flex-start', mt: 1 }}>
        <TextField
          size="small"
          label={t('caseList.saved.name')}
          value={name}
          onChange={(event) => {
            setName(event.target.value);
            setNameError(undefined);
          }}
          error={!!nameError}
          helperText={nameError ?? (canSave ? undefined : t('caseList.saved.nothingToSave'))}
          slotProps={{ htmlInput: { maxLength: 100 } }}
          sx={{ flex: '1 1 220px' }}
        />
        <Button type="submit" variant="contained" startIcon={<BookmarkAddOutlined />} disabled={!canSave} loading={save.isPending}>
          {t('caseList.saved.save')}
        </Button>
      </Box>
      <Typography id={listId} component="h3" variant="subtitle1" sx={{ fontWeight: 600, mt: 3 }}>
        {t('caseList.saved.mine')}
      </Typography>
      {saved.isPending && <Skeleton height={48} />}
      {saved.isError && (
        <Alert severity="error" role="alert">
          {errorMessage(saved.error)}
        </Alert>
      )}
      {saved.data?.length === 0 && (
        <Typography color="text.secondary" sx={{ py: 2 }}>
          {t('caseList.saved.none')}
        </Typography>
      )}
      {saved.data && saved.data.length > 0 && (
        <List aria-labelledby={listId} dense>
          {saved.data.map((search) => (
            <ListItem
              key={search.id}
              disablePadding
              secondaryAction={
                <IconButton edge="end" aria-label={t('caseList.saved.delete', { name: search.name })} onClick={() => void confirmDelete(search)}>
                  <DeleteOutline />
                </IconButton>
              }
            >
              <ListItemButton onClick={() => onApply(search)}>
                <ListItemText primary={search.name} secondary={t('caseList.saved.summary', { count: filterCount(search.query) })} />
              </ListItemButton>
            </ListItem>
          ))}
        </List>
      )}
    </InfoDialog>
  );
}
