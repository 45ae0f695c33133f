import CloudOffOutlined from '@mui/icons-material/CloudOffOutlined';
import Alert from '@mui/material/Alert';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RealtimeProvider, type RealtimeHandlers, useConnectionState } from '../../lib/realtime.js';
import { SESSION_KEY } from '../session/session.js';
import { createInvalidator } from './invalidation.js';

/** The signed-in frame's live updates: one socket, whose events refetch what is on screen. */
export function LiveUpdates({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const handlers = useMemo<RealtimeHandlers>(() => {
    const invalidator = createInvalidator(queryClient);
    return {
      changed: invalidator.changed,
      resync: invalidator.everything,
      // The session is over: reading it again sends the app to the sign-in page.
      signedOut: () => void queryClient.invalidateQueries({ queryKey: SESSION_KEY }),
    };
  }, [queryClient]);
  return <RealtimeProvider handlers={handlers}>{children}</RealtimeProvider>;
}

/** Shown while the live connection is down for more than a moment: the page still works, but others' changes wait. */
export function OfflineBanner() {
  const { t } = useTranslation();
  const state = useConnectionState();
  const [show, setShow] = useState(false);
  useEffect(() => {
    if (state !== 'offline') return setShow(false);
    const timer = setTimeout(() => setShow(true), 2000);
    return () => clearTimeout(timer);
  }, [state]);
  if (!show) return null;
  return (
    <Alert severity="warning" icon={<CloudOffOutlined fontSize="inherit" />} role="status" sx={{ mb: 2 }}>
      {t('realtime.offline')}
    </Alert>
  );
}
