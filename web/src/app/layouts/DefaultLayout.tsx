import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { lazyPage } from '../../lib/lazyPage.js';
import { RequireSession } from '../session/RequireSession.js';

/**
 * The frame (top bar, menu, footer) loads with the first signed-in page, not
 * with the sign-in page: a visitor who is not signed in never needs it.
 */
const SignedInFrame = lazyPage(() => import('./SignedInFrame.js'));

/** The layout of every page that needs a session: without one the user goes to /login. */
export function DefaultLayout() {
  return (
    <RequireSession>
      <Suspense fallback={<FrameFallback />}>
        <SignedInFrame />
      </Suspense>
    </RequireSession>
  );
}

function FrameFallback() {
  const { t } = useTranslation();
  return (
    <Box component="main" sx={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
      <CircularProgress aria-label={t('common.loading')} />
    </Box>
  );
}
