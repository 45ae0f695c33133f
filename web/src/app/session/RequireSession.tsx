import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { showToast } from '../../components/feedback/toastStore.js';
import { errorMessage } from '../../lib/api.js';
import { rememberedProjectId, rememberProject } from '../project/projectSettings.js';
import { usePageHandle } from '../routeHandle.js';
import { startIdleTimer } from './idleTimer.js';
import {
  endSessionLocally,
  SESSION_KEY,
  type Session,
  SessionContext,
  SIGN_OUT_STORAGE_KEY,
  type SignOutReason,
  sessionQuery,
  signOut,
  signOutReason,
  useSession,
} from './session.js';

/** The sign-in page gets where to return to (unless the user chose to leave) and why they are there. */
export interface LoginLocationState {
  signedOut?: SignOutReason;
}

/**
 * Pages of the default layout need a session: without one the user goes to
 * /login, with the page they wanted in `?next=`.
 */
export function RequireSession({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { data, error, refetch } = useQuery(sessionQuery);
  const location = useLocation();

  if (data) {
    return (
      <SessionContext value={data}>
        <SessionKeeper session={data} />
        {children}
      </SessionContext>
    );
  }
  if (data === null) {
    const reason = signOutReason();
    const next = reason === 'exit' ? '' : `?next=${encodeURIComponent(location.pathname + location.search)}`;
    const state: LoginLocationState | undefined = reason ? { signedOut: reason } : undefined;
    return <Navigate to={`/login${next}`} replace state={state} />;
  }
  if (error) {
    return (
      <Box component="main" sx={{ p: 3, maxWidth: 560, mx: 'auto' }}>
        <Typography role="alert" sx={{ mb: 2 }}>
          {errorMessage(error)}
        </Typography>
        <Button variant="contained" onClick={() => void refetch()}>
          {t('project.retry')}
        </Button>
      </Box>
    );
  }
  return (
    <Box component="main" sx={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
      <CircularProgress aria-label={t('common.loading')} />
    </Box>
  );
}

/** While signed in: the idle sign-out, the sign-outs of other tabs, and the session's project. */
function SessionKeeper({ session }: { session: Session }) {
  const queryClient = useQueryClient();
  const idleMs = session.idleTimeoutSeconds * 1000;

  useEffect(() => {
    const timer = startIdleTimer({
      timeoutMs: idleMs,
      onIdle: () => void signOut(queryClient, 'idle'),
      // Activity in the page also keeps the server's session (same idle time) alive.
      keepAliveMs: Math.max(30_000, idleMs / 3),
      onKeepAlive: () => void queryClient.invalidateQueries({ queryKey: SESSION_KEY }),
    });
    return () => timer.stop();
  }, [idleMs, queryClient]);

  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key !== SIGN_OUT_STORAGE_KEY || !event.newValue) return;
      endSessionLocally(queryClient, event.newValue.startsWith('idle') ? 'idle' : 'exit');
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [queryClient]);

  // The pages show the branding of the project the user signed in to.
  useEffect(() => {
    if (session.project && session.project !== rememberedProjectId()) rememberProject(session.project);
  }, [session.project]);

  return null;
}

/**
 * Renders the page only when the user holds its route's target; otherwise
 * sends them to /home with 'The user does not have permission to the page'.
 */
export function RequireRouteTarget({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const session = useSession();
  const target = usePageHandle()?.target;
  const allowed = !target || session.targets.includes(target);
  const navigate = useNavigate();
  const location = useLocation();
  const refused = useRef<string | null>(null);

  useEffect(() => {
    // Once per visit, even when effects run twice.
    if (allowed || refused.current === location.key) return;
    refused.current = location.key;
    showToast(t('errors.forbidden'));
    navigate('/home', { replace: true });
  }, [allowed, location.key, navigate, t]);

  return allowed ? children : null;
}
