import Add from '@mui/icons-material/Add';
import ContentCopyOutlined from '@mui/icons-material/ContentCopyOutlined';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import PublishOutlined from '@mui/icons-material/PublishOutlined';
import UploadFileOutlined from '@mui/icons-material/UploadFileOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { type ChangeEvent, type ReactElement, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { useCan } from '../../app/session/session.js';
import { useDialogs } from '../../components/feedback/FeedbackProvider.js';
import { showToast } from '../../components/feedback/toastStore.js';
import { PageHeader } from '../../components/PageHeader.js';
import { StateChip } from '../../components/StateChip.js';
import { type Column, DataTable } from '../../components/table/DataTable.js';
import { tablePaging, useListParams } from '../../components/table/listParams.js';
import { SearchField } from '../../components/table/SearchField.js';
import { ApiError, type ApiErrorDetail, errorMessage } from '../../lib/api.js';
import { ImportProblemsDialog } from './ImportProblemsDialog.js';
import { downloadProtocolExport, type ProtocolSummary, useDeleteProtocol, useImportProtocol, useProtocolList, usePublishProtocol } from './api.js';
import { ListError } from '../../components/table/ListError.js';

type ImportFailure = { fileName: string; message: string; problems: readonly ApiErrorDetail[] };

/** /protocolos: the protocols with their main form, version and use; edit, publish, export, copy the public URL, delete; import. */
export default function ProtocolsPage() {
  const { t } = useTranslation();
  const can = useCan();
  const dialogs = useDialogs();
  const navigate = useNavigate();
  const list = useListParams({ sortBy: 'name' });
  const query = useProtocolList(list.params);
  const fileInput = useRef<HTMLInputElement>(null);
  const [importFailure, setImportFailure] = useState<ImportFailure | null>(null);

  const publish = usePublishProtocol({
    onSuccess: (published) => showToast(t('protocols.published', { version: published.publishedVersion }), 'success'),
    onError: (error, protocol) => {
      // A draft with problems is fixed in the editor, where each problem shows in its place.
      if (error instanceof ApiError && error.details.length) {
        showToast(t('protocols.publishProblems', { count: error.details.length }));
        navigate(`/protocolos/${protocol.id}`);
        return;
      }
      showToast(errorMessage(error));
    },
  });
  const remove = useDeleteProtocol({ onSuccess: () => showToast(t('common.deleted'), 'success') });
  const importFile = useImportProtocol({
    onSuccess: (imported) => showToast(t('protocols.import.done', { name: imported.name }), 'success'),
    onError: (error, file) => setImportFailure({ fileName: file.name, message: errorMessage(error), problems: error instanceof ApiError ? error.details : [] }),
  });

  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (file) importFile.mutate(file);
  };
  const copyUrl = async (protocol: ProtocolSummary) => {
    try {
      await navigator.clipboard.writeText(protocol.publicUrl);
      showToast(t('protocols.urlCopied', { url: protocol.publicUrl }), 'success');
    } catch {
      showToast(t('protocols.urlNotCopied', { url: protocol.publicUrl }), 'warning');
    }
  };
  const confirmPublish = async (protocol: ProtocolSummary) => {
    const confirmed = await dialogs.confirm({ title: t('protocols.publishTitle'), message: t('protocols.publishMessage'), confirmText: t('protocols.publish') });
    if (confirmed) publish.mutate(protocol);
  };
  const confirmDelete = async (protocol: ProtocolSummary) => {
    const confirmed = await dialogs.confirm({
      title: t('protocols.deleteTitle'),
      message: t('protocols.confirmDelete', { name: protocol.name }),
      confirmText: t('common.delete'),
    });
    if (confirmed) remove.mutate(protocol);
  };

  const columns: Column<ProtocolSummary>[] = [
    {
      id: 'name',
      label: t('protocols.name'),
      sortKey: 'name',
      render: (protocol) => (
        <Box>
          <Link component={RouterLink} to={`/protocolos/${protocol.id}`} sx={{ fontWeight: 500 }}>
            {protocol.name}
          </Link>
          <Typography variant="body2" color="text.secondary" sx={{ fontFamily: 'monospace' }}>
            {protocol.code}
          </Typography>
        </Box>
      ),
    },
    { id: 'mainForm', label: t('protocols.mainForm'), render: (protocol) => protocol.mainFormName },
    { id: 'caseType', label: t('protocols.caseType'), render: (protocol) => t(`protocols.caseTypes.${protocol.caseType}`) },
    {
      id: 'version',
      label: t('protocols.version'),
      render: (protocol) =>
        protocol.publishedVersion === null ? (
          <StateChip label={t('protocols.notPublished')} />
        ) : (
          <StateChip tone="positive" label={t('protocols.versionN', { version: protocol.publishedVersion })} />
        ),
    },
    { id: 'public', label: t('protocols.public'), render: (protocol) => t(protocol.public ? 'tasks.yes' : 'tasks.no') },
    { id: 'tasks', label: t('protocols.taskCount'), align: 'right', render: (protocol) => protocol.tasks },
    { id: 'cases', label: t('protocols.caseCount'), align: 'right', render: (protocol) => protocol.cases },
  ];

  const action = (label: string, protocol: ProtocolSummary, icon: ReactElement, onClick: () => void, disabled = false, why?: string) => (
    <Tooltip title={disabled && why ? why : label} describeChild>
      <span>
        <IconButton aria-label={`${label}: ${protocol.name}${disabled && why ? `. ${why}` : ''}`} onClick={onClick} size="small" disabled={disabled}>
          {icon}
        </IconButton>
      </span>
    </Tooltip>
  );
  const actions = (protocol: ProtocolSummary) => (
    <>
      {can('wf_protocolos', 'update') && (
        <Tooltip title={t('common.edit')} describeChild>
          <IconButton component={RouterLink} to={`/protocolos/${protocol.id}`} aria-label={`${t('common.edit')}: ${protocol.name}`} size="small">
            <EditOutlined fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
      {can('wf_protocolos', 'update') && action(t('protocols.publish'), protocol, <PublishOutlined fontSize="small" />, () => void confirmPublish(protocol), publish.isPending)}
      {can('wf_protocolos', 'export') &&
        action(t('protocols.export'), protocol, <DownloadOutlined fontSize="small" />, () =>
          void downloadProtocolExport(protocol).catch((error: unknown) => showToast(errorMessage(error))),
        )}
      {/* The public page answers 404 until the protocol is public and published: nothing to copy before. */}
      {action(
        t('protocols.copyUrl'),
        protocol,
        <ContentCopyOutlined fontSize="small" />,
        () => void copyUrl(protocol),
        !protocol.public || protocol.publishedVersion === null,
        t('protocols.copyUrlNotPublic'),
      )}
      {can('wf_protocolos', 'delete') && action(t('common.delete'), protocol, <DeleteOutlined fontSize="small" />, () => void confirmDelete(protocol))}
    </>
  );

  return (
    <>
      <PageHeader title={t('menu.protocols')}>
        {can('wf_protocolos', 'create') && (
          <>
            <input ref={fileInput} type="file" accept="application/json,.json" hidden onChange={onFile} aria-label={t('protocols.import.file')} />
            <Button variant="outlined" startIcon={<UploadFileOutlined />} onClick={() => fileInput.current?.click()} loading={importFile.isPending}>
              {t('protocols.import.button')}
            </Button>
            <Button variant="contained" startIcon={<Add />} component={RouterLink} to="/protocolos/nuevo">
              {t('protocols.new')}
            </Button>
          </>
        )}
      </PageHeader>
      <Paper variant="outlined" sx={{ p: { xs: 1, sm: 2 } }}>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center' }}>
          <SearchField onSearch={list.setSearch} label={t('protocols.search')} />
          <Button component={RouterLink} to="/protocolos/tareas">
            {t('protocols.tasksTitle')}
          </Button>
        </Box>
        <DataTable
          label={t('menu.protocols')}
          columns={columns}
          rows={query.data?.items}
          total={query.data?.total ?? 0}
          getRowId={(protocol) => protocol.id}
          {...tablePaging(list)}
          loading={query.isFetching}
          emptyText={list.params.search ? t('dataTable.noMatches') : t('protocols.empty')}
          actions={actions}
        />
        <ListError error={query.error} />
      </Paper>
      {importFailure && <ImportProblemsDialog {...importFailure} onClose={() => setImportFailure(null)} />}
    </>
  );
}
