import MenuIcon from '@mui/icons-material/Menu';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { LanguageSwitch } from '../../components/LanguageSwitch.js';
import { NotificationBell } from '../../features/comments/NotificationBell.js';
import { useProjectSettings } from '../project/projectSettings.js';
import { signOut, useSessionUser } from '../session/session.js';
import { SupportHint } from './SupportHint.js';
import { UserMenu } from './UserMenu.js';

interface TopBarProps {
  /** Beside a docked menu the bar spans it; a sliding menu must cover the bar instead. */
  aboveMenu: boolean;
  menuOpen: boolean;
  menuId: string;
  onToggleMenu: () => void;
}

export function TopBar({ aboveMenu, menuOpen, menuId, onToggleMenu }: TopBarProps) {
  const { t } = useTranslation();
  const settings = useProjectSettings();
  const user = useSessionUser();
  const queryClient = useQueryClient();
  return (
    <AppBar position="fixed" sx={aboveMenu ? { zIndex: (theme) => theme.zIndex.drawer + 1 } : undefined}>
      <Toolbar sx={{ gap: { xs: 1, sm: 2 } }}>
        <IconButton
          color="inherit"
          edge="start"
          onClick={onToggleMenu}
          aria-label={t('layout.toggleMenu')}
          aria-expanded={menuOpen}
          aria-controls={menuId}
        >
          <MenuIcon />
        </IconButton>
        {settings.logo && <Box component="img" src={settings.logo} alt="" sx={{ height: 32 }} />}
        <Typography variant="h6" component="p" noWrap sx={{ flexGrow: 1, minWidth: 0 }}>
          {settings.title}
        </Typography>
        <SupportHint phone={settings.supportPhone} />
        <LanguageSwitch />
        <NotificationBell />
        <UserMenu name={user.name} onExit={() => void signOut(queryClient, 'exit')} />
      </Toolbar>
    </AppBar>
  );
}
