import Box from '@mui/material/Box';
import { type ReactNode, Suspense } from 'react';
import { Outlet } from 'react-router';
import { FrontVersion } from '../../components/FrontVersion.js';
import { LanguageSwitch } from '../../components/LanguageSwitch.js';
import { PageFallback } from '../../components/PageFallback.js';

/** Pages for anyone, signed in or not: the content and a footer. */
export function PublicLayout({ children }: { children?: ReactNode }) {
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      <Box component="main" sx={{ flexGrow: 1, p: { xs: 2, md: 3 }, minWidth: 0 }}>
        <Suspense fallback={<PageFallback />}>{children ?? <Outlet />}</Suspense>
      </Box>
      <Box
        component="footer"
        sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 2, px: 2, py: 1 }}
      >
        <LanguageSwitch />
        <FrontVersion />
      </Box>
    </Box>
  );
}
