import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { FrontVersion } from '../../components/FrontVersion.js';
import { usePageHandle } from '../routeHandle.js';
import { useSizeClass } from '../useSizeClass.js';

/** Page name, size class and version: what support asks for first. */
export function AppFooter() {
  const { t } = useTranslation();
  const titleKey = usePageHandle()?.titleKey ?? null;
  const sizeClass = useSizeClass();
  return (
    <Box
      component="footer"
      sx={{
        display: 'flex',
        flexWrap: 'wrap',
        alignItems: 'center',
        gap: 2,
        px: 2,
        py: 1,
        borderTop: 1,
        borderColor: 'divider',
      }}
    >
      <Typography variant="caption" sx={{ flexGrow: 1 }}>
        {titleKey ? t(titleKey) : ''}
      </Typography>
      <Typography variant="caption" data-testid="size-class" title={t('layout.sizeClass')}>
        {sizeClass}
      </Typography>
      <FrontVersion />
    </Box>
  );
}
