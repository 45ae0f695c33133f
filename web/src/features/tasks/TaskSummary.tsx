import PersonAddAltOutlined from '@mui/icons-material/PersonAddAltOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../../core/dates.js';
import { useSession } from '../../app/session/session.js';
import { FactsList, Section } from '../../components/page/index.js';
import type { TaskDetail } from './api.js';
import { DueDate } from './taskCells.js';
import { TaskStateChip } from './TaskStateChip.js';

/** The task's case in a few facts, and who is responsible (with "Change responsible" when the user may). */
export function TaskSummary({ task, onAssign }: { task: TaskDetail; onAssign?: () => void }) {
  const { t } = useTranslation();
  const tz = useSession().user.timeZone;
  return (
    <>
      <Section title={t('tasks.summary')} id="task-summary">
        <FactsList
          items={[
            [t('tasks.applicationNumber'), task.case.number ?? `#${task.case.id}`],
            [t('tasks.caseState'), <TaskStateChip key="s" state={task.case.state} />],
            [t('tasks.owner'), task.case.ownerName],
            [t('tasks.docDate'), task.case.docDate ? formatDate(task.case.docDate, tz) : '—'],
            [
              t('tasks.possibleDuplicated'),
              task.case.possibleDuplicated ? (
                <Box component="span" key="d" sx={{ color: 'warning.dark', fontWeight: 600 }}>
                  {t('tasks.yes')}
                </Box>
              ) : (
                t('tasks.no')
              ),
            ],
            [t('tasks.protocol'), task.protocolName],
            [t('tasks.dueAt'), <DueDate key="due" dueAt={task.dueAt} overdue={task.overdue} />],
          ]}
        />
      </Section>
      <Section title={t('tasks.responsible')} id="task-responsible">
        <FactsList
          items={[
            [t('tasks.user'), task.responsibleName ?? t('tasks.nobody')],
            [t('tasks.team'), task.teamName ?? '—'],
          ]}
        />
        {onAssign && (
          <Button
            sx={{ mt: 1.5 }}
            variant="outlined"
            size="small"
            startIcon={<PersonAddAltOutlined />}
            onClick={onAssign}
          >
            {t('tasks.changeResponsible')}
          </Button>
        )}
      </Section>
    </>
  );
}
