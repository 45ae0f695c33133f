import Add from '@mui/icons-material/Add';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import GroupOutlined from '@mui/icons-material/GroupOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { type ReactElement, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useCan } from '../../app/session/session.js';
import { useDialogs } from '../../components/feedback/FeedbackProvider.js';
import { showToast } from '../../components/feedback/toastStore.js';
import { PageHeader } from '../../components/PageHeader.js';
import { StateChip } from '../../components/StateChip.js';
import { type Column, DataTable } from '../../components/table/DataTable.js';
import { tablePaging, useListParams } from '../../components/table/listParams.js';
import { SearchField } from '../../components/table/SearchField.js';
import { TeamDialog } from './TeamDialog.js';
import { type TeamItem, useDeleteTeam, useTeamList } from './api.js';
import { ListError } from '../../components/table/ListError.js';

/** /equipos: the teams, how each assigns tasks, its members and open tasks; create, edit, delete. */
export default function TeamsPage() {
  const { t } = useTranslation();
  const can = useCan();
  const dialogs = useDialogs();
  const list = useListParams({ sortBy: 'name' });
  const query = useTeamList(list.params);
  const [editing, setEditing] = useState<TeamItem | 'new' | null>(null);
  const remove = useDeleteTeam({ onSuccess: () => showToast(t('common.deleted'), 'success') });

  const confirmDelete = async (team: TeamItem) => {
    const confirmed = await dialogs.confirm({
      title: t('teams.deleteTitle'),
      message: t('teams.confirmDelete', { name: team.name }),
      confirmText: t('common.delete'),
    });
    if (confirmed) remove.mutate(team);
  };

  const columns: Column<TeamItem>[] = [
    {
      id: 'name',
      label: t('teams.name'),
      sortKey: 'name',
      render: (team) => (
        <Box>
          <Typography variant="body2" sx={{ fontWeight: 500 }}>
            {team.name}
          </Typography>
          {team.description && (
            <Typography variant="body2" color="text.secondary">
              {team.description}
            </Typography>
          )}
        </Box>
      ),
    },
    { id: 'assignment', label: t('teams.assignment'), render: (team) => t(`teams.assignments.${team.assignment}`) },
    { id: 'members', label: t('teams.members'), align: 'right', render: (team) => team.members },
    { id: 'openTasks', label: t('teams.openTasks'), align: 'right', render: (team) => team.openTasks },
    {
      id: 'active',
      label: t('teams.state'),
      render: (team) => <StateChip tone={team.active ? 'positive' : 'neutral'} label={t(team.active ? 'teams.active' : 'teams.inactive')} />,
    },
  ];

  const action = (label: string, team: TeamItem, icon: ReactElement, onClick: () => void) => (
    <Tooltip title={label} describeChild>
      <IconButton aria-label={`${label}: ${team.name}`} onClick={onClick} size="small">
        {icon}
      </IconButton>
    </Tooltip>
  );
  const actions = (team: TeamItem) => (
    <>
      {can('wf_equipos_integrantes', 'show') && (
        <Tooltip title={t('teams.showMembers')} describeChild>
          <IconButton
            component={RouterLink}
            to={`/integrantes-equipos?team=${team.id}`}
            aria-label={`${t('teams.showMembers')}: ${team.name}`}
            size="small"
          >
            <GroupOutlined fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
      {can('wf_equipos', 'update') && action(t('common.edit'), team, <EditOutlined fontSize="small" />, () => setEditing(team))}
      {can('wf_equipos', 'delete') && action(t('common.delete'), team, <DeleteOutlined fontSize="small" />, () => void confirmDelete(team))}
    </>
  );

  return (
    <>
      <PageHeader title={t('menu.teams')}>
        {can('wf_equipos', 'create') && (
          <Button variant="contained" startIcon={<Add />} onClick={() => setEditing('new')}>
            {t('teams.new')}
          </Button>
        )}
      </PageHeader>
      <Paper variant="outlined" sx={{ p: { xs: 1, sm: 2 } }}>
        <SearchField onSearch={list.setSearch} label={t('teams.search')} />
        <DataTable
          label={t('menu.teams')}
          columns={columns}
          rows={query.data?.items}
          total={query.data?.total ?? 0}
          getRowId={(team) => team.id}
          {...tablePaging(list)}
          loading={query.isFetching}
          emptyText={list.params.search ? t('dataTable.noMatches') : t('teams.empty')}
          actions={actions}
        />
        <ListError error={query.error} />
      </Paper>
      {editing && <TeamDialog team={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
    </>
  );
}
