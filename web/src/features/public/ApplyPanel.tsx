import ArrowForwardOutlined from '@mui/icons-material/ArrowForwardOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import { sessionQuery, signOut } from '../../app/session/session.js';
import type { ApplicationsState, PublicProgrammeDetail } from './api.js';

/** Why applications cannot start now (nothing when they can): the deadline passed, or the form is under maintenance. */
export function ApplicationsNotice({ state }: { state: ApplicationsState }) {
  const { t } = useTranslation();
  if (state === 'maintenance') {
    return (
      <Alert severity="info" data-testid="applications-maintenance">
        {t('public.maintenance')}
      </Alert>
    );
  }
  if (state === 'closed') {
    return (
      <Alert severity="warning" data-testid="applications-closed">
        {t('cases.errors.applicationsClosed')}
      </Alert>
    );
  }
  return null;
}

/** The new-application page, straight at this programme's form. */
export const applyUrl = (protocolId: number) => `/cases/new?protocol=${protocolId}`;

/**
 * How a visitor applies to a programme, by who they are:
 * - applications closed or under maintenance: why, and no way in;
 * - signed out: sign in, or create an account, both in the entity's project
 *   and both coming back here afterwards (`?next=` this page);
 * - signed in to this entity with the right to start applications: Apply,
 *   straight to the form of this programme;
 * - signed in to this entity without that right, or to another entity: why
 *   not, and (for another entity) a way to sign out.
 */
export function ApplyPanel({ programme, title }: { programme: PublicProgrammeDetail; title: string }) {
  const { t } = useTranslation();
  const location = useLocation();
  const queryClient = useQueryClient();
  const session = useQuery(sessionQuery);
  const { entity } = programme;

  if (entity.applications !== 'open') return <ApplicationsNotice state={entity.applications} />;
  if (session.isPending) {
    return (
      <Box role="status" sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <CircularProgress size={20} aria-hidden />
        <Typography>{t('public.checkingSession')}</Typography>
      </Box>
    );
  }
  const user = session.data;
  if (!user) {
    const next = `?next=${encodeURIComponent(location.pathname + location.search)}`;
    const project = encodeURIComponent(entity.project);
    return (
      <>
        <Typography sx={{ mb: 2 }}>{t('public.signInToApply')}</Typography>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
          <Button variant="contained" component={RouterLink} to={`/login/${project}${next}`}>
            {t('public.signIn')}
          </Button>
          <Button variant="outlined" component={RouterLink} to={`/user/create-account/${project}${next}`}>
            {t('public.createAccount')}
          </Button>
        </Box>
      </>
    );
  }
  if (user.user.entity.docnumber !== entity.docnumber) {
    return (
      <>
        <Alert severity="info" sx={{ mb: 2 }}>
          {t('public.otherEntity', { entity: user.user.entity.name, name: entity.name })}
        </Alert>
        <Button variant="outlined" onClick={() => void signOut(queryClient, 'exit')}>
          {t('public.signOut')}
        </Button>
      </>
    );
  }
  const mayApply = user.targets.includes('borradores') && (user.rules.borradores ?? []).includes('create_drafts');
  if (!mayApply) return <Alert severity="info">{t('public.cannotApply', { name: entity.name })}</Alert>;
  return (
    <Button
      variant="contained"
      size="large"
      component={RouterLink}
      to={applyUrl(programme.id)}
      endIcon={<ArrowForwardOutlined />}
      aria-label={t('public.applyTo', { title })}
    >
      {t('public.apply')}
    </Button>
  );
}
