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
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, errorMessage } from '../../lib/api.js';
import type { ConfirmOptions } from '../feedback/ConfirmDialog.js';
import { useDialogs } from '../feedback/FeedbackProvider.js';
import { InfoDialog } from './InfoDialog.js';

interface SavedItem {
  id: number | string;
  name: string;
}

/** The words of one kind of saved thing (a search, a report). */
export interface SavedItemsTexts<T> {
  nameLabel: string;
  saveButton: string;
  listHeading: string;
  none: string;
  /** The delete button's accessible name, and the question it asks. */
  deleteLabel: (item: T) => string;
  confirmDelete: (item: T) => ConfirmOptions;
  /** Asked before saving under a name the list already holds; without it the name is sent as it is. */
  confirmReplace?: (name: string) => ConfirmOptions;
  /** Under the name while there is nothing to save. */
  nothingToSave?: string;
}

interface SavedItemsDialogProps<T extends SavedItem> {
  title: string;
  texts: SavedItemsTexts<T>;
  /** The query of the saved ones (loading, failed), and its list. */
  saved: { isPending: boolean; isError: boolean; error: unknown };
  items: readonly T[] | undefined;
  /** The line under an item's name. */
  describe: (item: T) => string;
  /** Whether the reader may delete this one (their own); all by default. */
  mayDelete?: (item: T) => boolean;
  /** Whether the screen holds something to save. */
  canSave?: boolean;
  /** More fields between the name and the button (whom to share with). */
  fields?: ReactNode;
  /** Saves the screen under the name; the name field empties once it resolves, and shows why it rejected. */
  onSave: (name: string) => Promise<unknown>;
  saving: boolean;
  onDelete: (item: T) => void;
  onApply: (item: T) => void;
  onClose: () => void;
}

/**
 * Saved searches and reports alike: save what is on screen under a name,
 * apply one from the list, delete one after a confirmation.
 */
export function SavedItemsDialog<T extends SavedItem>(props: SavedItemsDialogProps<T>) {
  const { title, texts, saved, items, describe, mayDelete = () => true, canSave = true, fields, onSave, saving, onDelete, onApply, onClose } = props;
  const { t } = useTranslation();
  const listId = useId();
  const dialogs = useDialogs();
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | undefined>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const chosen = name.trim();
    if (!chosen) return setNameError(t('validation.required'));
    const replace = items?.some((item) => item.name === chosen) ? texts.confirmReplace?.(chosen) : undefined;
    setNameError(undefined);
    void (async () => {
      if (replace && !(await dialogs.confirm(replace))) return;
      try {
        await onSave(chosen);
        setName('');
      } catch (error) {
        setNameError((error instanceof ApiError && error.details[0]?.message) || errorMessage(error));
      }
    })();
  };

  const confirmDelete = async (item: T) => {
    if (await dialogs.confirm(texts.confirmDelete(item))) onDelete(item);
  };

  return (
    <InfoDialog title={title} onClose={onClose}>
      <Box component="form" noValidate onSubmit={submit} sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'flex-start', mt: 1 }}>
        <TextField
          size="small"
          label={texts.nameLabel}
          value={name}
          onChange={(event) => {
            setName(event.target.value);
            setNameError(undefined);
          }}
          error={!!nameError}
          helperText={nameError ?? (canSave ? undefined : texts.nothingToSave)}
          slotProps={{ htmlInput: { maxLength: 100 } }}
          // Beside other fields each takes a little less of the row.
          sx={{ flex: fields ? '1 1 200px' : '1 1 220px' }}
        />
        {fields}
        <Button type="submit" variant="contained" startIcon={<BookmarkAddOutlined />} disabled={!canSave} loading={saving}>
          {texts.saveButton}
        </Button>
      </Box>
      <Typography id={listId} component="h3" variant="subtitle1" sx={{ fontWeight: 600, mt: 3 }}>
        {texts.listHeading}
      </Typography>
      {saved.isPending && <Skeleton height={48} />}
      {saved.isError && (
        <Alert severity="error" role="alert">
          {errorMessage(saved.error)}
        </Alert>
      )}
      {items?.length === 0 && (
        <Typography color="text.secondary" sx={{ py: 2 }}>
          {texts.none}
        </Typography>
      )}
      {items && items.length > 0 && (
        <List aria-labelledby={listId} dense>
          {items.map((item) => (
            <ListItem
              key={item.id}
              disablePadding
              secondaryAction={
                mayDelete(item) ? (
                  <IconButton edge="end" aria-label={texts.deleteLabel(item)} onClick={() => void confirmDelete(item)}>
                    <DeleteOutline />
                  </IconButton>
                ) : undefined
              }
            >
              <ListItemButton onClick={() => onApply(item)}>
                <ListItemText primary={item.name} secondary={describe(item)} />
              </ListItemButton>
            </ListItem>
          ))}
        </List>
      )}
    </InfoDialog>
  );
}
