import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { signupSchema } from '../../../../core/auth.js';
import { useCurrentProjectId } from '../../app/project/projectSettings.js';
import { nextQuery } from '../../app/session/session.js';
import { FormTextField } from '../../components/form/FormTextField.js';
import { NewPasswordFields } from '../../components/form/NewPasswordFields.js';
import { ApiError } from '../../lib/api.js';
import { showServerError } from '../../lib/forms.js';
import { AuthCard } from './AuthCard.js';
import { useSignUp } from './api.js';
import { CaptchaField, useCaptchaRound } from './CaptchaField.js';

type SignUpValues = z.input<typeof signupSchema>;
const FIELDS = ['name', 'email', 'docnumber', 'password', 'passwordConfirm', 'captcha'] as const;

/**
 * /user/create-account and /user/create-account/{project}: an applicant
 * creates their account, after the captcha, in the project of the path (or
 * the browser's). The server answers alike whether or not the address already
 * has an account (what happened goes to the address by email), so the page
 * only shows that answer, and the way to sign in: in the same project, and
 * on to the page the visitor came from (`?next=`, a path of this app only).
 */
export default function SignUpPage() {
  const { t } = useTranslation();
  const project = useCurrentProjectId();
  const { id } = useParams();
  const [params] = useSearchParams();
  const signInPath = `/login${id ? `/${encodeURIComponent(id)}` : ''}${nextQuery(params.get('next'))}`;
  const [created, setCreated] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const { control, handleSubmit, setError, setValue } = useForm<SignUpValues>({
    resolver: zodResolver(signupSchema),
    // A party's invitation link (/partes/invitacion) fills in the name and email the applicant gave.
    defaultValues: { name: params.get('name') ?? '', email: params.get('email') ?? '', docnumber: '', password: '', passwordConfirm: '', captcha: '' },
  });
  const captcha = useCaptchaRound(() => setValue('captcha', ''));
  const mutation = useSignUp(project, {
    onSuccess: (answer) => setCreated(answer.message),
    onError: (error) => {
      showServerError(error, setError, FIELDS, {
        byCode: { CAPTCHA_REQUIRED: 'captcha' },
        otherwise: setFormError,
      });
      // The server refused the captcha: a new one.
      if (error instanceof ApiError && error.code === 'CAPTCHA_REQUIRED') captcha.renew();
    },
  });

  if (created) {
    return (
      <AuthCard title={t('signup.title')}>
        <Alert severity="success" role="status" sx={{ mb: 2 }}>
          {created}
        </Alert>
        <Button component={RouterLink} to={signInPath} variant="contained" fullWidth>
          {t('signup.goToSignIn')}
        </Button>
      </AuthCard>
    );
  }

  const submit = handleSubmit((values) => {
    setFormError(null);
    mutation.mutate(values);
  });
  return (
    <AuthCard
      title={t('signup.title')}
      footer={
        <Link component={RouterLink} to={signInPath}>
          {t('signup.haveAccount')}
        </Link>
      }
    >
      {formError && (
        <Alert severity="error" role="alert" sx={{ mb: 1 }}>
          {formError}
        </Alert>
      )}
      <form noValidate onSubmit={submit}>
        <FormTextField control={control} name="name" label={t('signup.name')} autoComplete="name" required autoFocus />
        <FormTextField control={control} name="email" label={t('login.email')} type="email" autoComplete="email" required />
        <FormTextField
          control={control}
          name="docnumber"
          label={t('signup.docnumber')}
          helperText={t('signup.optional')}
          inputMode="numeric"
        />
        <NewPasswordFields control={control} label={t('login.password')} />
        <CaptchaField key={captcha.round} control={control} name="captcha" />
        <Button type="submit" variant="contained" fullWidth size="large" loading={mutation.isPending}>
          {t('signup.submit')}
        </Button>
      </form>
    </AuthCard>
  );
}
