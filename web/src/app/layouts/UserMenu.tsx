import Logout from '@mui/icons-material/Logout';
import PersonOutline from '@mui/icons-material/PersonOutlineOutlined';
import Avatar from '@mui/material/Avatar';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListSubheader from '@mui/material/ListSubheader';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

interface UserMenuProps {
  name: string;
  onExit: () => void;
}

function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0]?.toUpperCase())
    .join('');
}

export function UserMenu({ name, onExit }: UserMenuProps) {
  const { t } = useTranslation();
  const menuId = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const close = () => setAnchor(null);
  return (
    <>
      <IconButton
        onClick={(event) => setAnchor(event.currentTarget)}
        aria-label={t('layout.account')}
        aria-haspopup="menu"
        aria-expanded={anchor ? true : undefined}
        aria-controls={anchor ? menuId : undefined}
        size="small"
      >
        <Avatar sx={{ width: 32, height: 32, fontSize: 14, bgcolor: 'accent.main', color: 'accent.contrastText' }}>
          {initials(name)}
        </Avatar>
      </IconButton>
      <Menu id={menuId} anchorEl={anchor} open={anchor !== null} onClose={close}>
        {/* A subheader, not an item: the keyboard skips it and lands on the first action. */}
        <ListSubheader sx={{ lineHeight: 2.5 }}>{name}</ListSubheader>
        <MenuItem component={Link} to="/profile" onClick={close}>
          <ListItemIcon>
            <PersonOutline fontSize="small" aria-hidden />
          </ListItemIcon>
          {t('profile.title')}
        </MenuItem>
        <MenuItem
          onClick={() => {
            close();
            onExit();
          }}
        >
          <ListItemIcon>
            <Logout fontSize="small" aria-hidden />
          </ListItemIcon>
          {t('layout.exit')}
        </MenuItem>
      </Menu>
    </>
  );
}
