import ContentCopyOutlined from '@mui/icons-material/ContentCopyOutlined';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { formatDate } from '../../../../../core/dates.js';
import { useSession } from '../../../app/session/session.js';
import type { Column } from '../../../components/table/DataTable.js';
import type { PublicStatus } from '../../../../../core/cases/portal.js';
import { PublicStatusChip } from '../case/ApplicationStatus.js';
import { TaskStateChip } from '../../tasks/TaskStateChip.js';
import type { CaseItem } from '../api.js';

/** The application number, a link to the case. */
export function CaseNumberLink({ item }: { item: CaseItem }) {
  const { t } = useTranslation();
  return (
    <Link component={RouterLink} to={`/cases/${item.id}`} aria-label={t('caseList.openCase', { number: item.number ?? `#${item.id}` })}>
      {item.number ?? `#${item.id}`}
    </Link>
  );
}

/** "Possible duplicate" in words and an icon, not colour alone. */
function DuplicateMark() {
  const { t } = useTranslation();
  return (
    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, typography: 'caption', fontWeight: 600 }}>
      <ContentCopyOutlined sx={{ fontSize: 16, color: 'warning.main' }} aria-hidden />
      {t('caseList.possibleDuplicate')}
    </Box>
  );
}

/**
 * The columns of the case lists (/cases, /admin-cases). `publicStatuses`,
 * given for an applicant's own list, shows each case's status in plain words
 * (as its page does) instead of the internal state.
 */
export function useCaseColumns(publicStatuses?: ReadonlyMap<number, PublicStatus>): Column<CaseItem>[] {
  const { t } = useTranslation();
  const session = useSession();
  const zone = session.user.timeZone;
  return [
    {
      id: 'number',
      label: t('caseList.columns.number'),
      sortKey: 'serial',
      render: (item) => (
        <Box component="span" sx={{ display: 'inline-flex', flexDirection: 'column', whiteSpace: 'nowrap' }}>
          <CaseNumberLink item={item} />
          <Typography variant="caption" color="text.secondary" component="span" sx={{ whiteSpace: 'normal' }}>
            {item.protocolName}
          </Typography>
        </Box>
      ),
    },
    {
      id: 'applicant',
      label: t('caseList.columns.applicant'),
      render: (item) => (
        <Box component="span" sx={{ display: 'inline-flex', flexDirection: 'column' }}>
          <span>{item.applicant}</span>
          {item.possibleDuplicated && <DuplicateMark />}
        </Box>
      ),
    },
    {
      id: 'state',
      label: t('caseList.columns.state'),
      sortKey: 'state',
      render: (item) => {
        const status = publicStatuses?.get(item.id);
        return status ? <PublicStatusChip status={status} size="small" /> : <TaskStateChip state={item.state} />;
      },
    },
    { id: 'owner', label: t('caseList.columns.owner'), render: (item) => item.ownerName },
    { id: 'docDate', label: t('caseList.columns.docDate'), sortKey: 'doc_date', noWrap: true, render: (item) => (item.docDate ? formatDate(item.docDate, zone) : '') },
    { id: 'openTasks', label: t('caseList.columns.openTasks'), align: 'right', render: (item) => String(item.openTasks) },
  ];
}
