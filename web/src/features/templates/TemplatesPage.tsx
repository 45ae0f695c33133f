import Add from '@mui/icons-material/Add';
import Button from '@mui/material/Button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { MAIL_EVENTS, type MailEvent } from '../../../../core/api/templates.js';
import { formatDateTime } from '../../../../core/dates.js';
import { useCan, useSession } from '../../app/session/session.js';
import { useDialogs } from '../../components/feedback/FeedbackProvider.js';
import { showToast } from '../../components/feedback/toastStore.js';
import { PageHeader } from '../../components/PageHeader.js';
import { StateChip } from '../../components/StateChip.js';
import { EditDeleteActions, NameCell } from '../../components/table/cells.js';
import type { Column } from '../../components/table/DataTable.js';
import { FilteredTable } from '../../components/table/FilteredTable.js';
import { useListParams } from '../../components/table/listParams.js';
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
      render: (tpl) => <NameCell name={tpl.name}>{tpl.isDefault && <StateChip tone="positive" label={t('templates.defaultChip')} />}</NameCell>,
    },
    { id: 'event', label: t('templates.event'), sortKey: 'event', render: (tpl) => t(`templates.events.${tpl.event}`) },
    { id: 'subject', label: t('templates.subject'), render: (tpl) => (spanish ? tpl.subjectEs : tpl.subjectEn) },
    { id: 'updated', label: t('templates.updated'), sortKey: 'updated_at', render: (tpl) => formatDateTime(tpl.updatedAt, session.user.timeZone) },
  ];

  return (
    <>
      <PageHeader title={t('templates.title')}>
        {can('plantillas_correo', 'create') && (
          <Button component={RouterLink} to="/plantillas-correo/nuevo" variant="contained" startIcon={<Add />}>
            {t('templates.new')}
          </Button>
        )}
      </PageHeader>
      <FilteredTable
        label={t('templates.title')}
        searchLabel={t('templates.search')}
        list={list}
        filter={{
          label: t('templates.event'),
          allLabel: t('templates.allEvents'),
          value: event,
          options: MAIL_EVENTS.map((value) => ({ value, label: t(`templates.events.${value}`) })),
          onChange: setEvent,
        }}
        query={query}
        columns={columns}
        getRowId={(tpl) => tpl.id}
        actions={(tpl) => <EditDeleteActions actions={tpl.actions} name={tpl.name} editTo={`/plantillas-correo/${tpl.id}`} onDelete={() => void confirmDelete(tpl)} />}
        emptyText={t('templates.empty')}
      />
    </>
  );
}
