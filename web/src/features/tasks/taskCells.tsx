import WarningAmberOutlined from '@mui/icons-material/WarningAmberOutlined';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { formatDate } from '../../../../core/dates.js';
import { useSession } from '../../app/session/session.js';
import type { Column } from '../../components/table/DataTable.js';
import { TaskStateChip } from './TaskStateChip.js';
import type { TaskItem } from './api.js';

/** A due date, marked when it has passed (icon and text, not colour alone). */
export function DueDate({ dueAt, overdue }: { dueAt: string | null; overdue: boolean }) {
  const { t } = useTranslation();
  const session = useSession();
  if (!dueAt) return <Typography variant="body2" color="text.secondary" component="span">{t('tasks.noDueDate')}</Typography>;
  const date = formatDate(dueAt, session.user.timeZone);
  if (!overdue) return <span>{date}</span>;
  return (
    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, color: 'error.dark', fontWeight: 600 }}>
      <WarningAmberOutlined fontSize="small" aria-hidden />
      <span>{date}</span>
      <Box component="span" sx={{ fontWeight: 400 }}>
        ({t('tasks.overdueMark')})
      </Box>
    </Box>
  );
}

/** The responsible person, with their team under it; "Unassigned" when nobody holds the task. */
export function Responsible({ name, team }: { name: string | null; team: string | null }) {
  const { t } = useTranslation();
  return (
    <Box component="span" sx={{ display: 'inline-flex', flexDirection: 'column' }}>
      <span>{name ?? t('tasks.nobody')}</span>
      {team && (
        <Typography variant="caption" color="text.secondary" component="span">
          {t('tasks.teamOf', { team })}
        </Typography>
      )}
    </Box>
  );
}

export function TaskLink({ id, name }: { id: number; name: string }) {
  return (
    <Link component={RouterLink} to={`/tasks/${id}`} sx={{ overflowWrap: 'normal', wordBreak: 'normal' }}>
      {name}
    </Link>
  );
}

/** The application number, a link to the case's task timeline. */
export function CaseLink({ caseId, number }: { caseId: number; number: string | null }) {
  const { t } = useTranslation();
  return (
    <Link component={RouterLink} to={`/tasks/case/${caseId}`} aria-label={t('tasks.timelineOf', { number: number ?? caseId })}>
      {number ?? `#${caseId}`}
    </Link>
  );
}

/** The columns of the task lists (/tasks, /admin-tasks). */
export function useTaskColumns(): Column<TaskItem>[] {
  const { t } = useTranslation();
  const session = useSession();
  return [
    { id: 'case', label: t('tasks.applicationNumber'), noWrap: true, render: (task) => <CaseLink caseId={task.caseId} number={task.caseNumber} /> },
    { id: 'name', label: t('tasks.task'), sortKey: 'name', render: (task) => <TaskLink id={task.id} name={task.name} /> },
    { id: 'protocol', label: t('tasks.protocol'), render: (task) => task.protocolName },
    { id: 'state', label: t('tasks.state'), sortKey: 'state', render: (task) => <TaskStateChip state={task.state} /> },
    { id: 'responsible', label: t('tasks.responsible'), render: (task) => <Responsible name={task.responsibleName} team={task.teamName} /> },
    { id: 'dueAt', label: t('tasks.dueAt'), sortKey: 'due_at', noWrap: true, render: (task) => <DueDate dueAt={task.dueAt} overdue={task.overdue} /> },
    { id: 'createdAt', label: t('tasks.createdAt'), sortKey: 'created_at', noWrap: true, render: (task) => formatDate(task.createdAt, session.user.timeZone) },
  ];
}
