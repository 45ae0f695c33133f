import Add from '@mui/icons-material/Add';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useCan } from '../../app/session/session.js';
import { PageHeader } from '../../components/PageHeader.js';
import { TaskList } from './TaskList.js';

const ADHOC_ONLY = { adhoc: 'true' };

/**
 * /tareas: the ad-hoc tasks (made by hand on an open application, outside its
 * protocol) with the filters and paging of /tasks, and the way to make one.
 */
export default function AdhocTasksPage() {
  const { t } = useTranslation();
  const can = useCan();
  return (
    <>
      <PageHeader title={t('adhocTasks.title')}>
        {can('wf_tareas', 'create') && (
          <Button variant="contained" startIcon={<Add />} component={RouterLink} to="/tareas/nuevo">
            {t('adhocTasks.new')}
          </Button>
        )}
      </PageHeader>
      <Typography variant="body2" color="text.secondary" sx={{ mt: -1, mb: 2 }}>
        {t('adhocTasks.intro')}
      </Typography>
      <TaskList label={t('adhocTasks.title')} emptyText={t('adhocTasks.empty')} fixed={ADHOC_ONLY} />
    </>
  );
}
