import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../../core/dates.js';
import { useSession } from '../../app/session/session.js';
import { showToast } from '../../components/feedback/toastStore.js';
import { FormDialog } from '../../components/page/FormDialog.js';

/** A subscription's whole secret (just made, rotated, or asked for), with a copy button. */
export function SecretDialog({ url, secret, previousUntil, onClose }: { url: string; secret: string; previousUntil?: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  const session = useSession();
  const copy = async () => {
    await navigator.clipboard?.writeText(secret);
    showToast(t('webhooks.copied'), 'success');
  };
  return (
    <FormDialog
      title={t('webhooks.secretTitle', { url })}
      onClose={onClose}
      onSubmit={(e) => {
        e.preventDefault();
        onClose();
      }}
      submitLabel={t('webhooks.done')}
      extraActions={<Button onClick={() => void copy()}>{t('webhooks.copy')}</Button>}
    >
      <Alert severity="info" sx={{ mb: 2 }}>
        {t('webhooks.secretIntro')}
      </Alert>
      <TextField
        label={t('webhooks.secret')}
        value={secret}
        fullWidth
        slotProps={{ htmlInput: { readOnly: true, spellCheck: false, style: { fontFamily: 'monospace' } } }}
        onFocus={(e) => e.target.select()}
      />
      {previousUntil && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
          {t('webhooks.previousUntil', { date: formatDateTime(previousUntil, session.user.timeZone) })}
        </Typography>
      )}
    </FormDialog>
  );
}
