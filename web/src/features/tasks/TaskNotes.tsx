import UndoOutlined from '@mui/icons-material/UndoOutlined';
import Alert from '@mui/material/Alert';
import { useTranslation } from 'react-i18next';
import type { TaskDetail } from './api.js';

/** What the user should know before deciding: why the task came back, an ad-hoc task's instructions, why it was rejected. */
export function TaskNotes({ task, adhoc }: { task: TaskDetail; adhoc: boolean }) {
  const { t } = useTranslation();
  const returned = task.reason && task.state !== 'REJECTED' && !adhoc;
  const instructions = adhoc && task.instructions;
  return (
    <>
      {returned && (
        <Alert severity="warning" icon={<UndoOutlined />} sx={{ mb: 2 }}>
          <strong>{t('tasks.returnedReason')}</strong> {task.reason}
        </Alert>
      )}
      {instructions && (
        <Alert severity="info" sx={{ mb: 2, whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
          <strong>{t('adhocTasks.instructionsLabel')}</strong> {task.instructions}
        </Alert>
      )}
      {task.state === 'REJECTED' && task.reason && (
        <Alert severity="info" sx={{ mb: 2 }}>
          <strong>{t('tasks.timeline.rejectReason')}</strong> {task.reason}
        </Alert>
      )}
    </>
  );
}
