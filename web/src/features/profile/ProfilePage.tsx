import { zodResolver } from '@hookform/resolvers/zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { passwordChangeSchema, profileSchema } from '../../../../core/auth.js';
import { showToast } from '../../components/feedback/toastStore.js';
import { FormSelectField } from '../../components/form/FormSelectField.js';
import { FormPasswordField, FormTextField } from '../../components/form/FormTextField.js';
import { NewPasswordFields } from '../../components/form/NewPasswordFields.js';
import { TimeZoneField } from '../../components/form/TimeZoneField.js';
import { QueryState, Section } from '../../components/page/index.js';
import { PageHeader } from '../../components/PageHeader.js';
import { LANGUAGES, setLanguage } from '../../i18n/index.js';
import { showServerError } from '../../lib/forms.js';
import { type PasswordValues, type Profile, type ProfileValues, useChangePassword, useNotificationPreferences, useProfile, useSaveProfile } from './api.js';
import { MY_TOKENS } from '../tokens/api.js';
import { TokenList } from '../tokens/TokenList.js';
import { NotificationPreferencesForm } from './NotificationPreferencesForm.js';

/** /profile: my name, language (the page switches to it), time zone, my password, which notifications come by email, and my API tokens. */
export default function ProfilePage() {
  const { t } = useTranslation();
  const profile = useProfile();
  const preferences = useNotificationPreferences();
  return (
    <>
      <PageHeader title={t('profile.title')} />
      <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', lg: '1fr 1fr' }, alignItems: 'start', maxWidth: 1100 }}>
        <Section title={t('profile.details')} id="profile-details">
          <QueryState query={profile} height={320} retry>
            {(data) => <ProfileForm profile={data} />}
          </QueryState>
        </Section>
        <Section title={t('profile.changePassword')} id="profile-password">
          <PasswordForm />
        </Section>
        <Section title={t('notifications.preferences.title')} id="notifications">
          <QueryState query={preferences} height={320} retry>
            {(data) => <NotificationPreferencesForm preferences={data} />}
          </QueryState>
        </Section>
        <Section title={t('apiTokens.title')} id="api-tokens">
          <TokenList path={MY_TOKENS} />
        </Section>
      </Box>
    </>
  );
}

function ProfileForm({ profile }: { profile: Profile }) {
  const { t } = useTranslation();
  const { control, handleSubmit, setError, reset } = useForm<ProfileValues>({
    resolver: zodResolver(profileSchema),
    defaultValues: { name: profile.name, language: profile.language, timeZone: profile.timeZone },
  });
  const save = useSaveProfile({
    onSuccess: async (saved) => {
      reset({ name: saved.name, language: saved.language, timeZone: saved.timeZone });
      await setLanguage(saved.language);
    },
    onRefreshed: () => showToast(t('common.saved'), 'success'),
    onError: (error) => showServerError(error, setError, ['name', 'language', 'timeZone']),
  });
  const languageOptions = LANGUAGES.map((language) => ({ value: language, label: t(`common.languages.${language}`) }));
  return (
    <form noValidate onSubmit={handleSubmit((values) => save.mutate(values))}>
      <FormTextField control={control} name="name" label={t('userAdmin.name')} autoComplete="name" required />
      <TextField label={t('login.email')} value={profile.email} fullWidth margin="normal" slotProps={{ htmlInput: { readOnly: true } }} />
      {profile.docnumber && (
        <TextField label={t('login.docnumber')} value={profile.docnumber} fullWidth margin="normal" slotProps={{ htmlInput: { readOnly: true } }} />
      )}
      <FormSelectField control={control} name="language" label={t('common.language')} options={languageOptions} />
      <TimeZoneField control={control} name="timeZone" label={t('profile.timeZone')} />
      <Button type="submit" variant="contained" loading={save.isPending} sx={{ mt: 2 }}>
        {t('common.save')}
      </Button>
    </form>
  );
}

function PasswordForm() {
  const { t } = useTranslation();
  const { control, handleSubmit, setError, reset } = useForm<PasswordValues>({
    resolver: zodResolver(passwordChangeSchema),
    defaultValues: { currentPassword: '', password: '', passwordConfirm: '' },
  });
  const change = useChangePassword({
    onSuccess: (answer) => {
      reset();
      showToast(answer.message, 'success');
    },
    onError: (error) =>
      showServerError(error, setError, ['currentPassword', 'password', 'passwordConfirm'], {
        byCode: { WRONG_PASSWORD: 'currentPassword' },
      }),
  });
  return (
    <form noValidate onSubmit={handleSubmit((values) => change.mutate(values))}>
      <FormPasswordField
        control={control}
        name="currentPassword"
        label={t('profile.currentPassword')}
        autoComplete="current-password"
        required
      />
      <NewPasswordFields control={control} label={t('passwordReset.password')} />
      <Button type="submit" variant="contained" loading={change.isPending} sx={{ mt: 2 }}>
        {t('profile.changePassword')}
      </Button>
    </form>
  );
}
