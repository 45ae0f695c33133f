import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useMatches } from 'react-router';
import { NotFoundPage } from '../../features/errors/NotFoundPage.js';
import { ApiError } from '../../lib/api.js';
import { reloadPage } from '../../lib/browser.js';
import {
  ProjectSettingsContext,
  rememberedProjectId,
  rememberProject,
  setPathProject,
  useCurrentProjectId,
  useProjectSettingsQuery,
} from '../project/projectSettings.js';
import { useProjectBranding } from '../project/useProjectBranding.js';
import { usePageHeadingFocus } from '../pageFocus.js';
import type { PageHandle } from '../routeHandle.js';
import { PublicLayout } from './PublicLayout.js';

/** The project a route names in its path (/login/{id}), when its handle says the `id` parameter is one. */
function usePathProjectId(): string | null {
  const match = useMatches().findLast((m) => (m.handle as PageHandle | undefined)?.projectFromPath);
  return match?.params.id ?? null;
}

/** Wraps every page: nothing renders before the project settings are known. */
export function BlankLayout() {
  // Once for every page: after a navigation, focus goes to the new page's h1.
  usePageHeadingFocus();
  const pathId = usePathProjectId();
  // Re-renders when the remembered project changes (after sign-in, for example).
  useCurrentProjectId();
  const projectId = pathId ?? rememberedProjectId();
  const { data, isError, error } = useProjectSettingsQuery(projectId);
  useProjectBranding(data);

  // The theme, above the router, follows the project this path names.
  useEffect(() => {
    setPathProject(pathId);
    return () => setPathProject(null);
  }, [pathId]);
  // A project named in the path that exists becomes the browser's project.
  useEffect(() => {
    if (pathId && data) rememberProject(pathId);
  }, [pathId, data]);

  if (isError) {
    // /login/{unknown}: the page does not exist, like any unknown address.
    if (pathId && error instanceof ApiError && error.status === 404) {
      return (
        <PublicLayout>
          <NotFoundPage />
        </PublicLayout>
      );
    }
    return <ConfigurationErrorDialog />;
  }
  if (!data) return <LoadingProject />;
  return (
    <ProjectSettingsContext value={data}>
      <Outlet />
    </ProjectSettingsContext>
  );
}

function LoadingProject() {
  const { t } = useTranslation();
  return (
    <Box
      component="main"
      sx={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', gap: 2 }}
    >
      <CircularProgress size={24} aria-hidden />
      <Typography role="status" data-testid="loading-project">
        {t('project.loading')}
      </Typography>
    </Box>
  );
}

/** Without settings there is nothing to show; a reload is the one way on. */
function ConfigurationErrorDialog() {
  const { t } = useTranslation();
  return (
    <Dialog open aria-labelledby="config-error-title" aria-describedby="config-error-text">
      <DialogTitle id="config-error-title">{t('project.loadFailedTitle')}</DialogTitle>
      <DialogContent>
        <DialogContentText id="config-error-text">{t('project.loadFailedText')}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={reloadPage} autoFocus>
          {t('project.retry')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
