import CheckOutlined from '@mui/icons-material/CheckOutlined';
import CloseOutlined from '@mui/icons-material/CloseOutlined';
import RestartAltOutlined from '@mui/icons-material/RestartAltOutlined';
import SaveOutlined from '@mui/icons-material/SaveOutlined';
import TimelineOutlined from '@mui/icons-material/TimelineOutlined';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { ActionToolbar } from '../../components/page/index.js';
import type { TaskDetail } from './api.js';
import type { TaskDecisions } from './useTaskDecisions.js';

interface TaskActionsProps {
  task: TaskDetail;
  decisions: TaskDecisions;
}

/** The task's decisions this user has (the `actions` the server lists), then the link to the case's timeline. */
export function TaskActions({ task, decisions }: TaskActionsProps) {
  const { t } = useTranslation();
  const can = (action: TaskDetail['actions'][number]) => task.actions.includes(action);
  const { busy, pending } = decisions;
  return (
    <ActionToolbar label={t('tasks.decisions')}>
      {can('accept') && (
        <Button variant="contained" color="success" startIcon={<CheckOutlined />} onClick={decisions.accept} disabled={busy} loading={pending.accept}>
          {t('tasks.accept')}
        </Button>
      )}
      {can('reject') && (
        <Button variant="outlined" color="error" startIcon={<CloseOutlined />} onClick={decisions.rejecting.show} disabled={busy}>
          {t('tasks.rejectAction')}
        </Button>
      )}
      {can('save') && task.form && (
        <Button variant="outlined" startIcon={<SaveOutlined />} onClick={decisions.save} disabled={busy} loading={pending.save}>
          {t('common.save')}
        </Button>
      )}
      {can('restart') && (
        <Button variant="outlined" startIcon={<RestartAltOutlined />} onClick={decisions.restart} disabled={busy} loading={pending.restart}>
          {t('tasks.restart')}
        </Button>
      )}
      <Button component={RouterLink} to={`/tasks/case/${task.caseId}`} startIcon={<TimelineOutlined />}>
        {t('tasks.caseTimeline')}
      </Button>
    </ActionToolbar>
  );
}
