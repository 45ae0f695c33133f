import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import Toolbar from '@mui/material/Toolbar';
import { useTranslation } from 'react-i18next';
import { SideMenu } from '../menu/SideMenu.js';
import { useMenuEntries } from '../menu/useMenuEntries.js';

export const DRAWER_WIDTH = 260;

interface SideNavProps {
  id: string;
  open: boolean;
  /** Wide screens keep the menu beside the page; phones slide it over the page. */
  docked: boolean;
  onClose: () => void;
}

export function SideNav({ id, open, docked, onClose }: SideNavProps) {
  const { t } = useTranslation();
  const entries = useMenuEntries();
  const label = t('layout.mainMenu');

  if (!docked) {
    // MUI makes the sliding drawer a modal dialog; the dialog is named, the nav landmark sits inside.
    return (
      <Drawer
        variant="temporary"
        open={open}
        onClose={onClose}
        slotProps={{ paper: { 'aria-label': label, sx: { width: DRAWER_WIDTH, maxWidth: '85vw' } } }}
      >
        <Box component="nav" id={id} aria-label={label}>
          <SideMenu entries={entries} onNavigate={onClose} />
        </Box>
      </Drawer>
    );
  }

  const width = open ? DRAWER_WIDTH : 0;
  return (
    <Drawer
      variant="permanent"
      sx={{ width, flexShrink: 0, transition: (theme) => theme.transitions.create('width') }}
      slotProps={{
        paper: {
          // Collapsed, it must also leave the tab order and the accessibility tree.
          sx: { width, overflowX: 'hidden', visibility: open ? 'visible' : 'hidden' },
        },
      }}
    >
      <Toolbar />
      <Box component="nav" id={id} aria-label={label}>
        <SideMenu entries={entries} />
      </Box>
    </Drawer>
  );
}
