import Button from '@mui/material/Button';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import type { documentLoginSchema } from '../../../../core/auth.js';
import { FormPasswordField, FormTextField } from '../../components/form/FormTextField.js';
import { lazyResolver, preload, showServerError } from '../../lib/forms.js';
import { useSignInByDocument } from './api.js';
import { loadAuthSchemas, SignInFrame, useSignedIn, useSignInProject } from './LoginPage.js';

type DocumentValues = z.input<typeof documentLoginSchema>;

const documentResolver = lazyResolver<DocumentValues, DocumentValues>(async () => {
  const [{ zodResolver }, { documentLoginSchema }] = await loadAuthSchemas();
  return zodResolver(documentLoginSchema);
});

/** /login2 and /login2/{id}: sign in by document number and password, within the project. */
export default function DocumentLoginPage() {
  const { t } = useTranslation();
  const project = useSignInProject();
  const onSignedIn = useSignedIn();
  const [formError, setFormError] = useState<string | null>(null);
  const { control, handleSubmit, setError } = useForm<DocumentValues>({
    resolver: documentResolver,
    defaultValues: { docnumber: '', password: '' },
  });
  useEffect(() => preload(loadAuthSchemas), []);
  const mutation = useSignInByDocument(project, {
    onSuccess: onSignedIn,
    onError: (error) => showServerError(error, setError, ['docnumber', 'password'], { otherwise: setFormError }),
  });
  const submit = handleSubmit((values) => {
    setFormError(null);
    mutation.mutate(values);
  });
  return (
    <SignInFrame
      title={t('login.documentTitle')}
      error={formError}
      other={{ to: '/login', label: t('login.withEmail') }}
    >
      <form noValidate onSubmit={submit}>
        <FormTextField
          control={control}
          name="docnumber"
          label={t('login.docnumber')}
          autoComplete="username"
          inputMode="numeric"
          required
          autoFocus
        />
        <FormPasswordField
          control={control}
          name="password"
          label={t('login.password')}
          autoComplete="current-password"
          required
        />
        <Button type="submit" variant="contained" fullWidth size="large" loading={mutation.isPending} sx={{ mt: 2 }}>
          {t('login.submit')}
        </Button>
      </form>
    </SignInFrame>
  );
}

