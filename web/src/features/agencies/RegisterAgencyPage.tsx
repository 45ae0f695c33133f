import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { AGENCY_PLANS, type AgencyPlanName } from '../../../../core/agencies.js';
import { registrationBody } from '../../../../core/api/agencies.js';
import { FormTextField } from '../../components/form/FormTextField.js';
import { FormSelectField } from '../../components/form/FormSelectField.js';
import { NewPasswordFields } from '../../components/form/NewPasswordFields.js';
import type { Language } from '../../i18n/index.js';
import { ApiError } from '../../lib/api.js';
import { showServerError } from '../../lib/forms.js';
import { AuthCard } from '../auth/AuthCard.js';
import { CaptchaField, useCaptchaRound } from '../auth/CaptchaField.js';
import { type RegistrationForm, useRegisterAgency } from './api.js';

const FIELDS = ['docnumber', 'name', 'adminName', 'email', 'password', 'passwordConfirm', 'language', 'captcha'] as const;

/**
 * /registro-entidad (standard plan) and /registro-entidad-premium: an agency
 * registers itself with its first administrator, after the captcha. The
 * server keeps the registration and emails a link; this page then says to
 * check the email. A docnumber or name already taken is said under its field.
 */
export default function RegisterAgencyPage({ plan = 'standard' }: { plan?: AgencyPlanName }) {
  const { t, i18n } = useTranslation();
  const [mailed, setMailed] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const limits = AGENCY_PLANS[plan];
  const { control, handleSubmit, setError, setValue } = useForm<RegistrationForm>({
    resolver: zodResolver(registrationBody),
    defaultValues: {
      docnumber: '', name: '', adminName: '', email: '', password: '', passwordConfirm: '', captcha: '', plan,
      language: (i18n.resolvedLanguage === 'es' ? 'es' : 'en') as Language,
    },
  });
  const captcha = useCaptchaRound(() => setValue('captcha', ''));
  const mutation = useRegisterAgency({
    onSuccess: (answer) => setMailed(answer.message),
    onError: (error) => {
      showServerError(error, setError, FIELDS, {
        byCode: { CAPTCHA_REQUIRED: 'captcha', AGENCY_DOCNUMBER_TAKEN: 'docnumber', AGENCY_NAME_TAKEN: 'name' },
        otherwise: setFormError,
      });
      // A solution is good once: a new widget after any refusal past the form's validation (the captcha was spent).
      if (error instanceof ApiError && error.code !== 'VALIDATION') captcha.renew();
    },
  });
  const title = t(plan === 'premium' ? 'agencies.register.premiumTitle' : 'agencies.register.title');
  const footer = (
    <>
      <Link component={RouterLink} to={plan === 'premium' ? '/registro-entidad' : '/registro-entidad-premium'}>
        {t(plan === 'premium' ? 'agencies.register.toStandard' : 'agencies.register.toPremium')}
      </Link>
      <Link component={RouterLink} to="/login">
        {t('agencies.register.haveAccount')}
      </Link>
    </>
  );

  if (mailed) {
    return (
      <AuthCard title={t('agencies.register.checkEmailTitle')}>
        <Alert severity="success" role="status" sx={{ mb: 2 }}>
          {mailed}
        </Alert>
        <Typography variant="body2" color="text.secondary">
          {t('agencies.register.checkEmailHint')}
        </Typography>
      </AuthCard>
    );
  }

  const submit = handleSubmit((values) => {
    setFormError(null);
    mutation.mutate(values);
  });
  return (
    <AuthCard title={title} footer={footer}>
      <Typography variant="body2" sx={{ mb: 1 }}>
        {t('agencies.register.intro')}
      </Typography>
      <Typography variant="body2" color="text.secondary" data-testid="plan">
        {t('agencies.register.planIs', {
          plan: t(`agencies.plans.${plan}`),
          limits: t('agencies.planLimits', { accounts: limits.accountLimit.toLocaleString(i18n.language), disk: limits.diskQuotaMb.toLocaleString(i18n.language) }),
        })}
      </Typography>
      {formError && (
        <Alert severity="error" role="alert" sx={{ mt: 1 }}>
          {formError}
        </Alert>
      )}
      <form noValidate onSubmit={submit} aria-label={title}>
        <Typography variant="subtitle2" component="h2" sx={{ mt: 2 }}>
          {t('agencies.register.agencySection')}
        </Typography>
        <FormTextField control={control} name="name" label={t('agencies.register.name')} autoComplete="organization" required autoFocus />
        <FormTextField control={control} name="docnumber" label={t('agencies.register.docnumber')} helperText={t('agencies.register.docnumberHint')} required />
        <Typography variant="subtitle2" component="h2" sx={{ mt: 2 }}>
          {t('agencies.register.adminSection')}
        </Typography>
        <FormTextField control={control} name="adminName" label={t('agencies.register.adminName')} autoComplete="name" required />
        <FormTextField control={control} name="email" label={t('agencies.register.email')} type="email" autoComplete="email" required />
        <NewPasswordFields control={control} label={t('login.password')} />
        <FormSelectField
          control={control}
          name="language"
          label={t('agencies.register.language')}
          options={[
            { value: 'en', label: 'English' },
            { value: 'es', label: 'Español' },
          ]}
        />
        <CaptchaField key={captcha.round} control={control} name="captcha" />
        <Button type="submit" variant="contained" fullWidth size="large" loading={mutation.isPending}>
          {t('agencies.register.submit')}
        </Button>
      </form>
    </AuthCard>
  );
}
