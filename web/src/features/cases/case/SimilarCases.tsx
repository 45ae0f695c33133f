import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { formatDate } from '../../../../../core/dates.js';
import { useSession } from '../../../app/session/session.js';
import { QueryState, Section } from '../../../components/page/index.js';
import { TaskStateChip } from '../../tasks/TaskStateChip.js';
import { useSimilarCases } from '../api.js';

/** Applications that share this one's identifying fields or name (target aplicacionessimilares). */
export function SimilarCases({ caseId }: { caseId: string }) {
  const { t } = useTranslation();
  const session = useSession();
  const similar = useSimilarCases(caseId, true);
  return (
    <Section title={t('caseView.similar.title')}>
      <QueryState
        query={similar}
        height={80}
        isEmpty={(items) => items.length === 0}
        empty={
          <Typography variant="body2" color="text.secondary">
            {t('caseView.similar.none')}
          </Typography>
        }
      >
        {(items) => (
        <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1 }}>
          {items.map((s) => (
            <Box component="li" key={s.id} sx={{ display: 'grid', gap: 0.25 }}>
              <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
                <Link component={RouterLink} to={`/cases/${s.id}`} sx={{ fontWeight: 500, mr: 'auto' }}>
                  {s.number ?? `#${s.id}`}
                </Link>
                <TaskStateChip state={s.state} />
              </Box>
              <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                {[s.applicant, s.docDate ? formatDate(s.docDate, session.user.timeZone) : null].filter(Boolean).join(' · ')}
              </Typography>
            </Box>
          ))}
        </Box>
        )}
      </QueryState>
    </Section>
  );
}
