import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { InstallPlan } from './api.js';

/** The preview's (or dry run's) report: what will be created, what conflicts and how, and what stops it. */
export function PlanReport({ plan }: { plan: InstallPlan }) {
  const { t } = useTranslation();
  const isNew = (i: InstallPlan['items'][number]) => i.action === 'create' || i.action === 'fill';
  const created = plan.items.filter(isNew);
  const conflicts = plan.items.filter((i) => !isNew(i));
  const row = (i: InstallPlan['items'][number]) => (
    <ListItem key={`${i.kind}:${i.code}`} disableGutters sx={{ flexWrap: 'wrap', gap: 1 }}>
      <Chip size="small" label={t(`gallery.plan.kinds.${i.kind}`)} />
      <ListItemText primary={i.name} secondary={i.action === 'create' ? i.code : t(`gallery.plan.actions.${i.action}`, { as: i.as })} sx={{ minWidth: 0, overflowWrap: 'anywhere' }} />
    </ListItem>
  );
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <Typography>{t('gallery.plan.project', { title: plan.project.title, uid: plan.project.uid })}</Typography>
      {plan.problems.length > 0 && (
        <Alert severity="error" role="alert">
          <Typography component="h3" variant="subtitle2">
            {t('gallery.plan.problems')}
          </Typography>
          <List dense disablePadding>
            {plan.problems.map((p) => (
              <ListItem key={`${p.path}:${p.message}`} disableGutters>
                <ListItemText primary={p.message} secondary={p.path} sx={{ overflowWrap: 'anywhere' }} />
              </ListItem>
            ))}
          </List>
        </Alert>
      )}
      <section aria-label={t('gallery.plan.created')}>
        <Typography component="h3" variant="subtitle1">
          {t('gallery.plan.created')}
        </Typography>
        <List dense>{created.map(row)}</List>
      </section>
      <section aria-label={t('gallery.plan.conflicts')}>
        <Typography component="h3" variant="subtitle1">
          {t('gallery.plan.conflicts')}
        </Typography>
        {conflicts.length === 0 ? <Typography color="text.secondary">{t('gallery.plan.noConflicts')}</Typography> : <List dense>{conflicts.map(row)}</List>}
      </section>
    </Box>
  );
}
