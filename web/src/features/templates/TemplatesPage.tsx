import Add from '@mui/icons-material/Add';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { MAIL_EVENTS, type MailEvent } from '../../../../core/api/templates.js';
import { formatDateTime } from '../../../../core/dates.js';
import { useCan, useSession } from '../../app/session/session.js';
import { useDialogs } from '../../components/feedback/FeedbackProvider.js';
import { showToast } from '../../components/feedback/toastStore.js';
import { FilterBar, FilterSelect } from '../../components/page/index.js';
import { PageHeader } from '../../components/PageHeader.js';
import { StateChip } from '../../components/StateChip.js';
import { type Column, DataTable } from '../../components/table/DataTable.js';
import { ListError } from '../../components/table/ListError.js';
import { tablePaging, useListParams } from '../../components/table/listParams.js';
import { SearchField } from '../../components/table/SearchField.js';
import { type TemplateItem, useDeleteTemplate, useTemplateList } from './api.js';

/** /plantillas-correo: the tenant's email templates by name, event and subject; create, edit, delete (the default of an event stays). */
export default function TemplatesPage() {
  const { t, i18n } = useTranslation();
  const can = useCan();
  const session = useSession();
  const dialogs = useDialogs();
  const list = useListParams({ sortBy: 'name' });
  const [event, setEvent] = useState<MailEvent | ''>('');
  const query = useTemplateList(list.params, { event: event || undefined });
  const remove = useDeleteTemplate({ onSuccess: () => showToast(t('common.deleted'), 'success') });
  const spanish = i18n.language.startsWith('es');

  const confirmDelete = async (template: TemplateItem) => {
    const confirmed = await dialogs.confirm({
      title: t('templates.deleteTitle'),
      message: t('templates.confirmDelete', { name: template.name }),
      confirmText: t('common.delete'),
    });
    if (confirmed) remove.mutate(template);
  };

  const columns: Column<TemplateItem>[] = [
    {
      id: 'name',
      label: t('templates.name'),
      sortKey: 'name',
      render: (tpl) => (
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
          <Typography variant="body2" sx={{ fontWeight: 500 }}>
            {tpl.name}
          </Typography>
          {tpl.isDefault && <StateChip tone="positive" label={t('templates.defaultChip')} />}
        </Box>
      ),
    },
    { id: 'event', label: t('templates.event'), sortKey: 'event', render: (tpl) => t(`templates.events.${tpl.event}`) },
    { id: 'subject', label: t('templates.subject'), render: (tpl) => (spanish ? tpl.subjectEs : tpl.subjectEn) },
    { id: 'updated', label: t('templates.updated'), sortKey: 'updated_at', render: (tpl) => formatDateTime(tpl.updatedAt, session.user.timeZone) },
  ];

  const actions = (tpl: TemplateItem) => (
    <>
      {tpl.actions.includes('edit') && (
        <Tooltip title={t('common.edit')} describeChild>
          <IconButton component={RouterLink} to={`/plantillas-correo/${tpl.id}`} aria-label={`${t('common.edit')}: ${tpl.name}`} size="small">
            <EditOutlined fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
      {tpl.actions.includes('delete') && (
        <Tooltip title={t('common.delete')} describeChild>
          <IconButton aria-label={`${t('common.delete')}: ${tpl.name}`} onClick={() => void confirmDelete(tpl)} size="small">
            <DeleteOutlined fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
    </>
  );

  return (
    <>
      <PageHeader title={t('templates.title')}>
        {can('plantillas_correo', 'create') && (
          <Button component={RouterLink} to="/plantillas-correo/nuevo" variant="contained" startIcon={<Add />}>
            {t('templates.new')}
          </Button>
        )}
      </PageHeader>
      <Paper variant="outlined" sx={{ p: { xs: 1, sm: 2 } }}>
        <FilterBar
          search={<SearchField onSearch={list.setSearch} label={t('templates.search')} />}
          narrowing={event ? 1 : 0}
          clearable={!!event}
          onClear={() => setEvent('')}
        >
          <FilterSelect
            label={t('templates.event')}
            value={event}
            allLabel={t('templates.allEvents')}
            options={MAIL_EVENTS.map((value) => ({ value, label: t(`templates.events.${value}`) }))}
            onChange={(value) => {
              setEvent(value);
              list.setPage(0);
            }}
          />
        </FilterBar>
        <DataTable
          label={t('templates.title')}
          columns={columns}
          rows={query.data?.items}
          total={query.data?.total ?? 0}
          getRowId={(tpl) => tpl.id}
          {...tablePaging(list)}
          loading={query.isFetching}
          emptyText={list.params.search || event ? t('dataTable.noMatches') : t('templates.empty')}
          actions={actions}
        />
        <ListError error={query.error} />
      </Paper>
    </>
  );
}
