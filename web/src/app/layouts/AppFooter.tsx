import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useMatches } from 'react-router';
import { FrontVersion } from '../../components/FrontVersion.js';
import { useSizeClass } from '../useSizeClass.js';

/** What a route declares in its `handle` to be named in the footer. */
export interface PageHandle {
  titleKey: string;
}

function isPageHandle(handle: unknown): handle is PageHandle {
  return typeof handle === 'object' && handle !== null && typeof (handle as PageHandle).titleKey === 'string';
}

/** The name of the deepest matched route that declares one. */
function usePageTitleKey(): string | null {
  const matches = useMatches();
  const handle = matches.map((match) => match.handle).findLast(isPageHandle);
  return handle?.titleKey ?? null;
}

/** Page name, size class and version: what support asks for first. */
export function AppFooter() {
  const { t } = useTranslation();
  const titleKey = usePageTitleKey();
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
