import AddOutlined from '@mui/icons-material/AddOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { AGENCY_PLAN_NAMES } from '../../../../core/agencies.js';
import { AGENCY_STATES } from '../../../../core/api/agencies.js';
import { formatDateTime } from '../../../../core/dates.js';
import { useSession } from '../../app/session/session.js';
import { FilterBar, FilterSelect } from '../../components/page/index.js';
import { PageHeader } from '../../components/PageHeader.js';
import { StateChip } from '../../components/StateChip.js';
import { type Column, DataTable } from '../../components/table/DataTable.js';
import { ListError } from '../../components/table/ListError.js';
import { tablePaging, useListParams } from '../../components/table/listParams.js';
import { SearchField } from '../../components/table/SearchField.js';
import { type Agency, type AgencyFilter, useAgencies } from './api.js';
import { RequireOperator } from './RequireOperator.js';

const NO_FILTER: AgencyFilter = { state: '', plan: '' };

/**
 * /crear-entidad (platform operators): every agency with its state, plan and
 * accounts used of its limit; search, filters and paging; each opens in the
 * editor (/crear-entidad/{id}), and "New agency" opens it empty.
 */
export default function AgenciesPage() {
  return (
    <RequireOperator>
      <AgencyList />
    </RequireOperator>
  );
}

function AgencyList() {
  const { t, i18n } = useTranslation();
  const session = useSession();
  const list = useListParams({ sortBy: 'name' });
  const [filter, setFilter] = useState<AgencyFilter>(NO_FILTER);
  const query = useAgencies(list.params, filter);
  const narrowing = Object.values(filter).filter(Boolean).length;
  const change = (next: Partial<AgencyFilter>) => {
    setFilter((f) => ({ ...f, ...next }));
    list.setPage(0);
  };
  const number = (n: number) => n.toLocaleString(i18n.language);

  const columns: Column<Agency>[] = [
    {
      id: 'name',
      label: t('agencies.list.name'),
      sortKey: 'name',
      render: (a) => (
        <Link component={RouterLink} to={`/crear-entidad/${a.id}`} sx={{ overflowWrap: 'anywhere' }}>
          {a.name}
        </Link>
      ),
    },
    { id: 'docnumber', label: t('agencies.list.docnumber'), sortKey: 'docnumber', render: (a) => a.docnumber },
    {
      id: 'state',
      label: t('agencies.list.state'),
      render: (a) => <StateChip tone={a.active ? 'positive' : 'negative'} label={t(`agencies.list.states.${a.active ? 'active' : 'inactive'}`)} />,
    },
    { id: 'plan', label: t('agencies.list.plan'), sortKey: 'plan', render: (a) => t(`agencies.plans.${a.plan}`) },
    { id: 'accounts', label: t('agencies.list.accounts'), align: 'right', render: (a) => t('agencies.list.accountsOf', { used: number(a.accountsUsed), limit: number(a.accountLimit) }) },
    { id: 'disk', label: t('agencies.list.disk'), align: 'right', noWrap: true, render: (a) => t('agencies.list.diskMb', { mb: number(a.diskQuotaMb) }) },
    { id: 'created', label: t('agencies.list.created'), sortKey: 'created_at', noWrap: true, render: (a) => formatDateTime(a.createdAt, session.user.timeZone) },
  ];

  return (
    <>
      <PageHeader title={t('agencies.list.title')}>
        <Button component={RouterLink} to="/crear-entidad/nuevo" variant="contained" startIcon={<AddOutlined />}>
          {t('agencies.list.new')}
        </Button>
      </PageHeader>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('agencies.list.intro')}
      </Typography>
      <Paper variant="outlined" sx={{ p: { xs: 1, sm: 2 } }}>
        <FilterBar
          search={<SearchField onSearch={list.setSearch} label={t('agencies.list.search')} />}
          narrowing={narrowing}
          clearable={narrowing > 0}
          onClear={() => change(NO_FILTER)}
        >
          <FilterSelect
            label={t('agencies.list.state')}
            value={filter.state}
            allLabel={t('agencies.list.allStates')}
            options={AGENCY_STATES.map((value) => ({ value, label: t(`agencies.list.states.${value}`) }))}
            onChange={(state) => change({ state })}
          />
          <FilterSelect
            label={t('agencies.list.plan')}
            value={filter.plan}
            allLabel={t('agencies.list.allPlans')}
            options={AGENCY_PLAN_NAMES.map((value) => ({ value, label: t(`agencies.plans.${value}`) }))}
            onChange={(plan) => change({ plan })}
          />
        </FilterBar>
        <DataTable
          label={t('agencies.list.title')}
          columns={columns}
          rows={query.data?.items}
          total={query.data?.total ?? 0}
          getRowId={(a) => a.id}
          {...tablePaging(list)}
          loading={query.isFetching}
          emptyText={list.params.search || narrowing ? t('dataTable.noMatches') : t('agencies.list.empty')}
          actions={(a) => (
            <Tooltip title={t('agencies.list.edit')} describeChild>
              <IconButton component={RouterLink} to={`/crear-entidad/${a.id}`} aria-label={`${t('agencies.list.edit')}: ${a.name}`} size="small">
                <EditOutlined fontSize="small" />
              </IconButton>
            </Tooltip>
          )}
        />
        <ListError error={query.error} />
      </Paper>
      <Box sx={{ height: 8 }} />
    </>
  );
}
