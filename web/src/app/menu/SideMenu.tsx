import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import Collapse from '@mui/material/Collapse';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import type { MenuEntry, MenuGroup, MenuLink } from '../../../../core/menu.js';
import { activeLinkId } from './activeEntry.js';
import { useIsImplemented } from './implementedRoutes.js';

interface SideMenuProps {
  entries: readonly MenuEntry[];
  /** Called after a link is followed (the phone drawer closes then). */
  onNavigate?: () => void;
}

export function SideMenu({ entries, onNavigate }: SideMenuProps) {
  const { pathname } = useLocation();
  const activeId = activeLinkId(entries, pathname);
  return (
    <List component="ul" disablePadding>
      {entries.map((entry) =>
        entry.kind === 'link' ? (
          <MenuLinkItem key={entry.id} link={entry} active={entry.id === activeId} onNavigate={onNavigate} />
        ) : (
          <MenuGroupItem key={entry.id} group={entry} activeId={activeId} onNavigate={onNavigate} />
        ),
      )}
    </List>
  );
}

interface MenuLinkItemProps {
  link: MenuLink;
  active: boolean;
  nested?: boolean;
  onNavigate?: () => void;
}

/** A page the router does not have yet shows, but cannot be followed. */
function MenuLinkItem({ link, active, nested, onNavigate }: MenuLinkItemProps) {
  const { t } = useTranslation();
  const implemented = useIsImplemented()(link.path);
  const label = <ListItemText primary={t(link.labelKey)} />;
  const sx = { pl: nested ? 4 : 2 };
  return (
    <li>
      {implemented ? (
        <ListItemButton
          component={Link}
          to={link.path}
          selected={active}
          aria-current={active ? 'page' : undefined}
          onClick={onNavigate}
          sx={sx}
        >
          {label}
        </ListItemButton>
      ) : (
        <ListItemButton disabled sx={sx}>
          {label}
        </ListItemButton>
      )}
    </li>
  );
}

interface MenuGroupItemProps {
  group: MenuGroup;
  activeId: string | null;
  onNavigate?: () => void;
}

function MenuGroupItem({ group, activeId, onNavigate }: MenuGroupItemProps) {
  const { t } = useTranslation();
  const listId = useId();
  const holdsActive = group.children.some((child) => child.id === activeId);
  const [open, setOpen] = useState(holdsActive);
  return (
    <li>
      <ListItemButton onClick={() => setOpen(!open)} aria-expanded={open} aria-controls={listId}>
        <ListItemText primary={t(group.labelKey)} />
        {open ? <ExpandLess aria-hidden /> : <ExpandMore aria-hidden />}
      </ListItemButton>
      <Collapse in={open} timeout="auto">
        <List id={listId} component="ul" disablePadding>
          {group.children.map((child) => (
            <MenuLinkItem key={child.id} link={child} active={child.id === activeId} nested onNavigate={onNavigate} />
          ))}
        </List>
      </Collapse>
    </li>
  );
}
