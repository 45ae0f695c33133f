import LockOpenOutlined from '@mui/icons-material/LockOpenOutlined';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../../core/dates.js';
import { useCan, useSession } from '../../app/session/session.js';
import { PageHeader } from '../../components/PageHeader.js';
import { type Column, DataTable } from '../../components/table/DataTable.js';
import { tablePaging, useListParams } from '../../components/table/listParams.js';
import { SearchField } from '../../components/table/SearchField.js';
import { type UserItem, useBlockedUserList, useUnlockUser } from './api.js';

/** /dashboard/blocked-users ('Unlock users'): accounts locked by failed sign-ins, newest first. */
export default function BlockedUsersPage() {
  const { t } = useTranslation();
  const can = useCan();
  const session = useSession();
  const list = useListParams({ sortBy: 'locked_at', descending: true });
  const query = useBlockedUserList(list.params);
  const unlock = useUnlockUser();
  const canUnlock = can('dashboard_blocked_users', 'update');

  const columns: Column<UserItem>[] = [
    { id: 'name', label: t('userAdmin.name'), sortKey: 'name', render: (user) => user.name },
    { id: 'email', label: t('login.email'), sortKey: 'email', render: (user) => user.email },
    {
      id: 'lockedAt',
      label: t('blockedUsers.lockedAt'),
      sortKey: 'locked_at',
      render: (user) => (user.lockedAt ? formatDateTime(user.lockedAt, session.user.timeZone) : ''),
    },
    { id: 'failedLogins', label: t('blockedUsers.failedLogins'), align: 'right', render: (user) => user.failedLogins },
  ];

  return (
    <>
      <PageHeader title={t('menu.blockedUsers')} />
      <Paper variant="outlined" sx={{ p: { xs: 1, sm: 2 } }}>
        <SearchField onSearch={list.setSearch} />
        <DataTable
          label={t('menu.blockedUsers')}
          columns={columns}
          rows={query.data?.items}
          total={query.data?.total ?? 0}
          getRowId={(user) => user.id}
          {...tablePaging(list)}
          loading={query.isFetching}
          emptyText={list.params.search ? t('dataTable.noMatches') : t('blockedUsers.empty')}
          actions={
            canUnlock
              ? (user) =>
                  // A super-admin's account is unlocked only by a super-admin: the server says so in `actions`.
                  user.actions.includes('unlock') && (
                  <Button
                    size="small"
                    variant="outlined"
                    startIcon={<LockOpenOutlined />}
                    onClick={() => unlock.mutate(user)}
                    disabled={unlock.isPending}
                    aria-label={`${t('userAdmin.unlock')}: ${user.name}`}
                  >
                    {t('userAdmin.unlock')}
                  </Button>
                )
              : undefined
          }
        />
      </Paper>
    </>
  );
}
