import UploadFileOutlined from '@mui/icons-material/UploadFileOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../../../core/dates.js';
import { useCan, useSession } from '../../../app/session/session.js';
import { PageHeader } from '../../../components/PageHeader.js';
import { type Column, DataTable } from '../../../components/table/DataTable.js';
import { ListError } from '../../../components/table/ListError.js';
import { useListParams } from '../../../components/table/listParams.js';
import { ADMIN_CASES_PATH, type ImportSummary, useCaseImports, useInvalidateCases, useSearchFields } from '../api.js';
import { ImportDialog } from '../list/ImportDialog.js';
import { formatCount } from './importFormat.js';
import { ImportProgress, ImportStateChip, RejectedRowsButton } from './ImportParts.js';

/**
 * /cases/imports (target admin_cases): the tenant's bulk imports, newest
 * first: the file, its protocol, who uploaded it and when, its state, how
 * far it got (bar, rows per second and time left while it runs), what it
 * created, skipped and rejected, and the rejected rows to download. The page
 * is fetched again whenever the server announces an import changed (realtime
 * 'import': a batch done, an import started or ended, by anyone).
 */
export default function ImportsPage() {
  const { t, i18n } = useTranslation();
  const session = useSession();
  const can = useCan();
  const [importing, setImporting] = useState(false);
  const searchFields = useSearchFields(ADMIN_CASES_PATH);
  const protocols = searchFields.data?.protocols ?? [];
  const invalidateCases = useInvalidateCases();
  const list = useListParams({ sortBy: 'created_at', descending: true, limit: 25 });
  const query = useCaseImports({ page: list.params.page, pageSize: list.params.limit });
  const n = (value: number) => formatCount(value, i18n.language);

  const columns: Column<ImportSummary>[] = [
    {
      id: 'file',
      label: t('caseImports.file'),
      render: (job) => (
        <Box>
          <Typography variant="body2" sx={{ overflowWrap: 'anywhere', minWidth: '10ch' }}>
            {job.fileName}
          </Typography>
          <Typography variant="caption" color="text.secondary">
            {t(`caseImports.kinds.${job.kind}`, { defaultValue: job.kind })}
            {job.mode === 'all_or_nothing' ? ` · ${t('caseImports.allOrNothing')}` : ''}
          </Typography>
        </Box>
      ),
    },
    { id: 'protocol', label: t('caseImports.protocol'), render: (job) => job.protocolName },
    {
      // Who and when in one column: the table fits beside the menu at desktop width.
      id: 'created',
      label: t('caseImports.when'),
      render: (job) => (
        <Box>
          <Typography variant="body2" noWrap>
            {formatDateTime(job.createdAt, session.user.timeZone)}
          </Typography>
          <Typography variant="caption" color="text.secondary">
            {job.userName}
          </Typography>
        </Box>
      ),
    },
    { id: 'state', label: t('caseImports.state'), render: (job) => <ImportStateChip status={job.status} /> },
    {
      id: 'progress',
      label: t('caseImports.progressColumn'),
      render: (job) =>
        job.status === 'running' ? (
          <ImportProgress job={job} compact />
        ) : job.status === 'uploaded' ? (
          t('caseImports.rowsInFile', { count: job.total, n: n(job.total) })
        ) : (
          t('caseImports.progress.rows', { done: n(job.processed), total: n(job.total), count: job.total })
        ),
    },
    { id: 'createdCases', label: t('caseImports.createdCases'), align: 'right', render: (job) => n(job.created) },
    { id: 'skipped', label: t('caseImports.skipped'), align: 'right', render: (job) => n(job.skipped) },
    { id: 'rejected', label: t('caseImports.rejected'), align: 'right', render: (job) => n(job.failed) },
  ];

  return (
    <>
      <PageHeader title={t('caseImports.title')}>
        {can('admin_cases', 'update') && (
          <Button variant="outlined" startIcon={<UploadFileOutlined />} disabled={!searchFields.data} onClick={() => setImporting(true)}>
            {t('caseList.import.button')}
          </Button>
        )}
      </PageHeader>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('caseImports.intro')}
      </Typography>
      <Paper variant="outlined" sx={{ p: { xs: 1, sm: 2 } }}>
        <DataTable
          label={t('caseImports.title')}
          columns={columns}
          rows={query.data?.items}
          total={query.data?.total ?? 0}
          getRowId={(job) => job.id}
          page={list.params.page}
          rowsPerPage={list.params.limit}
          onPageChange={list.setPage}
          onRowsPerPageChange={list.setLimit}
          // A refetch on a realtime change refreshes in place: no loading bar on every batch.
          loading={query.isPending || (query.isFetching && query.isPlaceholderData)}
          emptyText={t('caseImports.empty')}
          actions={(job) => <RejectedRowsButton job={job} variant="text" labelled />}
        />
        <ListError error={query.error} />
      </Paper>
      {importing && (
        <ImportDialog
          protocols={protocols}
          onClose={(imported) => {
            setImporting(false);
            void query.refetch();
            if (imported) void invalidateCases();
          }}
        />
      )}
    </>
  );
}
