import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { formatDate } from '../../../../core/dates.js';
import { PARTY_STATES, type PartyState } from '../../../../core/parties.js';
import { useSession } from '../../app/session/session.js';
import { FilterSelect } from '../../components/page/index.js';
import { PageHeader } from '../../components/PageHeader.js';
import { StateChip } from '../../components/StateChip.js';
import { type Column, DataTable } from '../../components/table/DataTable.js';
import { ListError } from '../../components/table/ListError.js';
import { tablePaging, useListParams } from '../../components/table/listParams.js';
import { PublicStatusChip } from '../cases/case/ApplicationStatus.js';
import { type MyPartyRow, useMyParties } from './api.js';
import { inLanguage, roleTitle, STATE_TONE } from './labels.js';

/**
 * /partes: "My tenants' applications", every case the user is a party of
 * (a landlord with many tenants), with the application's number, the
 * applicant, the address, where the application stands, the user's own part
 * and its deadline; filtered by the state of their part. Each row opens
 * their page (/partes/:id).
 */
export default function MyPartiesPage() {
  const { t, i18n } = useTranslation();
  const session = useSession();
  const list = useListParams({ sortBy: 'deadline_at' });
  const [state, setState] = useState<PartyState | ''>('');
  const query = useMyParties(list.params, state);
  const tz = session.user.timeZone;

  const columns: Column<MyPartyRow>[] = [
    {
      id: 'case',
      label: t('parties.mine.case'),
      sortKey: 'case_number',
      noWrap: true,
      render: (row) => (
        <Button component={RouterLink} to={`/partes/${row.id}`} size="small" sx={{ px: 0.5, minWidth: 0 }} aria-label={t('parties.mine.openCase', { number: row.caseNumber ?? `#${row.id}` })}>
          {row.caseNumber ?? `#${row.id}`}
        </Button>
      ),
    },
    {
      id: 'applicant',
      label: t('parties.mine.applicant'),
      render: (row) => (
        <>
          <Typography variant="body2">{row.applicantName}</Typography>
          <Typography variant="caption" color="text.secondary">
            {inLanguage(row.programme, i18n.resolvedLanguage)} · {roleTitle(t, row.role)}
          </Typography>
        </>
      ),
    },
    { id: 'address', label: t('parties.mine.address'), render: (row) => row.address ?? '—' },
    { id: 'status', label: t('parties.mine.status'), render: (row) => <PublicStatusChip status={row.caseStatus} size="small" /> },
    { id: 'state', label: t('parties.mine.state'), render: (row) => <StateChip tone={STATE_TONE[row.state]} label={t(`parties.state.${row.state}`)} /> },
    {
      id: 'deadline',
      label: t('parties.mine.deadline'),
      sortKey: 'deadline_at',
      noWrap: true,
      render: (row) => (row.submittedAt ? t('parties.mine.submittedOn', { date: formatDate(row.submittedAt, tz) }) : row.deadlineAt ? formatDate(row.deadlineAt, tz) : '—'),
    },
  ];

  return (
    <>
      <PageHeader title={t('parties.mine.title')} />
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('parties.mine.intro')}
      </Typography>
      <Paper variant="outlined" sx={{ p: { xs: 1, sm: 2 }, mb: 2 }}>
        <Box sx={{ mb: 1 }}>
          <FilterSelect<PartyState>
            label={t('parties.mine.state')}
            value={state}
            allLabel={t('parties.mine.allStates')}
            options={PARTY_STATES.filter((s) => s !== 'named').map((s) => ({ value: s, label: t(`parties.state.${s}`) }))}
            onChange={(value) => {
              setState(value);
              list.setPage(0);
            }}
          />
        </Box>
        <DataTable
          label={t('parties.mine.list')}
          columns={columns}
          rows={query.data?.items}
          total={query.data?.total ?? 0}
          getRowId={(row) => row.id}
          {...tablePaging(list)}
          loading={query.isFetching}
          emptyText={t(state ? 'parties.mine.emptyFiltered' : 'parties.mine.empty')}
        />
        <ListError error={query.error} />
      </Paper>
    </>
  );
}
