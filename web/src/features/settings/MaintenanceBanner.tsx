import ConstructionOutlined from '@mui/icons-material/ConstructionOutlined';
import Alert from '@mui/material/Alert';
import { useTranslation } from 'react-i18next';
import { useProjectSettings } from '../../app/project/projectSettings.js';

/**
 * Everyone signed in to a project under maintenance sees it on every page
 * (the settings page's maintenance flag; the server refuses applicants' new
 * applications and submissions meanwhile, 503 MAINTENANCE). It appears and
 * goes with the project settings, which a save refetches on every open page.
 */
export function MaintenanceBanner() {
  const { t } = useTranslation();
  const settings = useProjectSettings();
  if (!settings.maintenance) return null;
  return (
    <Alert severity="warning" icon={<ConstructionOutlined />} role="status" sx={{ mb: 2 }} data-testid="maintenance-banner">
      {t('appSettings.maintenanceBanner')}
    </Alert>
  );
}
