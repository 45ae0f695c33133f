import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { z } from 'zod';
import { recoverySchema } from '../../../../core/auth.js';
import { useCurrentProjectId } from '../../app/project/projectSettings.js';
import { FormTextField } from '../../components/form/FormTextField.js';
import { showServerError } from '../../lib/forms.js';
import { AuthCard } from './AuthCard.js';
import { useRequestRecovery } from './api.js';

type RecoveryValues = z.input<typeof recoverySchema>;

/** /user/recovery-password: ask for a reset link by email. The answer is the same whether or not the account exists. */
export default function RecoveryPage() {
  const { t } = useTranslation();
  const project = useCurrentProjectId();
  const [sent, setSent] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const { control, handleSubmit, setError } = useForm<RecoveryValues>({
    resolver: zodResolver(recoverySchema),
    defaultValues: { email: '' },
  });
  const mutation = useRequestRecovery(project, {
    onSuccess: (answer) => setSent(answer.message),
    onError: (error) => showServerError(error, setError, ['email'], { otherwise: setFormError }),
  });
  const submit = handleSubmit((values) => {
    setFormError(null);
    mutation.mutate(values);
  });
  return (
    <AuthCard
      title={t('recovery.title')}
      footer={
        <Link component={RouterLink} to="/login">
          {t('recovery.backToSignIn')}
        </Link>
      }
    >
      {sent ? (
        <Alert severity="success" role="status">
          {sent}
        </Alert>
      ) : (
        <>
          <Typography color="text.secondary" sx={{ mb: 1 }}>
            {t('recovery.intro')}
          </Typography>
          {formError && (
            <Alert severity="error" role="alert" sx={{ mb: 1 }}>
              {formError}
            </Alert>
          )}
          <form noValidate onSubmit={submit}>
            <FormTextField
              control={control}
              name="email"
              label={t('login.email')}
              type="email"
              autoComplete="email"
              required
              autoFocus
            />
            <Button type="submit" variant="contained" fullWidth size="large" loading={mutation.isPending} sx={{ mt: 2 }}>
              {t('recovery.submit')}
            </Button>
          </form>
        </>
      )}
    </AuthCard>
  );
}
