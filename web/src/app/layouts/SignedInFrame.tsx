import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Toolbar from '@mui/material/Toolbar';
import { Suspense, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { PageFallback } from '../../components/PageFallback.js';
import { MaintenanceBanner } from '../../features/settings/MaintenanceBanner.js';
import { LiveUpdates, OfflineBanner } from '../realtime/LiveUpdates.js';
import { RequireRouteTarget } from '../session/RequireSession.js';
import { useSizeClass } from '../useSizeClass.js';
import { AppFooter } from './AppFooter.js';
import { SideNav } from './SideNav.js';
import { TopBar } from './TopBar.js';

const MAIN_ID = 'main-content';

/** The signed-in frame: top bar, side menu, the page and a footer. */
export default function SignedInFrame() {
  const sizeClass = useSizeClass();
  const docked = sizeClass !== 'xs' && sizeClass !== 'sm';
  const menuId = useId();
  // Docked, the menu starts open; on phones it starts closed. Each keeps its own state.
  const [dockedOpen, setDockedOpen] = useState(true);
  const [phoneOpen, setPhoneOpen] = useState(false);
  const open = docked ? dockedOpen : phoneOpen;
  const toggle = () => (docked ? setDockedOpen(!dockedOpen) : setPhoneOpen(!phoneOpen));

  return (
    <LiveUpdates>
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      <SkipLink />
      <TopBar aboveMenu={docked} menuOpen={open} menuId={menuId} onToggleMenu={toggle} />
      <SideNav id={menuId} open={open} docked={docked} onClose={() => setPhoneOpen(false)} />
      <Box sx={{ flexGrow: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
        <Toolbar />
        <Box component="main" id={MAIN_ID} tabIndex={-1} sx={{ flexGrow: 1, p: { xs: 2, md: 3 }, outline: 'none' }}>
          <OfflineBanner />
          <MaintenanceBanner />
          <RequireRouteTarget>
            <Suspense fallback={<PageFallback />}>
              <Outlet />
            </Suspense>
          </RequireRouteTarget>
        </Box>
        <AppFooter />
      </Box>
    </Box>
    </LiveUpdates>
  );
}

/** Lets keyboard users jump over the top bar and the menu; visible only when focused. */
function SkipLink() {
  const { t } = useTranslation();
  return (
    <Link
      href={`#${MAIN_ID}`}
      sx={{
        position: 'absolute',
        left: 8,
        top: -48,
        zIndex: (theme) => theme.zIndex.tooltip,
        p: 1,
        bgcolor: 'background.paper',
        '&:focus': { top: 8 },
      }}
    >
      {t('layout.skipToContent')}
    </Link>
  );
}
