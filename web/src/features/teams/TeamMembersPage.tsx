import Add from '@mui/icons-material/Add';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import { type ReactElement, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useCan } from '../../app/session/session.js';
import { useDialogs } from '../../components/feedback/FeedbackProvider.js';
import { showToast } from '../../components/feedback/toastStore.js';
import { PageHeader } from '../../components/PageHeader.js';
import { StateChip } from '../../components/StateChip.js';
import { type Column, DataTable } from '../../components/table/DataTable.js';
import { tablePaging, useListParams } from '../../components/table/listParams.js';
import { SearchField } from '../../components/table/SearchField.js';
import { MemberDialog } from './MemberDialog.js';
import { type TeamMemberItem, useRemoveMember, useTeamMemberList, useTeamOptions } from './api.js';
import { ListError } from '../../components/table/ListError.js';

/** /integrantes-equipos: who is in which team, as leader or member; add, edit, remove. `?team=` filters. */
export default function TeamMembersPage() {
  const { t } = useTranslation();
  const can = useCan();
  const dialogs = useDialogs();
  const [searchParams, setSearchParams] = useSearchParams();
  const teamFilter = searchParams.get('team') ?? '';
  const list = useListParams({ sortBy: 'team_name' });
  const query = useTeamMemberList(list.params, { teamId: teamFilter || undefined });
  const teams = useTeamOptions();
  const [editing, setEditing] = useState<TeamMemberItem | 'new' | null>(null);
  const remove = useRemoveMember({ onSuccess: () => showToast(t('common.deleted'), 'success') });

  const confirmRemove = async (member: TeamMemberItem) => {
    const confirmed = await dialogs.confirm({
      title: t('teams.removeTitle'),
      message: t('teams.confirmRemove', { user: member.userName, team: member.teamName }),
      confirmText: t('teams.remove'),
    });
    if (confirmed) remove.mutate(member);
  };

  const columns: Column<TeamMemberItem>[] = [
    { id: 'team', label: t('teams.team'), sortKey: 'team_name', render: (member) => member.teamName },
    { id: 'user', label: t('teams.user'), sortKey: 'user_name', render: (member) => member.userName },
    { id: 'email', label: t('teams.email'), render: (member) => member.userEmail },
    { id: 'role', label: t('teams.role'), render: (member) => t(`teams.roles.${member.role}`) },
    {
      id: 'active',
      label: t('teams.state'),
      render: (member) => <StateChip tone={member.active ? 'positive' : 'neutral'} label={t(member.active ? 'teams.active' : 'teams.inactive')} />,
    },
  ];
  const action = (label: string, member: TeamMemberItem, icon: ReactElement, onClick: () => void) => (
    <Tooltip title={label} describeChild>
      <IconButton aria-label={`${label}: ${member.userName} (${member.teamName})`} onClick={onClick} size="small">
        {icon}
      </IconButton>
    </Tooltip>
  );
  const actions = (member: TeamMemberItem) => (
    <>
      {can('wf_equipos_integrantes', 'update') && action(t('common.edit'), member, <EditOutlined fontSize="small" />, () => setEditing(member))}
      {can('wf_equipos_integrantes', 'delete') && action(t('teams.remove'), member, <DeleteOutlined fontSize="small" />, () => void confirmRemove(member))}
    </>
  );

  return (
    <>
      <PageHeader title={t('menu.teamMembers')}>
        {can('wf_equipos_integrantes', 'create') && (
          <Button variant="contained" startIcon={<Add />} onClick={() => setEditing('new')}>
            {t('teams.addMember')}
          </Button>
        )}
      </PageHeader>
      <Paper variant="outlined" sx={{ p: { xs: 1, sm: 2 } }}>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center' }}>
          <SearchField onSearch={list.setSearch} label={t('teams.searchMembers')} />
          <TextField
            select
            size="small"
            label={t('teams.team')}
            value={teams.data ? teamFilter : ''}
            onChange={(event) => {
              const next = new URLSearchParams(searchParams);
              if (event.target.value) next.set('team', event.target.value);
              else next.delete('team');
              setSearchParams(next, { replace: true });
              list.setPage(0);
            }}
            sx={{ minWidth: 200, width: { xs: '100%', sm: 'auto' } }}
          >
            <MenuItem value="">{t('teams.allTeams')}</MenuItem>
            {(teams.data?.items ?? []).map((team) => (
              <MenuItem key={team.id} value={String(team.id)}>
                {team.name}
              </MenuItem>
            ))}
          </TextField>
        </Box>
        <DataTable
          label={t('menu.teamMembers')}
          columns={columns}
          rows={query.data?.items}
          total={query.data?.total ?? 0}
          getRowId={(member) => member.id}
          {...tablePaging(list)}
          loading={query.isFetching}
          emptyText={list.params.search || teamFilter ? t('dataTable.noMatches') : t('teams.noMembers')}
          actions={actions}
        />
        <ListError error={query.error} />
      </Paper>
      {editing && (
        <MemberDialog
          member={editing === 'new' ? null : editing}
          teamId={teamFilter ? Number(teamFilter) : undefined}
          onClose={() => setEditing(null)}
        />
      )}
    </>
  );
}
