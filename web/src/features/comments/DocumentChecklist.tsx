import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../../core/dates.js';
import { useSession } from '../../app/session/session.js';
import { ApiError } from '../../lib/api.js';
import { QueryState, Section } from '../../components/page/index.js';
import { type ChecklistItem, useChecklist } from './api.js';

const MARK_COLOR = { missing: 'warning', received: 'info', accepted: 'success' } as const;

function MarkChip({ mark }: { mark: ChecklistItem['mark'] }) {
  const { t } = useTranslation();
  if (!mark) return <Chip size="small" variant="outlined" label={t('comments.marks.none')} />;
  return <Chip size="small" color={MARK_COLOR[mark]} variant={mark === 'accepted' ? 'filled' : 'outlined'} label={t(`comments.marks.${mark}`)} />;
}

/**
 * The case's document checklist as the comments (and the document review)
 * left it: each document's latest mark, who gave it and when.
 */
export function DocumentChecklist({ caseId }: { caseId: number }) {
  const { t } = useTranslation();
  const session = useSession();
  const query = useChecklist(caseId);
  // The checklist is for staff: someone refused it (the applicant on their own case) sees nothing here.
  if (query.error instanceof ApiError && (query.error.status === 403 || query.error.status === 404)) return null;
  return (
    <Section title={t('comments.checklist.title')}>
      <QueryState
        query={query}
        retry
        height={120}
        isEmpty={(data) => data.items.length === 0}
        empty={
          <Typography variant="body2" color="text.secondary">
            {t('comments.checklist.empty')}
          </Typography>
        }
      >
        {(data) => (
          <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1 }}>
            {data.items.map((item) => (
              <Box component="li" key={item.code} sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
                <Typography variant="body2" sx={{ flexGrow: 1, minWidth: 0 }}>
                  {item.name}
                </Typography>
                <MarkChip mark={item.mark} />
                {item.mark && (
                  <Typography variant="caption" color="text.secondary" sx={{ flexBasis: '100%' }}>
                    {[
                      item.byName,
                      item.at ? formatDateTime(item.at, session.user.timeZone) : null,
                      item.commentNumber ? t('comments.checklist.inComment', { number: item.commentNumber }) : null,
                    ]
                      .filter(Boolean)
                      .join(' · ')}
                  </Typography>
                )}
              </Box>
            ))}
          </Box>
        )}
      </QueryState>
    </Section>
  );
}
