import NotificationsOutlined from '@mui/icons-material/NotificationsOutlined';
import Badge from '@mui/material/Badge';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../../../../core/dates.js';
import { useSession } from '../../app/session/session.js';
import { type AppNotification, useMarkNotificationsRead, useNotifications } from './api.js';

/**
 * The bell of the top bar: how many notifications are unread, and a menu of
 * them (a task event links to its task, tasks of an import to the pending
 * tasks, a finished import to the imports, an application returned for
 * correction to its correction page, a webhook turned off to the webhooks
 * page, anything else to its case;
 * opened, it is marked read), and the way to the email settings. Hidden
 * when the notifications cannot be read.
 */
export function NotificationBell() {
  const { t, i18n } = useTranslation();
  const session = useSession();
  const menuId = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const query = useNotifications();
  const markRead = useMarkNotificationsRead();
  const data = query.data;
  // The bar must never fail for the bell's sake: an answer of another shape hides it like an error does.
  if (!data || !Array.isArray(data.items) || typeof data.unread !== 'number') return null;
  const close = () => setAnchor(null);
  const text = (n: AppNotification) =>
    t(`notifications.kinds.${n.kind}`, {
      name: n.byName ?? '—',
      number: n.caseNumber ?? (n.caseId ? `#${n.caseId}` : ''),
      task: n.taskName ?? '',
      file: n.detail ?? '',
      // Only the import kinds count (their texts have plural forms).
      ...((n.kind === 'tasks_imported' || n.kind === 'import_done') && { count: n.count ?? 0, n: (n.count ?? 0).toLocaleString(i18n.language) }),
    });
  // The import's file is named in the text itself.
  const detail = (n: AppNotification) => (n.kind === 'import_done' ? null : n.detail);
  const when = (n: AppNotification) => formatDateTime(n.createdAt, session.user.timeZone);
  // Imported tasks open the pending tasks, a finished import the imports; a task event its task; anything else its case.
  const target = (n: AppNotification) => {
    if (n.kind === 'tasks_imported') return '/pendings';
    if (n.kind === 'import_done') return '/cases/imports';
    if (n.kind === 'webhook_disabled') return '/configuracion/webhooks';
    // An application returned by staff (not by a protocol task) opens its correction page.
    if (n.kind === 'case_returned' && !n.taskId && n.caseId) return `/cases/${n.caseId}/correct`;
    return n.taskId && n.kind !== 'mention' ? `/tasks/${n.taskId}` : n.caseId ? `/cases/${n.caseId}` : null;
  };
  const open = (n: AppNotification) => {
    close();
    if (!n.readAt) markRead.mutate(n.id);
  };

  return (
    <>
      <IconButton
        color="inherit"
        onClick={(event) => setAnchor(event.currentTarget)}
        aria-label={t('notifications.label', { count: data.unread })}
        aria-haspopup="menu"
        aria-expanded={anchor ? true : undefined}
        aria-controls={anchor ? menuId : undefined}
      >
        <Badge badgeContent={data.unread} color="error" max={99}>
          <NotificationsOutlined />
        </Badge>
      </IconButton>
      <Menu id={menuId} anchorEl={anchor} open={anchor !== null} onClose={close} slotProps={{ paper: { sx: { maxWidth: 360, maxHeight: 420 } } }}>
        {data.items.length === 0 && <MenuItem disabled>{t('notifications.empty')}</MenuItem>}
        {data.items.map((n) => (
          <MenuItem
            key={n.id}
            {...(target(n) ? { component: Link, to: target(n) } : {})}
            onClick={() => open(n)}
            sx={{ whiteSpace: 'normal', fontWeight: n.readAt ? 'normal' : 'bold' }}
          >
            <ListItemText
              primary={text(n)}
              secondary={detail(n) ? `${detail(n)} · ${when(n)}` : when(n)}
              slotProps={{ primary: { sx: { fontWeight: 'inherit' } } }}
            />
          </MenuItem>
        ))}
        {data.unread > 0 && <Divider />}
        {data.unread > 0 && (
          <MenuItem
            onClick={() => {
              close();
              markRead.mutate(undefined);
            }}
          >
            {t('notifications.markAllRead')}
          </MenuItem>
        )}
        <Divider />
        <MenuItem component={Link} to="/profile#notifications" onClick={close}>
          {t('notifications.settings')}
        </MenuItem>
      </Menu>
    </>
  );
}
