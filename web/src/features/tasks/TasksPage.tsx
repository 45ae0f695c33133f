import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { PageHeader } from '../../components/PageHeader.js';
import { TaskList } from './TaskList.js';

/** /tasks: every task of the tenant with filters (states, protocol, team, overdue, search) and paging. */
export default function TasksPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('menu.tasks')}>
        <Button variant="outlined" component={RouterLink} to="/tareas">
          {t('adhocTasks.title')}
        </Button>
      </PageHeader>
      <TaskList label={t('menu.tasks')} emptyText={t('tasks.empty')} />
    </>
  );
}
