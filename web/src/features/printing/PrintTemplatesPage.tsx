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
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { PRINT_KINDS, type PrintKind } from '../../../../core/api/printing.js';
import { formatDateTime } from '../../../../core/dates.js';
import { useCan, useSession } from '../../app/session/session.js';
import { useDialogs } from '../../components/feedback/FeedbackProvider.js';
import { showToast } from '../../components/feedback/toastStore.js';
import { FilterBar, FilterSelect, FormDialog } from '../../components/page/index.js';
import { PageHeader } from '../../components/PageHeader.js';
import { StateChip } from '../../components/StateChip.js';
import { type Column, DataTable } from '../../components/table/DataTable.js';
import { ListError } from '../../components/table/ListError.js';
import { tablePaging, useListParams } from '../../components/table/listParams.js';
import { SearchField } from '../../components/table/SearchField.js';
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
      render: (tpl) => (
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
          <Typography variant="body2" sx={{ fontWeight: 500 }}>
            {nameOf(tpl)}
          </Typography>
          {tpl.builtin && <StateChip tone="neutral" label={t('printing.builtin')} />}
        </Box>
      ),
    },
    { id: 'kind', label: t('printing.kind'), sortKey: 'kind', render: (tpl) => t(`printing.kinds.${tpl.kind}`) },
    { id: 'protocol', label: t('printing.protocol'), render: (tpl) => tpl.protocolName ?? t('printing.allProtocols') },
    { id: 'updated', label: t('printing.updated'), sortKey: 'updated_at', render: (tpl) => formatDateTime(tpl.updatedAt, session.user.timeZone) },
  ];

  const actions = (tpl: PrintTemplateItem) => (
    <>
      {tpl.actions.includes('edit') && (
        <Tooltip title={t('common.edit')} describeChild>
          <IconButton component={RouterLink} to={`/configuracion/plantillas/${tpl.id}`} aria-label={`${t('common.edit')}: ${nameOf(tpl)}`} size="small">
            <EditOutlined fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
      {tpl.actions.includes('delete') && (
        <Tooltip title={t('common.delete')} describeChild>
          <IconButton aria-label={`${t('common.delete')}: ${nameOf(tpl)}`} onClick={() => void confirmDelete(tpl)} size="small">
            <DeleteOutlined fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
    </>
  );

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
      <Paper variant="outlined" sx={{ p: { xs: 1, sm: 2 } }}>
        <FilterBar search={<SearchField onSearch={list.setSearch} label={t('printing.search')} />} narrowing={protocolId ? 1 : 0} clearable={!!protocolId} onClear={() => setProtocolId('')}>
          <FilterSelect
            label={t('printing.protocol')}
            value={protocolId}
            allLabel={t('printing.allProtocols')}
            options={protocolOptions}
            onChange={(value) => {
              setProtocolId(value);
              list.setPage(0);
            }}
          />
        </FilterBar>
        <DataTable
          label={t('printing.title')}
          columns={columns}
          rows={query.data?.items}
          total={query.data?.total ?? 0}
          getRowId={(tpl) => tpl.id}
          {...tablePaging(list)}
          loading={query.isFetching}
          emptyText={list.params.search || protocolId ? t('dataTable.noMatches') : t('printing.empty')}
          actions={actions}
        />
        <ListError error={query.error} />
      </Paper>
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
