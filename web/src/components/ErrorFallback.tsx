import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { reloadPage } from '../lib/browser.js';

function describe(error: unknown): string | null {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  return null;
}

/** What any unexpected error shows: the only sure way out is a reload. */
export function ErrorFallback({ error }: { error: unknown }) {
  const { t } = useTranslation();
  return (
    <Box component="main" sx={{ p: 3, maxWidth: 640, mx: 'auto', overflowWrap: 'anywhere' }}>
      <Typography variant="h5" component="h1" gutterBottom>
        {t('errorPage.title')}
      </Typography>
      <Typography component="pre" sx={{ whiteSpace: 'pre-wrap', fontFamily: 'monospace', mb: 2 }}>
        {describe(error) ?? t('errorPage.unknown')}
      </Typography>
      <Button variant="contained" onClick={reloadPage}>
        {t('common.reload')}
      </Button>
    </Box>
  );
}
