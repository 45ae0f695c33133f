import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DIGESTED_KINDS, NOTIFICATION_KINDS, type NotificationKind } from '../../../../core/api/comments.js';
import { showToast } from '../../components/feedback/toastStore.js';
import { type NotificationPreferences, useSaveNotificationPreferences } from './api.js';

const DIGESTED = new Set<NotificationKind>(DIGESTED_KINDS);

/**
 * My choice of which events also reach me by email (the bell always shows
 * them), and the daily digest that gathers the task and mention ones. With
 * the digest on, those events' labels say so. A refusal shows as the app's
 * error toast (the mutation is not silent).
 */
export function NotificationPreferencesForm({ preferences }: { preferences: NotificationPreferences }) {
  const { t } = useTranslation();
  const [emailEvents, setEmailEvents] = useState<Set<NotificationKind>>(new Set(preferences.emailEvents));
  const [digest, setDigest] = useState(preferences.digest);
  const save = useSaveNotificationPreferences({
    onSuccess: (saved) => {
      setEmailEvents(new Set(saved.emailEvents));
      setDigest(saved.digest);
      showToast(t('notifications.preferences.saved'), 'success');
    },
  });
  const toggle = (kind: NotificationKind) => (_: unknown, checked: boolean) =>
    setEmailEvents((now) => {
      const next = new Set(now);
      if (checked) next.add(kind);
      else next.delete(kind);
      return next;
    });
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate({ emailEvents: NOTIFICATION_KINDS.filter((k) => emailEvents.has(k)), digest });
      }}
    >
      <Typography variant="body2" sx={{ mb: 2 }}>
        {t('notifications.preferences.intro')}
      </Typography>
      <FormLabel component="legend" id="notification-email-events">
        {t('notifications.preferences.byEmail')}
      </FormLabel>
      <FormGroup aria-labelledby="notification-email-events" sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
        {NOTIFICATION_KINDS.map((kind) => (
          <FormControlLabel
            key={kind}
            control={<Checkbox checked={emailEvents.has(kind)} onChange={toggle(kind)} />}
            label={digest && DIGESTED.has(kind) && emailEvents.has(kind) ? `${t(`templates.events.${kind}`)} (${t('templates.events.digest')})` : t(`templates.events.${kind}`)}
          />
        ))}
      </FormGroup>
      <FormControlLabel sx={{ mt: 2 }} control={<Switch checked={digest} onChange={(_, checked) => setDigest(checked)} />} label={t('notifications.preferences.digest')} />
      <FormHelperText>{t('notifications.preferences.digestHelp')}</FormHelperText>
      <Button type="submit" variant="contained" loading={save.isPending} sx={{ mt: 2 }}>
        {t('notifications.preferences.save')}
      </Button>
    </form>
  );
}
