import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { ImportProblemsTable } from '../../../components/page/index.js';
import type { DryRunResult, ImportJob, RowError } from '../api.js';

/** What the dry run found: rows checked, valid, imported before, bad. */
export function CheckSummary({ result, total }: { result: DryRunResult; total: number }) {
  const { t } = useTranslation();
  const bad = new Set(result.errors.map((e) => e.line)).size;
  return (
    <Box sx={{ display: 'grid', gap: 1, mb: 2 }}>
      <Typography>{t('caseList.import.checkedRows', { count: total })}</Typography>
      <Alert severity={result.valid > 0 ? 'success' : 'warning'} role="status">{t('caseList.import.validRows', { count: result.valid })}</Alert>
      {result.alreadyImported > 0 && <Alert severity="info" role="status">{t('caseList.import.alreadyImported', { count: result.alreadyImported })}</Alert>}
      {bad > 0 && <Alert severity="error">{t('caseList.import.badRows', { count: bad })}</Alert>}
    </Box>
  );
}

/** The bad rows, one line each: line number, the form's field, message. */
export function RowErrors({ title, errors, labelOf }: { title: string; errors: RowError[]; labelOf: (name: string | null) => string }) {
  const { t } = useTranslation();
  return (
    <ImportProblemsTable
      title={title}
      whereLabel={t('caseList.import.field')}
      problems={errors.map((error) => ({ line: error.line, where: labelOf(error.field?.split('.')[0] ?? null) || error.field, message: error.message }))}
    />
  );
}

/** The import under way (its progress) and, once finished, what it created, skipped and refused. */
export function RunReport({ job, labelOf }: { job: ImportJob; labelOf: (name: string | null) => string }) {
  const { t } = useTranslation();
  const running = job.status === 'running';
  const percent = job.total > 0 ? Math.min(100, Math.round((job.processed / job.total) * 100)) : 0;
  const bad = new Set(job.errors.map((e) => e.line)).size;
  return (
    <Box>
      <Typography variant="body2" sx={{ mb: 1 }} aria-live="polite">
        {running ? t('caseList.import.progress', { done: job.processed, total: job.total }) : t('caseList.import.finished')}
      </Typography>
      <LinearProgress variant="determinate" value={running ? percent : 100} aria-label={t('caseList.import.progressLabel')} aria-valuetext={t('caseList.import.progress', { done: job.processed, total: job.total })} />
      {!running && (
        <Box sx={{ display: 'grid', gap: 1, mt: 2 }}>
          {job.status === 'interrupted' && <Alert severity="warning" role="status">{t('caseList.import.interrupted')}</Alert>}
          <Alert severity="success" role="status">{t('caseList.import.created', { count: job.created })}</Alert>
          {job.skipped > 0 && <Alert severity="info" role="status">{t('caseList.import.skipped', { count: job.skipped })}</Alert>}
          {job.failed > 0 && <Alert severity="error">{t('caseList.import.failed', { count: job.failed })}</Alert>}
          {job.errors.length > 0 && <RowErrors title={t('caseList.import.failedRows', { count: bad })} errors={job.errors} labelOf={labelOf} />}
        </Box>
      )}
    </Box>
  );
}
