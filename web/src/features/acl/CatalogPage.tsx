import Add from '@mui/icons-material/Add';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Tooltip from '@mui/material/Tooltip';
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
import { type CatalogItem, useCatalogList, useDeleteCatalogItem } from './api.js';
import { CatalogDialog } from './CatalogDialog.js';
import type { CatalogConfig } from './catalogs.js';

/**
 * One screen for each catalogue of the permission model (actions, modules,
 * roles): search, server paging and sorting, create, edit and delete. System
 * rows are marked; each row's buttons are the actions the server sent with it.
 */
export function CatalogPage({ config }: { config: CatalogConfig }) {
  const { t } = useTranslation();
  const can = useCan();
  const { user } = useSession();
  const dialogs = useDialogs();
  const list = useListParams({ sortBy: 'code' });
  const query = useCatalogList(config.kind, list.params);
  const [editing, setEditing] = useState<CatalogItem | 'new' | null>(null);
  const kindKey = `aclAdmin.${config.kind}`;

  const remove = useDeleteCatalogItem(config.kind, {
    onSuccess: () => showToast(t('common.deleted'), 'success'),
  });

  const confirmDelete = async (item: CatalogItem) => {
    const name = config.label(t, item);
    const confirmed = await dialogs.confirm({
      title: t(`${kindKey}.deleteTitle`),
      message: t(`${kindKey}.confirmDelete`, { name, code: item.code }),
      confirmText: t('common.delete'),
    });
    if (confirmed) remove.mutate(item);
  };

  const columns: Column<CatalogItem>[] = [
    { id: 'code', label: t('catalog.code'), sortKey: 'code', noWrap: true, render: (item) => <Box component="code" sx={{ fontSize: '0.85em' }}>{item.code}</Box> },
    {
      id: 'name',
      label: t('catalog.name'),
      sortKey: 'name',
      render: (item) => (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
          <span>{config.label(t, item)}</span>
          {item.system && <StateChip label={t('catalog.system')} />}
          {item.superAdmin && <StateChip tone="positive" label={t('aclAdmin.roles.superAdmin')} />}
        </Box>
      ),
    },
    { id: 'description', label: t('catalog.description'), render: (item) => config.describe(t, item) },
    ...(config.kind === 'roles'
      ? [{ id: 'users', label: t('aclAdmin.roles.users'), align: 'right' as const, render: (item: CatalogItem) => item.users ?? 0 }]
      : []),
    { id: 'createdAt', label: t('catalog.createdAt'), sortKey: 'created_at', noWrap: true, render: (item) => formatDate(item.createdAt, user.timeZone) },
  ];

  // A row's buttons are the actions the server sent with it (acl/policy.ts): a system row, or a role users hold, has no delete.
  const actions = (item: CatalogItem) => {
    const name = config.label(t, item);
    return (
      <>
        {item.actions.includes('edit') && (
          <Tooltip title={t('common.edit')}>
            <IconButton aria-label={`${t('common.edit')}: ${name}`} onClick={() => setEditing(item)} size="small">
              <EditOutlined fontSize="small" />
            </IconButton>
          </Tooltip>
        )}
        {item.actions.includes('delete') && (
          <Tooltip title={t('common.delete')}>
            <IconButton aria-label={`${t('common.delete')}: ${name}`} onClick={() => void confirmDelete(item)} size="small">
              <DeleteOutlined fontSize="small" />
            </IconButton>
          </Tooltip>
        )}
      </>
    );
  };

  return (
    <>
      <PageHeader title={t(config.titleKey)}>
        {can(config.target, 'create') && (
          <Button variant="contained" startIcon={<Add />} onClick={() => setEditing('new')}>
            {t(`${kindKey}.new`)}
          </Button>
        )}
      </PageHeader>
      <Paper variant="outlined" sx={{ p: { xs: 1, sm: 2 } }}>
        <SearchField onSearch={list.setSearch} />
        <DataTable
          label={t(config.titleKey)}
          columns={columns}
          rows={query.data?.items}
          total={query.data?.total ?? 0}
          getRowId={(item) => item.id}
          {...tablePaging(list)}
          loading={query.isFetching}
          emptyText={list.params.search ? t('dataTable.noMatches') : t(`${kindKey}.empty`)}
          // No actions column for someone who may only look (no row has a button).
          actions={query.data?.items.some((item) => item.actions.includes('edit') || item.actions.includes('delete')) ? actions : undefined}
        />
      </Paper>
      {editing && (
        <CatalogDialog config={config} item={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      )}
    </>
  );
}
