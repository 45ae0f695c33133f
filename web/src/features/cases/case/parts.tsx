import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';

/**
 * Someone else saved this application while it was open here: what was typed
 * is still in the form, and the user chooses whose version stays.
 */
export function ConflictAlert({ onKeepMine, onLoadSaved }: { onKeepMine: () => void; onLoadSaved: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert severity="warning" role="alert" sx={{ mb: 2 }}>
      <AlertTitle>{t('cases.errors.stale')}</AlertTitle>
      {t('caseView.editor.conflictKept')}
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 1 }}>
        <Button size="small" variant="contained" onClick={onKeepMine}>
          {t('caseView.editor.keepMine')}
        </Button>
        <Button size="small" variant="outlined" onClick={onLoadSaved}>
          {t('caseView.editor.loadSaved')}
        </Button>
      </Box>
    </Alert>
  );
}
