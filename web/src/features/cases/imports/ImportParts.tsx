import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import { useTheme } from '@mui/material/styles';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTranslation } from 'react-i18next';
import { showToast } from '../../../components/feedback/toastStore.js';
import { type ChipTone, StateChip } from '../../../components/StateChip.js';
import { errorMessage } from '../../../lib/api.js';
import { hasRejectedRows, type ImportStatus, type ImportSummary, useDownloadRejectedRows } from '../api.js';
import { formatCount, percentDone, progressText } from './importFormat.js';

const TONES: Record<ImportStatus, ChipTone> = { uploaded: 'neutral', running: 'neutral', done: 'positive', interrupted: 'negative', rejected: 'negative' };

/** An import's state as a chip. */
export function ImportStateChip({ status }: { status: ImportStatus }) {
  const { t } = useTranslation();
  return <StateChip tone={TONES[status] ?? 'neutral'} label={t(`caseImports.states.${status}`, { defaultValue: status })} />;
}

type ProgressJob = Pick<ImportSummary, 'processed' | 'total' | 'rowsPerSecond' | 'secondsLeft' | 'fileName'>;

/**
 * A running import: its bar, then "N of M rows · X rows/s · about Y left",
 * read out politely as it changes. `compact` is the list's cell.
 */
export function ImportProgress({ job, compact = false }: { job: ProgressJob; compact?: boolean }) {
  const { t, i18n } = useTranslation();
  const text = progressText(job, t, i18n.language);
  return (
    <Box sx={{ minWidth: compact ? 160 : undefined }}>
      <LinearProgress
        variant="determinate"
        value={percentDone(job)}
        aria-label={compact ? t('caseImports.progress.labelOf', { file: job.fileName }) : t('caseImports.progress.label')}
        aria-valuetext={text}
        sx={compact ? { height: 6, borderRadius: 3 } : undefined}
      />
      <Typography variant={compact ? 'caption' : 'body2'} component="p" sx={{ mt: compact ? 0.5 : 1 }} aria-live="polite" aria-atomic="true">
        {text}
      </Typography>
    </Box>
  );
}

/**
 * "Download rejected rows" of an ended import with rejected rows: a CSV of
 * them with their line and reasons, to fix and import again. Nothing when
 * there are none.
 */
export function RejectedRowsButton({ job, variant = 'outlined', labelled = false }: { job: Pick<ImportSummary, 'id' | 'fileName' | 'status' | 'failed'>; variant?: 'outlined' | 'text'; labelled?: boolean }) {
  const { t, i18n } = useTranslation();
  const download = useDownloadRejectedRows({ onError: (error) => showToast(errorMessage(error), 'error') });
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'), { noSsr: true });
  if (!hasRejectedRows(job)) return null;
  const name = t('caseImports.downloadRejectedOf', { file: job.fileName, count: job.failed, n: formatCount(job.failed, i18n.language) });
  // In a table row (a list at desktop width) the icon alone, named and with its tooltip: the columns keep their room.
  if (labelled && !phone) {
    return (
      <Tooltip title={name}>
        <IconButton aria-label={name} onClick={() => download.mutate(job)} loading={download.isPending}>
          <FileDownloadOutlined />
        </IconButton>
      </Tooltip>
    );
  }
  return (
    <Button
      variant={variant}
      // As a text button it sits in an alert: the alert's own text colour keeps its contrast (WCAG AA).
      color={variant === 'text' ? 'inherit' : 'primary'}
      size={variant === 'text' ? 'small' : 'medium'}
      startIcon={<FileDownloadOutlined />}
      loading={download.isPending}
      onClick={() => download.mutate(job)}
      // In a list, each button names its file.
      {...(labelled ? { 'aria-label': name } : {})}
    >
      {t('caseImports.downloadRejected')}
    </Button>
  );
}
