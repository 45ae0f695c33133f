import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { ApiError, errorMessage } from '../../../lib/api.js';

/** Why the list could not load, with what the server said about each bad part of the search. */
export function CaseListError({ error }: { error: unknown }) {
  const details = error instanceof ApiError ? error.details : [];
  const messages = [...new Set(details.map((d) => d.message))];
  return (
    <Alert severity="error" role="alert" sx={{ mt: 1 }}>
      {errorMessage(error)}
      {messages.length > 0 && (
        <Box component="ul" sx={{ m: 0, pl: 2 }}>
          {messages.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </Box>
      )}
    </Alert>
  );
}

/** The server stopped counting: the total shown is a floor. */
export function CappedNote({ total }: { total: number }) {
  const { t, i18n } = useTranslation();
  return (
    <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
      {t('caseList.capped', { count: total, total: total.toLocaleString(i18n.language) })}
    </Typography>
  );
}
