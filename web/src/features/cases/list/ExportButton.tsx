import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showToast } from '../../../components/feedback/toastStore.js';
import { DownloadMenuButton, InfoDialog } from '../../../components/page/index.js';
import { errorMessage } from '../../../lib/api.js';
import { type CaseQuery, type ExportFormat, useCaseExportJob, useDownloadCaseExport, useStartCaseExport } from '../api.js';

/**
 * "Export" of the current result, as CSV or Excel: the server builds the file
 * in the background; a dialog shows how far it got, then the file downloads.
 */
export function ExportButton({ query }: { query: CaseQuery }) {
  const { t } = useTranslation();
  const [format, setFormat] = useState<ExportFormat | null>(null);
  return (
    <>
      <DownloadMenuButton
        label={t('caseList.export.button')}
        formats={[
          { value: 'csv', label: t('caseList.export.csv') },
          { value: 'xlsx', label: t('caseList.export.xlsx') },
        ]}
        onChoose={setFormat}
      />
      {format && <ExportDialog format={format} query={query} onClose={() => setFormat(null)} />}
    </>
  );
}

function ExportDialog({ format, query, onClose }: { format: ExportFormat; query: CaseQuery; onClose: () => void }) {
  const { t } = useTranslation();
  const start = useStartCaseExport();
  // One export per opening of the dialog (React's development double effects included).
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    start.mutate({ format, query });
  }, [start, format, query]);

  const id = start.data?.id;
  const job = useCaseExportJob(id);
  const download = useDownloadCaseExport(format, {
    onSuccess: () => {
      showToast(t('caseList.export.downloaded'), 'success');
      onClose();
    },
  });
  const fetched = useRef(false);
  const state = job.data?.state;
  useEffect(() => {
    if (state !== 'done' || fetched.current || !job.data) return;
    fetched.current = true;
    download.mutate(job.data);
  }, [state, job.data, download]);

  const problem = start.error ?? job.error ?? download.error;
  const failed = state === 'failed' || !!problem;
  const done = job.data?.done ?? 0;
  const total = job.data?.total ?? 0;
  const percent = total > 0 ? Math.min(100, Math.round((done / total) * 100)) : 0;
  const progressText = state === 'done' || download.isPending ? t('caseList.export.downloading') : t('caseList.export.progress', { done, total });

  return (
    <InfoDialog
      title={t(format === 'csv' ? 'caseList.export.titleCsv' : 'caseList.export.titleXlsx')}
      onClose={onClose}
      // While the file is being built, closing stops waiting for it.
      closeLabel={failed ? t('common.close') : t('common.cancel')}
      maxWidth="xs"
      fullScreenOnPhone={false}
    >
      {failed ? (
        <Alert severity="error" role="alert">
          {state === 'failed' ? (job.data?.error ?? t('caseList.export.failed')) : errorMessage(problem)}
        </Alert>
      ) : (
        <Box>
          <Typography variant="body2" sx={{ mb: 1 }} aria-live="polite">
            {job.data ? progressText : t('caseList.export.starting')}
          </Typography>
          <LinearProgress
            variant={total > 0 ? 'determinate' : 'indeterminate'}
            value={percent}
            aria-label={t('caseList.export.progressLabel')}
            aria-valuetext={total > 0 ? t('caseList.export.progress', { done, total }) : undefined}
          />
        </Box>
      )}
    </InfoDialog>
  );
}
