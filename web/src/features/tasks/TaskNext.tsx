import ArrowForwardOutlined from '@mui/icons-material/ArrowForwardOutlined';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Section } from '../../components/page/index.js';
import type { TaskDetail } from './api.js';

interface TaskNextProps {
  task: TaskDetail;
  /** An ad-hoc task: outside the protocol, nothing comes after it. */
  adhoc: boolean;
  /** Where a reject sends the case, in words. */
  destination: string;
}

/** Where the case goes when this task is accepted (each next task and its condition) or rejected. */
export function TaskNext({ task, adhoc, destination }: TaskNextProps) {
  const { t } = useTranslation();
  return (
    <Section title={t('tasks.next.title')} id="task-next">
      {adhoc ? (
        <Typography variant="body2" color="text.secondary">
          {t('adhocTasks.outsideProtocol')}
        </Typography>
      ) : task.next.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {t('tasks.next.none')}
        </Typography>
      ) : (
        <Box component="ul" sx={{ m: 0, pl: 0, listStyle: 'none', display: 'grid', gap: 0.75 }}>
          {task.next.map((next) => (
            <Box component="li" key={next.code} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
              <ArrowForwardOutlined fontSize="small" color="action" aria-hidden sx={{ mt: 0.25 }} />
              <Box sx={{ minWidth: 0 }}>
                <Typography variant="body2" sx={{ fontWeight: 500 }}>
                  {next.name}
                </Typography>
                <Typography variant="caption" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                  {next.when ? (
                    <>
                      {t('tasks.next.when')} <code>{next.when}</code>
                    </>
                  ) : (
                    t('tasks.next.always')
                  )}
                </Typography>
              </Box>
            </Box>
          ))}
        </Box>
      )}
      {!adhoc && (
        <Typography variant="body2" sx={{ mt: 1.5 }}>
          <Box component="span" sx={{ color: 'text.secondary' }}>
            {t('tasks.next.onReject')}
          </Box>{' '}
          {destination}
        </Typography>
      )}
    </Section>
  );
}
