import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import { showToast } from '../../components/feedback/toastStore.js';
import { ApiError, errorMessage } from '../../lib/api.js';
import { AuthCard } from '../auth/AuthCard.js';
import { useConfirmRegistration } from './api.js';

/**
 * /registro-entidad/confirmar/{token}: the emailed link. One button makes the
 * agency (not the page's load, so that a mail scanner opening the link, or
 * the page shown twice, makes nothing) and lands its administrator in the
 * new tenant's home. A used link says to sign in; an expired or unknown one
 * offers to register again.
 */
export default function ConfirmRegistrationPage() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<{ code: string; message: string } | null>(null);
  const mutation = useConfirmRegistration({
    onSuccess: (answer) => showToast(t('agencies.confirm.created', { agency: answer.entity.name }), 'success'),
    onRefreshed: () => navigate('/home', { replace: true }),
    onError: (error) => setFailure({ code: error instanceof ApiError ? error.code : 'INTERNAL', message: errorMessage(error) }),
  });
  const used = failure?.code === 'REGISTRATION_USED';
  const dead = failure && ['REGISTRATION_EXPIRED', 'REGISTRATION_NOT_FOUND', 'VALIDATION'].includes(failure.code);

  return (
    <AuthCard title={t('agencies.confirm.title')}>
      {failure ? (
        <Alert severity="error" role="alert" sx={{ mb: 2 }}>
          {failure.message}
        </Alert>
      ) : (
        <Typography variant="body2" sx={{ mb: 2 }}>
          {t('agencies.confirm.intro')}
        </Typography>
      )}
      <Box sx={{ display: 'grid', gap: 1 }}>
        {!used && !dead && (
          <Button variant="contained" size="large" fullWidth loading={mutation.isPending} onClick={() => mutation.mutate(token)}>
            {t('agencies.confirm.submit')}
          </Button>
        )}
        {used && (
          <Button component={RouterLink} to="/login" variant="contained" fullWidth>
            {t('agencies.confirm.signIn')}
          </Button>
        )}
        {dead && (
          <Button component={RouterLink} to="/registro-entidad" variant="contained" fullWidth>
            {t('agencies.confirm.registerAgain')}
          </Button>
        )}
      </Box>
    </AuthCard>
  );
}
