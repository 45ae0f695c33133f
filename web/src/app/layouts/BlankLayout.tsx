import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { reloadPage } from '../../lib/browser.js';
import { ProjectSettingsContext, useProjectSettingsQuery } from '../project/projectSettings.js';
import { useProjectBranding } from '../project/useProjectBranding.js';

/** Wraps every page: nothing renders before the project settings are known. */
export function BlankLayout() {
  const { data, isError } = useProjectSettingsQuery();
  useProjectBranding(data);
  if (isError) return <ConfigurationErrorDialog />;
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
