import CloudDone from '@mui/icons-material/CloudDone';
import CloudOff from '@mui/icons-material/CloudOff';
import Sync from '@mui/icons-material/Sync';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../lib/api.js';
import type { AutosaveState } from './useAutosave.js';

/** 'Saved', 'Saving...' or why the last save failed, announced politely to screen readers. */
export function AutosaveStatus({ state }: { state: AutosaveState }) {
  const { t } = useTranslation();
  let content: { icon: ReactNode; text: string; color: string } | null = null;
  if (state.status === 'saving') content = { icon: <Sync fontSize="small" />, text: t('forms.autosave.saving'), color: 'text.secondary' };
  if (state.status === 'saved') content = { icon: <CloudDone fontSize="small" />, text: t('forms.autosave.saved'), color: 'success.dark' };
  if (state.status === 'error') content = { icon: <CloudOff fontSize="small" />, text: t('forms.autosave.error', { message: errorMessage(state.error) }), color: 'error.main' };
  return (
    <Box role="status" aria-live="polite" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, minHeight: 24, color: content?.color }}>
      {content && (
        <>
          {content.icon}
          <Typography variant="body2" component="span">
            {content.text}
          </Typography>
        </>
      )}
    </Box>
  );
}
