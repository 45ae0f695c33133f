import Add from '@mui/icons-material/Add';
import ContentCopy from '@mui/icons-material/ContentCopy';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Tooltip from '@mui/material/Tooltip';
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
import { MasterDialog } from './MasterDialog.js';
import { type Master, masterPagePath, useDeleteMaster, useMasterList } from './api.js';
import { ListError } from '../../components/table/ListError.js';

/** Copies text, falling back to a message with the text when the browser refuses. */
async function copyText(text: string, done: string, failed: string) {
  try {
    await navigator.clipboard.writeText(text);
    showToast(done, 'success');
  } catch {
    showToast(failed);
  }
}

/** /main: the tenant's masters; create, edit, delete, copy the public URL, open the items. */
export default function MastersPage() {
  const { t } = useTranslation();
  const can = useCan();
  const dialogs = useDialogs();
  const list = useListParams({ sortBy: 'name' });
  const query = useMasterList(list.params);
  const [editing, setEditing] = useState<Master | 'new' | null>(null);

  const remove = useDeleteMaster({ onSuccess: () => showToast(t('common.deleted'), 'success') });
  const confirmDelete = async (master: Master) => {
    const confirmed = await dialogs.confirm({
      title: t('masters.list.deleteTitle'),
      message: t('masters.list.confirmDelete', { name: master.name, code: master.code }),
      confirmText: t('common.delete'),
    });
    if (confirmed) remove.mutate(master);
  };

  const columns: Column<Master>[] = [
    {
      id: 'name',
      label: t('masters.list.name'),
      sortKey: 'name',
      render: (master) => (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
          <Link component={RouterLink} to={masterPagePath(master.code)}>
            {master.name}
          </Link>
          {master.system && <StateChip label={t('masters.list.system')} />}
          {master.public && <StateChip tone="positive" label={t('masters.list.public')} />}
        </Box>
      ),
    },
    { id: 'code', label: t('masters.list.code'), sortKey: 'code', noWrap: true, render: (master) => <Box component="code" sx={{ fontSize: '0.85em' }}>{master.code}</Box> },
    { id: 'description', label: t('masters.list.description'), render: (master) => master.description },
    { id: 'parent', label: t('masters.list.parent'), render: (master) => master.parentCode ?? '' },
    { id: 'items', label: t('masters.list.items'), align: 'right', render: (master) => master.items },
  ];

  const action = (label: string, master: Master, icon: ReactElement, onClick: () => void) => (
    <Tooltip title={label} describeChild>
      <IconButton aria-label={`${label}: ${master.name}`} onClick={onClick} size="small">
        {icon}
      </IconButton>
    </Tooltip>
  );
  // A master's buttons are the actions the server sent with it (masters/policy.ts): a system master has no delete.
  const actions = (master: Master) => (
    <>
      {master.publicUrl &&
        action(t('masters.list.copyUrl'), master, <ContentCopy fontSize="small" />, () =>
          void copyText(master.publicUrl as string, t('masters.list.copied'), t('masters.list.copyFailed', { url: master.publicUrl })),
        )}
      {master.actions.includes('edit') && action(t('common.edit'), master, <EditOutlined fontSize="small" />, () => setEditing(master))}
      {master.actions.includes('delete') && action(t('common.delete'), master, <DeleteOutlined fontSize="small" />, () => void confirmDelete(master))}
    </>
  );

  return (
    <>
      <PageHeader title={t('menu.masters')}>
        {can('menu_maestros', 'create') && (
          <Button variant="contained" startIcon={<Add />} onClick={() => setEditing('new')}>
            {t('masters.list.new')}
          </Button>
        )}
      </PageHeader>
      <Paper variant="outlined" sx={{ p: { xs: 1, sm: 2 } }}>
        <SearchField onSearch={list.setSearch} label={t('masters.list.search')} />
        <DataTable
          label={t('menu.masters')}
          columns={columns}
          rows={query.data?.items}
          total={query.data?.total ?? 0}
          getRowId={(master) => master.id}
          {...tablePaging(list)}
          loading={query.isFetching}
          emptyText={list.params.search ? t('dataTable.noMatches') : t('masters.list.empty')}
          actions={actions}
        />
        <ListError error={query.error} />
      </Paper>
      {editing && <MasterDialog master={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
    </>
  );
}
