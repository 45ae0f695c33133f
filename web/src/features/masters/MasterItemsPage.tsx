import Add from '@mui/icons-material/Add';
import ArrowBack from '@mui/icons-material/ArrowBack';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import FileDownload from '@mui/icons-material/FileDownload';
import UploadFile from '@mui/icons-material/UploadFile';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { type ReactElement, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { useCan } from '../../app/session/session.js';
import { useDialogs } from '../../components/feedback/FeedbackProvider.js';
import { showToast } from '../../components/feedback/toastStore.js';
import { PageHeader } from '../../components/PageHeader.js';
import { StateChip } from '../../components/StateChip.js';
import { type Column, DataTable } from '../../components/table/DataTable.js';
import { tablePaging, useListParams } from '../../components/table/listParams.js';
import { SearchField } from '../../components/table/SearchField.js';
import { errorMessage } from '../../lib/api.js';
import { ImportDialog } from './ImportDialog.js';
import { ItemDialog } from './ItemDialog.js';
import {
  type Master,
  type MasterItem,
  useDeleteMasterItem,
  useExportMasterItems,
  useMasterItemList,
  useMasterQuery,
  useParentMaster,
} from './api.js';
import { ParentItemPicker } from './ParentItemPicker.js';
import { ListError } from '../../components/table/ListError.js';

type StateFilter = 'all' | 'active' | 'inactive';

/** /main/{code}, /main/departamentos, /main/municipios, /main/definiciones, /main/funciones: one master's items. */
export default function MasterItemsPage({ code: fixedCode }: { code?: string }) {
  const { t } = useTranslation();
  const params = useParams();
  const code = fixedCode ?? params.id ?? '';
  const master = useMasterQuery(code);
  if (master.isError) {
    return (
      <>
        <BackLink />
        <Alert severity="error" role="alert">
          {errorMessage(master.error)}
        </Alert>
      </>
    );
  }
  if (!master.data) return <Typography sx={{ p: 2 }}>{t('common.loading')}</Typography>;
  return <Items key={code} master={master.data} />;
}

function BackLink() {
  const { t } = useTranslation();
  const can = useCan();
  if (!can('menu_maestros', 'show')) return null;
  return (
    <Link component={RouterLink} to="/main" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, mb: 1 }}>
      <ArrowBack fontSize="small" aria-hidden />
      {t('masters.items.back')}
    </Link>
  );
}

const extraSummary = (extra: Record<string, unknown>) =>
  Object.entries(extra)
    .map(([key, value]) => `${key}: ${value === null || value === undefined ? '' : String(value)}`)
    .join(', ');

function Items({ master }: { master: Master }) {
  const { t } = useTranslation();
  const dialogs = useDialogs();
  const list = useListParams({ sortBy: 'name' });
  const [parent, setParent] = useState('');
  const [state, setState] = useState<StateFilter>('all');
  const query = useMasterItemList(master.code, list.params, {
    parent: parent || undefined,
    active: state === 'all' ? undefined : String(state === 'active'),
  });
  const [editing, setEditing] = useState<MasterItem | 'new' | null>(null);
  const [importing, setImporting] = useState(false);
  // The parent master's name labels the filter; a user allowed this master only still sees its code.
  const parentMaster = useParentMaster(master.parentCode);

  const remove = useDeleteMasterItem(master, { onSuccess: () => showToast(t('common.deleted'), 'success') });
  const exportCsv = useExportMasterItems(master);
  const confirmDelete = async (item: MasterItem) => {
    const confirmed = await dialogs.confirm({
      title: t('masters.items.deleteTitle'),
      message: t('masters.items.confirmDelete', { name: item.name, code: item.code }),
      confirmText: t('common.delete'),
    });
    if (confirmed) remove.mutate(item);
  };

  const columns: Column<MasterItem>[] = [
    { id: 'code', label: t('masters.items.code'), sortKey: 'code', noWrap: true, render: (item) => <Box component="code" sx={{ fontSize: '0.85em' }}>{item.code}</Box> },
    { id: 'name', label: t('masters.items.name'), sortKey: 'name', render: (item) => item.name },
    { id: 'nameEn', label: t('masters.items.nameEn'), render: (item) => item.nameEn },
    ...(master.parentCode
      ? [{ id: 'parent', label: t('masters.items.parent'), render: (item: MasterItem) => (item.parentCode ? `${item.parentName ?? ''} (${item.parentCode})` : '') }]
      : []),
    {
      id: 'state',
      label: t('masters.items.state'),
      render: (item) => <StateChip tone={item.active ? 'positive' : 'neutral'} label={t(item.active ? 'masters.items.active' : 'masters.items.inactive')} />,
    },
    { id: 'extra', label: t('masters.items.extra'), render: (item) => extraSummary(item.extra) },
  ];

  const action = (label: string, item: MasterItem, icon: ReactElement, onClick: () => void) => (
    <Tooltip title={label} describeChild>
      <IconButton aria-label={`${label}: ${item.name}`} onClick={onClick} size="small">
        {icon}
      </IconButton>
    </Tooltip>
  );
  // The buttons on items are the actions the server sent with their master (masters/policy.ts).
  const canAdd = master.actions.includes('addItems');
  const canUpdate = master.actions.includes('editItems');
  const canDelete = master.actions.includes('deleteItems');
  const actions =
    canUpdate || canDelete
      ? (item: MasterItem) => (
          <>
            {canUpdate && action(t('common.edit'), item, <EditOutlined fontSize="small" />, () => setEditing(item))}
            {canDelete && action(t('common.delete'), item, <DeleteOutlined fontSize="small" />, () => void confirmDelete(item))}
          </>
        )
      : undefined;

  return (
    <>
      <BackLink />
      <PageHeader title={master.name}>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
          {canAdd && (
            <Button variant="contained" startIcon={<Add />} onClick={() => setEditing('new')}>
              {t('masters.items.new')}
            </Button>
          )}
          {canAdd && (
            <Button variant="outlined" startIcon={<UploadFile />} onClick={() => setImporting(true)}>
              {t('masters.import.button')}
            </Button>
          )}
          <Button variant="outlined" startIcon={<FileDownload />} onClick={() => exportCsv.mutate()} loading={exportCsv.isPending}>
            {t('masters.export')}
          </Button>
        </Box>
      </PageHeader>
      {master.description && (
        <Typography color="text.secondary" sx={{ mt: -1, mb: 2 }}>
          {master.description}
        </Typography>
      )}
      <Paper variant="outlined" sx={{ p: { xs: 1, sm: 2 } }}>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center' }}>
          <SearchField onSearch={list.setSearch} label={t('masters.items.search')} />
          {master.parentCode && (
            <Box sx={{ width: { xs: '100%', sm: 260 } }}>
              <ParentItemPicker
                master={master.parentCode}
                size="small"
                label={t('masters.items.filterParent', { parent: parentMaster.data?.name ?? master.parentCode })}
                value={parent}
                onChange={(next) => {
                  setParent(next);
                  list.setPage(0);
                }}
              />
            </Box>
          )}
          <TextField
            select
            size="small"
            label={t('masters.items.state')}
            value={state}
            onChange={(event) => {
              setState(event.target.value as StateFilter);
              list.setPage(0);
            }}
            sx={{ minWidth: 160, width: { xs: '100%', sm: 'auto' } }}
          >
            <MenuItem value="all">{t('masters.items.all')}</MenuItem>
            <MenuItem value="active">{t('masters.items.active')}</MenuItem>
            <MenuItem value="inactive">{t('masters.items.inactive')}</MenuItem>
          </TextField>
        </Box>
        <DataTable
          label={master.name}
          columns={columns}
          rows={query.data?.items}
          total={query.data?.total ?? 0}
          getRowId={(item) => item.id}
          {...tablePaging(list)}
          loading={query.isFetching}
          emptyText={list.params.search || parent || state !== 'all' ? t('dataTable.noMatches') : t('masters.items.empty')}
          actions={actions}
        />
        <ListError error={query.error} />
      </Paper>
      {editing && <ItemDialog master={master} item={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      {importing && <ImportDialog master={master} onClose={() => setImporting(false)} />}
    </>
  );
}
