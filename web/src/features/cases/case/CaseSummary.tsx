import type { ReactNode } from 'react';
import EditOutlined from '@mui/icons-material/EditOutlined';
import GroupOutlined from '@mui/icons-material/GroupOutlined';
import PersonOutlined from '@mui/icons-material/PersonOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { formatDate, formatDateTime } from '../../../../../core/dates.js';
import { useSession } from '../../../app/session/session.js';
import { FactsList, Section } from '../../../components/page/index.js';
import { TaskStateChip } from '../../tasks/TaskStateChip.js';
import type { CaseDetail } from '../api.js';

interface CaseSummaryProps {
  c: CaseDetail;
  /** Shown for the state instead of the internal one (the applicant's plain-words status). */
  status?: ReactNode;
  /** The case number as shown (#id while it has none). */
  number: string;
  /** Change owner, when the user may: the button shows only then. */
  onChangeOwner?: () => void;
  /** Edit participants, when the user may. */
  onEditParticipants?: () => void;
}

/** The side of a case page: its key facts (with Change owner) and its participants (with Edit). */
export function CaseSummary({ c, number, status, onChangeOwner, onEditParticipants }: CaseSummaryProps) {
  const { t } = useTranslation();
  const tz = useSession().user.timeZone;
  return (
    <>
      <Section title={t('caseView.summary')}>
        <FactsList
          items={[
            [t('tasks.applicationNumber'), number],
            [t('caseView.state'), status ?? <TaskStateChip key="s" state={c.state} />],
            [t('tasks.protocol'), c.protocolName],
            [t('caseView.applicant'), c.applicant || '—'],
            [t('tasks.owner'), c.ownerName],
            [t('tasks.docDate'), c.docDate ? formatDate(c.docDate, tz) : '—'],
            [t('caseView.createdAt'), formatDateTime(c.createdAt, tz)],
            [t('caseView.updatedAt'), formatDateTime(c.updatedAt, tz)],
            [t('caseView.openTasks'), String(c.openTasks)],
            [
              t('tasks.possibleDuplicated'),
              c.possibleDuplicated ? (
                <Box component="span" key="d" sx={{ fontWeight: 700 }}>
                  {t('tasks.yes')}
                </Box>
              ) : (
                t('tasks.no')
              ),
            ],
          ]}
        />
        {onChangeOwner && (
          <Button
            sx={{ mt: 1.5 }}
            variant="outlined"
            size="small"
            startIcon={<PersonOutlined />}
            onClick={onChangeOwner}
          >
            {t('caseView.owner.title')}
          </Button>
        )}
      </Section>
      <Section
        title={t('caseView.participants.title')}
        action={
          onEditParticipants ? (
            <Button
              size="small"
              startIcon={<EditOutlined />}
              onClick={onEditParticipants}
              aria-label={t('caseView.participants.edit')}
            >
              {t('common.edit')}
            </Button>
          ) : undefined
        }
      >
        {c.participants.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            {t('caseView.participants.none')}
          </Typography>
        ) : (
          <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 0.5 }}>
            {c.participants.map((p) => (
              <Box component="li" key={p.id} sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
                <GroupOutlined fontSize="small" color="action" aria-hidden />
                <Typography variant="body2">{p.name}</Typography>
              </Box>
            ))}
          </Box>
        )}
      </Section>
    </>
  );
}
