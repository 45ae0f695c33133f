import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { ImportProblemsTable } from '../../../components/page/index.js';
import { type DryRunResult, type ImportJob, importEnded, type RowError } from '../api.js';
import { formatCount } from '../imports/importFormat.js';
import { ImportProgress, RejectedRowsButton } from '../imports/ImportParts.js';

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

interface RunReportProps {
  job: ImportJob;
  labelOf: (name: string | null) => string;
  /** Runs an interrupted import again (it resumes); absent when the viewer may not. */
  onResume?: () => void;
  resuming?: boolean;
}

/**
 * The import under way (its bar, rows, rate and time left) and, once ended,
 * what it created, skipped and rejected, with the rejected rows to download;
 * an all-or-nothing import with bad rows says it imported nothing, an
 * interrupted one that running it again resumes it.
 */
export function RunReport({ job, labelOf, onResume, resuming }: RunReportProps) {
  const { t, i18n } = useTranslation();
  const n = (value: number) => formatCount(value, i18n.language);
  if (!importEnded(job.status)) return <ImportProgress job={job} />;
  const bad = new Set(job.errors.map((e) => e.line)).size;
  return (
    <Box sx={{ display: 'grid', gap: 1 }}>
      {job.status === 'done' && (
        <Typography variant="body2" role="status">
          {t('caseList.import.finished')}
        </Typography>
      )}
      {job.status === 'rejected' && (
        <Alert severity="error" role="alert">
          {t('caseList.import.rejectedAll', { count: job.failed, n: n(job.failed) })}
        </Alert>
      )}
      {job.status === 'interrupted' && (
        <Alert
          severity="warning"
          role="alert"
          action={
            onResume && (
              <Button color="inherit" size="small" onClick={onResume} loading={resuming}>
                {t('caseList.import.resume')}
              </Button>
            )
          }
        >
          {t('caseList.import.interrupted', { done: n(job.processed), total: n(job.total) })}
        </Alert>
      )}
      {job.status !== 'rejected' && <Alert severity="success" role="status">{t('caseList.import.created', { count: job.created })}</Alert>}
      {job.skipped > 0 && <Alert severity="info" role="status">{t('caseList.import.skipped', { count: job.skipped })}</Alert>}
      {job.failed > 0 && (
        <Alert severity="error" action={<RejectedRowsButton job={job} variant="text" />}>
          {t('caseList.import.failed', { count: job.failed })}
        </Alert>
      )}
      {job.errors.length > 0 && <RowErrors title={t('caseList.import.failedRows', { count: bad })} errors={job.errors} labelOf={labelOf} />}
    </Box>
  );
}
