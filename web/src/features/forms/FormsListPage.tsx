import Add from '@mui/icons-material/Add';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Tooltip from '@mui/material/Tooltip';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { formatDate } from '../../../../core/dates.js';
import { useCan, useSession } from '../../app/session/session.js';
import { useDialogs } from '../../components/feedback/FeedbackProvider.js';
import { showToast } from '../../components/feedback/toastStore.js';
import { PageHeader } from '../../components/PageHeader.js';
import { type Column, DataTable } from '../../components/table/DataTable.js';
import { tablePaging, useListParams } from '../../components/table/listParams.js';
import { SearchField } from '../../components/table/SearchField.js';
import { type FormSummary, useDeleteForm, useFetchForm, useFormList } from './api.js';
import { previewStorageKey } from './builder/ViewTab.js';
import { ListError } from '../../components/table/ListError.js';

/** /formularios: the tenant's forms with search and paging; new, open in the builder, delete. */
export default function FormsListPage() {
  const { t } = useTranslation();
  const can = useCan();
  const session = useSession();
  const dialogs = useDialogs();
  const navigate = useNavigate();
  const fetchForm = useFetchForm();
  const list = useListParams({ sortBy: 'name' });
  const query = useFormList(list.params);

  const remove = useDeleteForm({
    onSuccess: (_answer, form) => {
      showToast(t('common.deleted'), 'success');
      sessionStorage.removeItem(previewStorageKey(form.id));
    },
  });

  const confirmDelete = async (form: FormSummary) => {
    // A form in use cannot go: say so at once rather than after a confirmation.
    const current = await fetchForm(form.id);
    if (current.inUse) {
      await dialogs.warning(t('forms.list.inUseNoDelete', { name: form.name }));
      return;
    }
    const confirmed = await dialogs.confirm({
      title: t('forms.list.deleteTitle'),
      message: t('forms.list.confirmDelete', { name: form.name, code: form.code }),
      confirmText: t('common.delete'),
    });
    if (confirmed) remove.mutate(form);
  };

  const columns: Column<FormSummary>[] = [
    {
      id: 'name',
      label: t('forms.list.name'),
      sortKey: 'name',
      render: (form) => (
        <Link component={RouterLink} to={`/formularios/${form.id}`}>
          {form.name}
        </Link>
      ),
    },
    { id: 'code', label: t('forms.list.code'), sortKey: 'code', noWrap: true, render: (form) => <Box component="code" sx={{ fontSize: '0.85em' }}>{form.code}</Box> },
    { id: 'description', label: t('catalog.description'), render: (form) => form.description },
    { id: 'version', label: t('forms.list.version'), align: 'right', render: (form) => form.version },
    { id: 'fields', label: t('forms.list.fields'), align: 'right', render: (form) => form.fields },
    { id: 'updatedAt', label: t('forms.list.updatedAt'), sortKey: 'updated_at', noWrap: true, render: (form) => formatDate(form.updatedAt, session.user.timeZone) },
  ];

  const actions = (form: FormSummary) => (
    <>
      <Tooltip title={t('common.edit')} describeChild>
        <IconButton size="small" aria-label={`${t('common.edit')}: ${form.name}`} onClick={() => navigate(`/formularios/${form.id}`)}>
          <EditOutlined fontSize="small" />
        </IconButton>
      </Tooltip>
      {can('formularios', 'delete') && (
        <Tooltip title={t('common.delete')} describeChild>
          <IconButton size="small" aria-label={`${t('common.delete')}: ${form.name}`} onClick={() => void confirmDelete(form)}>
            <DeleteOutlined fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
    </>
  );

  return (
    <>
      <PageHeader title={t('menu.forms')}>
        {can('formularios', 'create') && (
          <Button variant="contained" startIcon={<Add />} component={RouterLink} to="/formularios/nuevo">
            {t('forms.list.new')}
          </Button>
        )}
      </PageHeader>
      <Paper variant="outlined" sx={{ p: { xs: 1, sm: 2 } }}>
        <SearchField onSearch={list.setSearch} label={t('forms.list.search')} />
        <DataTable
          label={t('menu.forms')}
          columns={columns}
          rows={query.data?.items}
          total={query.data?.total ?? 0}
          getRowId={(form) => form.id}
          {...tablePaging(list)}
          loading={query.isFetching}
          emptyText={list.params.search ? t('dataTable.noMatches') : t('forms.list.empty')}
          actions={actions}
        />
        <ListError error={query.error} />
      </Paper>
    </>
  );
}
