import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';

/** A row's name, and after it what marks it (a chip: default, built in). */
export function NameCell({ name, children }: { name: string; children?: ReactNode }) {
  return (
    <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
      <Typography variant="body2" sx={{ fontWeight: 500 }}>
        {name}
      </Typography>
      {children}
    </Box>
  );
}

interface EditDeleteActionsProps {
  /** What the server allows on the row. */
  actions: readonly string[];
  /** The row's name, in each button's accessible name. */
  name: string;
  /** Where Edit goes. */
  editTo: string;
  onDelete: () => void;
}

/** A row's Edit link and Delete button, each shown when the row allows it. */
export function EditDeleteActions({ actions, name, editTo, onDelete }: EditDeleteActionsProps) {
  const { t } = useTranslation();
  return (
    <>
      {actions.includes('edit') && (
        <Tooltip title={t('common.edit')} describeChild>
          <IconButton component={RouterLink} to={editTo} aria-label={`${t('common.edit')}: ${name}`} size="small">
            <EditOutlined fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
      {actions.includes('delete') && (
        <Tooltip title={t('common.delete')} describeChild>
          <IconButton aria-label={`${t('common.delete')}: ${name}`} onClick={onDelete} size="small">
            <DeleteOutlined fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
    </>
  );
}
