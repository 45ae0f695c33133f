import Add from '@mui/icons-material/Add';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import ForwardToInboxOutlined from '@mui/icons-material/ForwardToInboxOutlined';
import LockOpenOutlined from '@mui/icons-material/LockOpenOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import type { ReactElement } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../../core/dates.js';
import { useCan, useSession } from '../../app/session/session.js';
import { useDialogs } from '../../components/feedback/FeedbackProvider.js';
import { showToast } from '../../components/feedback/toastStore.js';
import { PageHeader } from '../../components/PageHeader.js';
import { StateChip } from '../../components/StateChip.js';
import { type Column, DataTable } from '../../components/table/DataTable.js';
import { tablePaging, useListParams } from '../../components/table/listParams.js';
import { SearchField } from '../../components/table/SearchField.js';
import { PlanState } from './PlanState.js';
import { UserDialog } from './UserDialog.js';
import { type UserItem, useDeleteUser, useSendResetLink, useUnlockUser, useUserList } from './api.js';
import { ListError } from '../../components/table/ListError.js';

type LockFilter = 'all' | 'locked' | 'unlocked';

/** /acl/users: the tenant's users, their role and state; create, edit, unlock, send a reset link, delete. */
export default function UsersPage() {
  const { t } = useTranslation();
  const can = useCan();
  const session = useSession();
  const dialogs = useDialogs();
  const list = useListParams({ sortBy: 'name' });
  const [lockFilter, setLockFilter] = useState<LockFilter>('all');
  const query = useUserList(list.params, {
    locked: lockFilter === 'all' ? undefined : String(lockFilter === 'locked'),
  });
  const [editing, setEditing] = useState<UserItem | 'new' | null>(null);
  const unlock = useUnlockUser();
  const resetLink = useSendResetLink();
  const remove = useDeleteUser({ onSuccess: () => showToast(t('common.deleted'), 'success') });

  const confirmDelete = async (user: UserItem) => {
    const confirmed = await dialogs.confirm({
      title: t('userAdmin.deleteTitle'),
      message: t('userAdmin.confirmDelete', { name: user.name, email: user.email }),
      confirmText: t('common.delete'),
    });
    if (confirmed) remove.mutate(user);
  };

  const columns: Column<UserItem>[] = [
    { id: 'name', label: t('userAdmin.name'), sortKey: 'name', render: (user) => user.name },
    { id: 'email', label: t('login.email'), sortKey: 'email', render: (user) => user.email },
    { id: 'role', label: t('userAdmin.role'), render: (user) => user.roleName },
    {
      id: 'state',
      label: t('userAdmin.state'),
      render: (user) => (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
          <StateChip tone={user.active ? 'positive' : 'neutral'} label={t(user.active ? 'userAdmin.active' : 'userAdmin.inactive')} />
          {user.locked && <StateChip tone="negative" label={t('userAdmin.locked')} />}
        </Box>
      ),
    },
    { id: 'createdAt', label: t('catalog.createdAt'), sortKey: 'created_at', render: (user) => formatDate(user.createdAt, session.user.timeZone) },
  ];

  const action = (label: string, user: UserItem, icon: ReactElement, onClick: () => void, disabled = false) => (
    <Tooltip title={label} describeChild>
      <span>
        <IconButton aria-label={`${label}: ${user.name}`} onClick={onClick} disabled={disabled} size="small">
          {icon}
        </IconButton>
      </span>
    </Tooltip>
  );
  // Each user's buttons are the actions the server sent with it (users/policy.ts). Unlock is not one of
  // them: the server checks only the blocked-users right for it, so it follows that right and the lock.
  const actions = (user: UserItem) => (
    <>
      {user.actions.includes('edit') && action(t('common.edit'), user, <EditOutlined fontSize="small" />, () => setEditing(user))}
      {user.locked &&
        user.actions.includes('unlock') &&
        action(t('userAdmin.unlock'), user, <LockOpenOutlined fontSize="small" />, () => unlock.mutate(user), unlock.isPending)}
      {user.actions.includes('resetLink') &&
        action(t('userAdmin.sendResetLink'), user, <ForwardToInboxOutlined fontSize="small" />, () => resetLink.mutate(user), resetLink.isPending)}
      {user.actions.includes('delete') && action(t('common.delete'), user, <DeleteOutlined fontSize="small" />, () => void confirmDelete(user))}
    </>
  );

  return (
    <>
      <PageHeader title={t('menu.aclUsers')}>
        {can('acl_usuarios', 'create') && (
          <Button variant="contained" startIcon={<Add />} onClick={() => setEditing('new')}>
            {t('userAdmin.new')}
          </Button>
        )}
      </PageHeader>
      <PlanState />
      <Paper variant="outlined" sx={{ p: { xs: 1, sm: 2 } }}>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center' }}>
          <SearchField onSearch={list.setSearch} label={t('userAdmin.search')} />
          <TextField
            select
            size="small"
            label={t('userAdmin.state')}
            value={lockFilter}
            onChange={(event) => {
              setLockFilter(event.target.value as LockFilter);
              list.setPage(0);
            }}
            sx={{ minWidth: 180, width: { xs: '100%', sm: 'auto' } }}
          >
            <MenuItem value="all">{t('userAdmin.filterAll')}</MenuItem>
            <MenuItem value="locked">{t('userAdmin.locked')}</MenuItem>
            <MenuItem value="unlocked">{t('userAdmin.notLocked')}</MenuItem>
          </TextField>
        </Box>
        <DataTable
          label={t('menu.aclUsers')}
          columns={columns}
          rows={query.data?.items}
          total={query.data?.total ?? 0}
          getRowId={(user) => user.id}
          {...tablePaging(list)}
          loading={query.isFetching}
          emptyText={list.params.search || lockFilter !== 'all' ? t('dataTable.noMatches') : t('userAdmin.empty')}
          actions={actions}
        />
        <ListError error={query.error} />
      </Paper>
      {editing && <UserDialog user={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
    </>
  );
}
