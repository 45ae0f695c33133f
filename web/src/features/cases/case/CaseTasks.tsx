import AddTaskOutlined from '@mui/icons-material/AddTaskOutlined';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { QueryState, Section } from '../../../components/page/index.js';
import { TaskTimeline } from '../../tasks/CaseTimelinePage.js';
import { useCaseTimeline } from '../../tasks/api.js';

/** A case's tasks as a timeline, with "New task" when the user may add an ad-hoc one. */
export function CaseTasks({ caseId, mayAddTask }: { caseId: string; mayAddTask: boolean }) {
  const { t } = useTranslation();
  const timeline = useCaseTimeline(caseId, true);
  return (
    <Section
      title={t('caseView.tasks')}
      action={
        mayAddTask ? (
          <Button size="small" startIcon={<AddTaskOutlined />} component={RouterLink} to={`/tareas/nuevo?case=${caseId}`}>
            {t('adhocTasks.new')}
          </Button>
        ) : undefined
      }
    >
      <QueryState
        query={timeline}
        height={120}
        isEmpty={(data) => data.tasks.length === 0}
        empty={<Typography color="text.secondary">{t('tasks.timeline.empty')}</Typography>}
      >
        {(data) => <TaskTimeline tasks={data.tasks} headingLevel="h3" />}
      </QueryState>
    </Section>
  );
}
