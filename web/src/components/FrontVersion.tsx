import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

/** The version of this front-end build, as support asks for it. */
export function FrontVersion() {
  const { t } = useTranslation();
  return (
    <Typography variant="caption" data-testid="front-version" title={t('common.version', { version: __APP_VERSION__ })}>
      v{__APP_VERSION__}
    </Typography>
  );
}
