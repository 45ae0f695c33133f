import Add from '@mui/icons-material/Add';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PRINT_KINDS, type PrintKind } from '../../../../core/api/printing.js';
import { formatDateTime } from '../../../../core/dates.js';
import { useCan, useSession } from '../../app/session/session.js';
import { useDialogs } from '../../components/feedback/FeedbackProvider.js';
import { showToast } from '../../components/feedback/toastStore.js';
import { FormDialog } from '../../components/page/index.js';
import { PageHeader } from '../../components/PageHeader.js';
import { StateChip } from '../../components/StateChip.js';
import { EditDeleteActions, NameCell } from '../../components/table/cells.js';
import type { Column } from '../../components/table/DataTable.js';
import { FilteredTable } from '../../components/table/FilteredTable.js';
import { useListParams } from '../../components/table/listParams.js';
import { protocolName, useProtocolOptions } from '../protocols/api.js';
import { type PrintTemplateItem, useCreatePrintTemplate, useDeletePrintTemplate, usePrintTemplateList } from './api.js';

/** /configuracion/plantillas: the tenant's print templates, per protocol; create (kind, names, protocol), edit, delete. */
export default function PrintTemplatesPage() {
  const { t, i18n } = useTranslation();
  const can = useCan();
  const session = useSession();
  const dialogs = useDialogs();
  const list = useListParams({ sortBy: 'name' });
  const [protocolId, setProtocolId] = useState('');
  const [creating, setCreating] = useState(false);
  const protocols = useProtocolOptions();
  const query = usePrintTemplateList(list.params, { protocolId: protocolId || undefined });
  const remove = useDeletePrintTemplate({ onSuccess: () => showToast(t('common.deleted'), 'success') });
  const english = !i18n.language.startsWith('es');
  const nameOf = (tpl: { name: string; nameEn: string }) => (english ? tpl.nameEn : tpl.name);

  const confirmDelete = async (tpl: PrintTemplateItem) => {
    const confirmed = await dialogs.confirm({ title: t('printing.deleteTitle'), message: t('printing.confirmDelete', { name: nameOf(tpl) }), confirmText: t('common.delete') });
    if (confirmed) remove.mutate(tpl);
  };

  const columns: Column<PrintTemplateItem>[] = [
    {
      id: 'name',
      label: t('templates.name'),
      sortKey: 'name',
      render: (tpl) => <NameCell name={nameOf(tpl)}>{tpl.builtin && <StateChip tone="neutral" label={t('printing.builtin')} />}</NameCell>,
    },
    { id: 'kind', label: t('printing.kind'), sortKey: 'kind', render: (tpl) => t(`printing.kinds.${tpl.kind}`) },
    { id: 'protocol', label: t('printing.protocol'), render: (tpl) => tpl.protocolName ?? t('printing.allProtocols') },
    { id: 'updated', label: t('printing.updated'), sortKey: 'updated_at', render: (tpl) => formatDateTime(tpl.updatedAt, session.user.timeZone) },
  ];

  const protocolOptions = (protocols.data?.items ?? []).map((p) => ({ value: String(p.id), label: protocolName(p, i18n.language) }));
  return (
    <>
      <PageHeader title={t('printing.title')}>
        {can('menu_configuracion', 'create') && (
          <Button variant="contained" startIcon={<Add />} onClick={() => setCreating(true)}>
            {t('printing.new')}
          </Button>
        )}
      </PageHeader>
      <FilteredTable
        label={t('printing.title')}
        searchLabel={t('printing.search')}
        list={list}
        filter={{ label: t('printing.protocol'), allLabel: t('printing.allProtocols'), value: protocolId, options: protocolOptions, onChange: setProtocolId }}
        query={query}
        columns={columns}
        getRowId={(tpl) => tpl.id}
        actions={(tpl) => <EditDeleteActions actions={tpl.actions} name={nameOf(tpl)} editTo={`/configuracion/plantillas/${tpl.id}`} onDelete={() => void confirmDelete(tpl)} />}
        emptyText={t('printing.empty')}
      />
      {creating && <CreateDialog protocols={protocolOptions} onClose={() => setCreating(false)} />}
    </>
  );
}

function CreateDialog({ protocols, onClose }: { protocols: Array<{ value: string; label: string }>; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [kind, setKind] = useState<PrintKind>('acroform');
  const [name, setName] = useState('');
  const [nameEn, setNameEn] = useState('');
  const [protocol, setProtocol] = useState('');
  const [error, setError] = useState<string | null>(null);
  const create = useCreatePrintTemplate({
    onSuccess: () => showToast(t('printing.created'), 'success'),
    onRefreshed: (tpl) => navigate(`/configuracion/plantillas/${tpl.id}`),
    onError: (e) => setError(e instanceof Error ? e.message : String(e)),
  });
  const missing = !name.trim() || !nameEn.trim();
  return (
    <FormDialog
      title={t('printing.createTitle')}
      onClose={onClose}
      pending={create.isPending}
      submitDisabled={missing}
      onSubmit={(event) => {
        event.preventDefault();
        if (missing) return;
        create.mutate({ kind, name: name.trim(), nameEn: nameEn.trim(), protocolId: protocol ? Number(protocol) : null });
      }}
    >
      <TextField select fullWidth margin="normal" label={t('printing.kind')} value={kind} onChange={(e) => setKind(e.target.value as PrintKind)}>
        {PRINT_KINDS.map((k) => (
          <MenuItem key={k} value={k}>
            {t(`printing.kinds.${k}`)}
          </MenuItem>
        ))}
      </TextField>
      <TextField fullWidth margin="normal" required label={t('printing.name')} value={name} onChange={(e) => setName(e.target.value)} slotProps={{ htmlInput: { maxLength: 120 } }} />
      <TextField fullWidth margin="normal" required label={t('printing.nameEn')} value={nameEn} onChange={(e) => setNameEn(e.target.value)} slotProps={{ htmlInput: { maxLength: 120 } }} />
      <TextField select fullWidth margin="normal" label={t('printing.protocol')} value={protocol} onChange={(e) => setProtocol(e.target.value)} slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}>
        <MenuItem value="">{t('printing.allProtocols')}</MenuItem>
        {protocols.map((p) => (
          <MenuItem key={p.value} value={p.value}>
            {p.label}
          </MenuItem>
        ))}
      </TextField>
      {error && (
        <Typography color="error" role="alert" variant="body2">
          {error}
        </Typography>
      )}
    </FormDialog>
  );
}
