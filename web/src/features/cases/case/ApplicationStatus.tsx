import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import DescriptionOutlined from '@mui/icons-material/DescriptionOutlined';
import RadioButtonUncheckedOutlined from '@mui/icons-material/RadioButtonUncheckedOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { PublicStatus } from '../../../../../core/cases/portal.js';
import { formatDate, formatDateTime } from '../../../../../core/dates.js';
import { useSession } from '../../../app/session/session.js';
import { FactsList, QueryState, Section } from '../../../components/page/index.js';
import { correctionUrl, type PublicTimeline, usePublicTimeline } from '../api.js';

/** The colour of a public status: what asks something of the applicant stands out. */
const STATUS_COLOR: Record<PublicStatus, 'default' | 'info' | 'warning' | 'success' | 'error'> = {
  draft: 'default',
  submitted: 'info',
  in_review: 'info',
  documents_requested: 'warning',
  returned: 'warning',
  approved: 'success',
  not_approved: 'error',
  closed: 'default',
};

export function PublicStatusChip({ status, size = 'medium' }: { status: PublicStatus; size?: 'small' | 'medium' }) {
  const { t } = useTranslation();
  return <Chip color={STATUS_COLOR[status]} size={size} label={t(`casePortal.status.${status}`)} />;
}

/**
 * The applicant's view of their application (issue 18): its status in plain
 * words and what it means, its dates, the documents asked of them (by an
 * open correction or in a message) and its public steps. Built from
 * GET /api/cases/:id/public-timeline: no task names, staff or notes.
 */
export function ApplicationStatus({ caseId, mayResubmit }: { caseId: number; mayResubmit: boolean }) {
  const { t } = useTranslation();
  const session = useSession();
  const tz = session.user.timeZone;
  const query = usePublicTimeline(String(caseId), true);
  return (
    <Section title={t('casePortal.title')}>
      <QueryState query={query} height={120}>
        {(p) => (
          <Box sx={{ display: 'grid', gap: 2 }}>
            <Box>
              <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mb: 0.5 }}>
                <Typography component="span" variant="body2" color="text.secondary">
                  {t('casePortal.statusLabel')}:
                </Typography>
                <PublicStatusChip status={p.status} />
              </Box>
              <Typography>{t(`casePortal.explain.${p.status}`)}</Typography>
              {p.status === 'returned' && mayResubmit && (
                <Button sx={{ mt: 1 }} variant="contained" component={RouterLink} to={correctionUrl(caseId)}>
                  {t('casePortal.correct')}
                </Button>
              )}
            </Box>
            <FactsList
              items={[
                [t('casePortal.submittedOn'), p.submittedAt ? formatDate(p.submittedAt, tz) : '—'],
                [t('casePortal.updatedOn'), formatDate(p.updatedAt, tz)],
              ]}
            />
            <Box component="section" aria-labelledby={`docs-${caseId}`}>
              <Typography id={`docs-${caseId}`} component="h3" variant="subtitle1" sx={{ fontWeight: 600 }}>
                {t('casePortal.documentsTitle')}
              </Typography>
              {p.requestedDocuments.length === 0 ? (
                <Typography variant="body2" color="text.secondary">
                  {t('casePortal.documentsNone')}
                </Typography>
              ) : (
                <Box component="ul" sx={{ m: 0, p: 0, listStyle: 'none', display: 'grid', gap: 0.5 }}>
                  {p.requestedDocuments.map((d) => (
                    <Box component="li" key={d.code} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
                      <DescriptionOutlined fontSize="small" color="warning" aria-hidden sx={{ mt: 0.25 }} />
                      <Typography variant="body2" sx={{ minWidth: 0, overflowWrap: 'anywhere' }}>
                        <strong>{d.name}</strong>{' '}
                        <Typography component="span" variant="body2" color="text.secondary">
                          ({t(d.source === 'correction' ? 'casePortal.fromCorrection' : 'casePortal.fromMessage')})
                        </Typography>
                      </Typography>
                    </Box>
                  ))}
                </Box>
              )}
            </Box>
            <Box component="section" aria-labelledby={`progress-${caseId}`}>
              <Typography id={`progress-${caseId}`} component="h3" variant="subtitle1" sx={{ fontWeight: 600, mb: 0.5 }}>
                {t('casePortal.timeline')}
              </Typography>
              <PublicSteps events={p.events} tz={tz} />
            </Box>
          </Box>
        )}
      </QueryState>
    </Section>
  );
}

/** A case's public steps, oldest first, the last one still open (the applicant's and a party's view). */
export function PublicSteps({ events, tz }: { events: PublicTimeline['events']; tz: string }) {
  const { t } = useTranslation();
  return (
    <>
      {events.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {t('casePortal.noEvents')}
        </Typography>
      ) : (
        <Box component="ol" sx={{ m: 0, p: 0, listStyle: 'none' }}>
          {events.map((e, index) => {
            const last = index === events.length - 1;
            const Icon = last ? RadioButtonUncheckedOutlined : CheckCircleOutlined;
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: steps have no id; their order is fixed.
              <Box component="li" key={index} sx={{ display: 'flex', gap: 1, pb: last ? 0 : 1.5, position: 'relative' }}>
                <Icon fontSize="small" color={last ? 'primary' : 'success'} aria-hidden sx={{ mt: 0.25, flexShrink: 0 }} />
                <Box sx={{ minWidth: 0 }}>
                  <Typography variant="body2" sx={{ fontWeight: 500 }}>
                    {t(`casePortal.event.${e.kind}`)}
                  </Typography>
                  <Typography variant="caption" color="text.secondary" component="p">
                    {formatDateTime(e.at, tz)}
                  </Typography>
                  {e.documents.length > 0 && (
                    <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                      {e.documents.join(', ')}
                    </Typography>
                  )}
                </Box>
              </Box>
            );
          })}
        </Box>
      )}
    </>
  );
}
