import Avatar from '@mui/material/Avatar';
import AvatarGroup from '@mui/material/AvatarGroup';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { PresenceUser } from '../../../core/realtime.js';

const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]?.toUpperCase())
    .join('');

/** Who else has this page open (the spec's "user joined" / "user left"); nothing when no one else does. */
export function Presence({ users, me }: { users: PresenceUser[]; me: number }) {
  const { t } = useTranslation();
  const others = users.filter((u) => u.id !== me);
  if (others.length === 0) return null;
  const names = others.map((u) => u.name).join(', ');
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }} data-testid="presence">
      <AvatarGroup max={4} sx={{ '& .MuiAvatar-root': { width: 28, height: 28, fontSize: 13 } }}>
        {others.map((u) => (
          <Tooltip key={u.id} title={u.name}>
            <Avatar alt={u.name}>{initials(u.name)}</Avatar>
          </Tooltip>
        ))}
      </AvatarGroup>
      <Typography variant="body2" color="text.secondary" role="status">
        {t('realtime.alsoHere', { names })}
      </Typography>
    </Stack>
  );
}
