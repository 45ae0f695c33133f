import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { formatDateTime } from '../../../../core/dates.js';
import { STATE_COLORS, type TaskState } from '../../../../core/workflow/states.js';
import { useSession } from '../../app/session/session.js';
import { type Fact, FactsList, QueryState } from '../../components/page/index.js';
import { PageHeader } from '../../components/PageHeader.js';
import { DueDate } from './taskCells.js';
import { TaskStateChip } from './TaskStateChip.js';
import { type CaseTimeline, useCaseTimeline } from './api.js';

/** /tasks/case/:caseId: the tasks of one application as a vertical timeline, oldest first. */
export default function CaseTimelinePage() {
  const { t } = useTranslation();
  const { caseId = '' } = useParams();
  const query = useCaseTimeline(caseId);
  const data = query.data;

  return (
    <>
      <PageHeader title={t('tasks.timeline.title', { number: data?.number ?? (data ? `#${data.caseId}` : '') })}>
        {data && <TaskStateChip state={data.state} size="medium" />}
      </PageHeader>
      <QueryState query={query} retry isEmpty={(timeline) => timeline.tasks.length === 0} empty={<Typography color="text.secondary">{t('tasks.timeline.empty')}</Typography>}>
        {(timeline) => <TaskTimeline tasks={timeline.tasks} />}
      </QueryState>
    </>
  );
}

/** The tasks of one application as a vertical timeline, oldest first; `headingLevel` fits the page it sits in. */
export function TaskTimeline({ tasks, headingLevel = 'h2' }: { tasks: CaseTimeline['tasks']; headingLevel?: 'h2' | 'h3' }) {
  const { t } = useTranslation();
  const session = useSession();
  const when = (value: string | null) => (value ? formatDateTime(value, session.user.timeZone) : '');
  return (
    <Box component="ol" aria-label={t('tasks.timeline.label')} sx={{ listStyle: 'none', p: 0, m: 0 }}>
      {tasks.map((task, index) => {
        const last = index === tasks.length - 1;
        const color = STATE_COLORS[task.state as TaskState] ?? '#757575';
        const facts: Fact[] = [
          [t('tasks.responsible'), `${task.responsibleName ?? t('tasks.nobody')}${task.teamName ? ` · ${t('tasks.teamOf', { team: task.teamName })}` : ''}`],
          [t('tasks.createdAt'), when(task.createdAt)],
        ];
        if (task.dueAt && !task.decidedAt) facts.push([t('tasks.dueAt'), <DueDate key="due" dueAt={task.dueAt} overdue={task.overdue} />]);
        if (task.decidedAt) facts.push([t('tasks.timeline.decided'), task.decidedBy ? t('tasks.timeline.decidedBy', { when: when(task.decidedAt), who: task.decidedBy }) : when(task.decidedAt)]);
        return (
          <Box component="li" key={task.id} sx={{ display: 'grid', gridTemplateColumns: '24px 1fr', columnGap: 1.5 }}>
            <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center' }} aria-hidden>
              <Box sx={{ width: 16, height: 16, mt: 2.25, borderRadius: '50%', bgcolor: color, border: 3, borderColor: 'background.paper', boxShadow: 1 }} />
              {!last && <Box sx={{ flexGrow: 1, width: 2, bgcolor: 'divider' }} />}
            </Box>
            <Paper variant="outlined" sx={{ p: 2, mb: 2, minWidth: 0 }}>
              <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mb: 0.5 }}>
                <Typography component={headingLevel} variant="subtitle1" sx={{ fontWeight: 600, mr: 'auto', overflowWrap: 'anywhere' }}>
                  <Link component={RouterLink} to={`/tasks/${task.id}`}>
                    {task.name}
                  </Link>
                </Typography>
                <TaskStateChip state={task.state} />
              </Box>
              <FactsList items={facts} />
              {task.reason && (
                <Alert severity={task.state === 'REJECTED' ? 'warning' : 'info'} sx={{ mt: 1 }}>
                  <strong>{t(task.state === 'REJECTED' ? 'tasks.timeline.rejectReason' : 'tasks.returnedReason')}</strong> {task.reason}
                </Alert>
              )}
            </Paper>
          </Box>
        );
      })}
    </Box>
  );
}
