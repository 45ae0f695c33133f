import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import type { z } from 'zod';
import { passwordResetSchema } from '../../../../core/auth.js';
import { NewPasswordFields } from '../../components/form/NewPasswordFields.js';
import { ApiError } from '../../lib/api.js';
import { showServerError } from '../../lib/forms.js';
import { AuthCard } from './AuthCard.js';
import { useResetPassword } from './api.js';

type ResetValues = z.input<typeof passwordResetSchema>;

/** /change-password/{token}: the link from the recovery email; a new password, twice. */
export default function ChangePasswordPage() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const [done, setDone] = useState<string | null>(null);
  const [linkError, setLinkError] = useState<string | null>(null);
  const { control, handleSubmit, setError } = useForm<ResetValues>({
    resolver: zodResolver(passwordResetSchema),
    defaultValues: { token, password: '', passwordConfirm: '' },
  });
  const mutation = useResetPassword({
    onSuccess: (answer) => setDone(answer.message),
    onError: (error) => {
      if (error instanceof ApiError && (error.code === 'INVALID_RESET_LINK' || error.details.some((d) => d.path === 'token'))) {
        setLinkError(error.code === 'INVALID_RESET_LINK' ? error.message : (error.details.find((d) => d.path === 'token')?.message ?? error.message));
        return;
      }
      showServerError(error, setError, ['password', 'passwordConfirm'], { otherwise: setLinkError });
    },
  });
  // The token is checked by the schema too: a malformed link says so at the first try.
  const submit = handleSubmit(
    (values) => {
      setLinkError(null);
      mutation.mutate({ ...values, token });
    },
    (errors) => {
      if (errors.token?.message) setLinkError(t(errors.token.message));
    },
  );

  const signInLink = (
    <Button component={RouterLink} to="/login" variant="contained" fullWidth>
      {t('signup.goToSignIn')}
    </Button>
  );
  if (done) {
    return (
      <AuthCard title={t('passwordReset.title')}>
        <Alert severity="success" role="status" sx={{ mb: 2 }}>
          {done}
        </Alert>
        {signInLink}
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title={t('passwordReset.title')}
      footer={
        <Link component={RouterLink} to="/user/recovery-password">
          {t('passwordReset.newLink')}
        </Link>
      }
    >
      {linkError && (
        <Alert severity="error" role="alert" sx={{ mb: 1 }}>
          {linkError}
        </Alert>
      )}
      <form noValidate onSubmit={submit}>
        <NewPasswordFields control={control} label={t('passwordReset.password')} autoFocus />
        <Button type="submit" variant="contained" fullWidth size="large" loading={mutation.isPending} sx={{ mt: 2 }}>
          {t('passwordReset.submit')}
        </Button>
      </form>
    </AuthCard>
  );
}
