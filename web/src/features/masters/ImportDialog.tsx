import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showToast } from '../../components/feedback/toastStore.js';
import { CsvFileStep, FormDialog, ImportProblemsTable, importProblem } from '../../components/page/index.js';
import { type Master, useImportMasterItems } from './api.js';

/**
 * CSV import in two steps: a dry run shows what would change and every row
 * the server refuses (line, column, message); then 'Import N rows' writes
 * the good rows.
 */
export function ImportDialog({ master, onClose }: { master: Master; onClose: () => void }) {
  const { t } = useTranslation();
  const [file, setFile] = useState<File | null>(null);

  const dryRun = useImportMasterItems(master, true);
  const run = useImportMasterItems(master, false, {
    onSuccess: (result) => showToast(t('masters.import.done', { created: result.created, updated: result.updated }), 'success'),
    onRefreshed: onClose,
  });
  const result = dryRun.data;
  const rows = result ? result.created + result.updated : 0;

  const choose = (chosen: File) => {
    setFile(chosen);
    run.reset();
    dryRun.mutate(chosen);
  };

  return (
    <FormDialog
      title={t('masters.import.title', { name: master.name })}
      onClose={onClose}
      onSubmit={(event) => {
        event.preventDefault();
        if (file) run.mutate(file);
      }}
      submitLabel={t('masters.import.run', { count: rows })}
      submitDisabled={!file || !result || rows === 0 || dryRun.isPending}
      pending={run.isPending}
      maxWidth="md"
    >
      <CsvFileStep help={t('masters.import.help')} onFile={choose} fileName={file?.name} error={dryRun.isError ? dryRun.error : run.isError ? run.error : undefined} />
      {(dryRun.isPending || run.isPending) && (
        <Box sx={{ mt: 2 }}>
          <Typography variant="body2">{t('masters.import.checking')}</Typography>
          <LinearProgress aria-label={t('masters.import.checking')} />
        </Box>
      )}
      {result && (
        <>
          <Alert severity={rows > 0 ? 'info' : 'warning'} sx={{ mt: 2 }}>
            {rows > 0 ? t('masters.import.summary', { created: result.created, updated: result.updated }) : t('masters.import.nothing')}
          </Alert>
          {result.errors.length > 0 && (
            <ImportProblemsTable
              title={t('masters.import.errorsTitle', { count: result.errors.length })}
              whereLabel={t('masters.import.column')}
              problems={result.errors.map((error) => ({ line: error.line, where: <code>{error.column ?? ''}</code>, message: error.message }))}
            />
          )}
        </>
      )}
    </FormDialog>
  );
}
