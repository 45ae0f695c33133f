import Box from '@mui/material/Box';
import { Outlet } from 'react-router';
import { FrontVersion } from '../../components/FrontVersion.js';
import { LanguageSwitch } from '../../components/LanguageSwitch.js';

/** Pages for anyone, signed in or not: the content and a footer. */
export function PublicLayout() {
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      <Box component="main" sx={{ flexGrow: 1, p: { xs: 2, md: 3 }, minWidth: 0 }}>
        <Outlet />
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
