import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { type Resolver, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams, Link as RouterLink, useSearchParams } from 'react-router';
import { currentProjectId } from '../../app/project/projectSettings.js';
import type { LoginLocationState } from '../../app/session/RequireSession.js';
import { nextQuery, type Session, safeNextPath, signedIn } from '../../app/session/session.js';
import { FormPasswordField, FormTextField } from '../../components/form/FormTextField.js';
import { lazyResolver, preload, showServerError } from '../../lib/forms.js';
import { AuthCard } from './AuthCard.js';
import { type SignInBy, type SignInValues, useSignIn } from './api.js';

// zod and the shared schemas load while the user types, not with the first page.
const loadAuthSchemas = () => Promise.all([import('@hookform/resolvers/zod'), import('../../../../core/auth.js')]);
// The form holds one of the two account fields; each schema reads its own (hence the casts).
const RESOLVERS: Record<SignInBy, Resolver<SignInValues, unknown, SignInValues>> = {
  email: lazyResolver(async () => {
    const [{ zodResolver }, { loginSchema }] = await loadAuthSchemas();
    return zodResolver(loginSchema) as unknown as Resolver<SignInValues, unknown, SignInValues>;
  }),
  docnumber: lazyResolver(async () => {
    const [{ zodResolver }, { documentLoginSchema }] = await loadAuthSchemas();
    return zodResolver(documentLoginSchema) as unknown as Resolver<SignInValues, unknown, SignInValues>;
  }),
};

/** The project this sign-in is for: the one in the path (/login/{id}) or the browser's. */
function useSignInProject(): string {
  const { id } = useParams();
  return id ?? currentProjectId();
}

/** After sign-in: keep the session, then go where the user was heading. */
function useSignedIn() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  return (session: Session) => {
    signedIn(queryClient, session);
    navigate(safeNextPath(params.get('next')), { replace: true });
  };
}

/** /login and /login/{id}: sign in by email and password. */
export function LoginPage() {
  const { t } = useTranslation();
  return <SignInForm by="email" title={t('login.title')} other={{ to: '/login2', label: t('login.withDocument') }} />;
}

interface SignInFormProps {
  by: SignInBy;
  title: string;
  other: SignInFrameProps['other'];
}

/** The sign-in form: the account's email or document number, and the password. */
export function SignInForm({ by, title, other }: SignInFormProps) {
  const { t } = useTranslation();
  const project = useSignInProject();
  const onSignedIn = useSignedIn();
  const [formError, setFormError] = useState<string | null>(null);
  const { control, handleSubmit, setError } = useForm<SignInValues>({
    resolver: RESOLVERS[by],
    defaultValues: { [by]: '', password: '' },
  });
  useEffect(() => preload(loadAuthSchemas), []);
  const mutation = useSignIn(by, project, {
    onSuccess: onSignedIn,
    onError: (error) => showServerError(error, setError, [by, 'password'], { otherwise: setFormError }),
  });
  const submit = handleSubmit((values) => {
    setFormError(null);
    mutation.mutate(values);
  });
  return (
    <SignInFrame title={title} error={formError} other={other}>
      <form noValidate onSubmit={submit}>
        {by === 'email' ? (
          <FormTextField control={control} name="email" label={t('login.email')} type="email" autoComplete="username" required autoFocus />
        ) : (
          <FormTextField control={control} name="docnumber" label={t('login.docnumber')} autoComplete="username" inputMode="numeric" required autoFocus />
        )}
        <FormPasswordField control={control} name="password" label={t('login.password')} autoComplete="current-password" required />
        <Button type="submit" variant="contained" fullWidth size="large" loading={mutation.isPending} sx={{ mt: 2 }}>
          {t('login.submit')}
        </Button>
      </form>
    </SignInFrame>
  );
}

interface SignInFrameProps {
  title: string;
  error: string | null;
  /** The other way to sign in (by document, or by email). */
  other: { to: string; label: string };
  children: ReactNode;
}

/** The card, why the user is here (signed out for inactivity, session ended), the error, and the links. */
function SignInFrame({ title, error, other, children }: SignInFrameProps) {
  const { t } = useTranslation();
  const { id } = useParams();
  const [params] = useSearchParams();
  const state = useLocation().state as LoginLocationState | null;
  // The other pages of the same project, and on to where the user was heading.
  const inProject = (path: string) => (id ? `${path}/${encodeURIComponent(id)}` : path);
  const next = nextQuery(params.get('next'));
  const otherPath = `${inProject(other.to)}${next}`;
  return (
    <AuthCard
      title={title}
      footer={
        <>
          <Link component={RouterLink} to="/user/recovery-password">
            {t('login.forgotPassword')}
          </Link>
          <Link component={RouterLink} to={`${inProject('/user/create-account')}${next}`}>
            {t('login.createAccount')}
          </Link>
          <Link component={RouterLink} to={otherPath}>
            {other.label}
          </Link>
        </>
      }
    >
      {state?.signedOut === 'idle' && (
        <Alert severity="info" sx={{ mb: 1 }}>
          {t('session.idleLoggedOut')}
        </Alert>
      )}
      {state?.signedOut === 'expired' && (
        <Alert severity="info" sx={{ mb: 1 }}>
          {t('errors.unauthorized')}
        </Alert>
      )}
      {error && (
        <Alert severity="error" role="alert" sx={{ mb: 1 }}>
          {error}
        </Alert>
      )}
      {children}
    </AuthCard>
  );
}
