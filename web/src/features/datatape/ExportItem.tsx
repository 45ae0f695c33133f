import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../../core/dates.js';
import { useSession } from '../../app/session/session.js';
import { type TapeExport, tapeFilePath } from './api.js';

const STATE_COLOR = { running: 'info', done: 'success', failed: 'error' } as const;

/** A size in bytes as people read it (12 KB, 3.4 MB), in the reader's language. */
export function formatBytes(bytes: number, lang: string): string {
  const units = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return new Intl.NumberFormat(lang, { style: 'unit', unit: units[unit], unitDisplay: 'short', maximumFractionDigits: unit < 2 ? 0 : 1 }).format(value);
}

/**
 * One of the reader's files: what it is, when it was started, its state;
 * while it runs, how many applications are written of how many; once done,
 * its columns, size and Download; when it failed, why. Download is a plain
 * link: the browser streams the file to disk as the server streams it from
 * its chunks (a tape of 100,000 applications is tens of megabytes, never held
 * in the page), and the browser's own downloads list tells of a failure; the
 * hint under the link says to click Download again then.
 */
export function ExportItem({ item, showProtocol }: { item: TapeExport; showProtocol: boolean }) {
  const { t, i18n } = useTranslation();
  const tz = useSession().user.timeZone;
  const lang = i18n.resolvedLanguage ?? 'en';
  const percent = item.total > 0 ? Math.min(100, Math.round((item.done / item.total) * 100)) : 0;
  const progress = t('dataTape.exports.progress', { done: item.done.toLocaleString(lang), total: item.total.toLocaleString(lang) });
  const what = [showProtocol ? item.protocolName : null, t(`dataTape.file.formats.${item.format}`), t(`dataTape.file.headerRows.${item.headers}`)].filter(Boolean).join(' · ');

  return (
    <Paper component="li" variant="outlined" sx={{ p: 1.5, display: 'grid', gap: 1, minWidth: 0 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: 1, rowGap: 0.5 }}>
        <Box component="span" role="status">
          <Chip size="small" color={STATE_COLOR[item.state]} variant={item.state === 'running' ? 'outlined' : 'filled'} label={t(`dataTape.exports.states.${item.state}`)} />
        </Box>
        <Typography variant="body2" sx={{ fontWeight: 500, overflowWrap: 'anywhere', flexGrow: 1 }}>
          {what}
        </Typography>
        <Typography variant="caption" color="text.secondary">
          {t('dataTape.exports.startedAt', { at: formatDateTime(item.createdAt, tz) })}
        </Typography>
      </Box>

      {item.state === 'running' && (
        <Box>
          <Typography variant="body2" sx={{ mb: 0.5 }}>
            {item.total > 0 ? progress : t('dataTape.exports.starting')}
          </Typography>
          <LinearProgress
            variant={item.total > 0 ? 'determinate' : 'indeterminate'}
            value={percent}
            aria-label={t('dataTape.exports.progressLabel')}
            aria-valuetext={item.total > 0 ? progress : undefined}
          />
        </Box>
      )}

      {item.state === 'done' && (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
          <Typography variant="body2" color="text.secondary" sx={{ flexGrow: 1, overflowWrap: 'anywhere' }}>
            {[
              item.filename,
              t('dataTape.exports.rows', { count: item.total, formatted: item.total.toLocaleString(lang) }),
              t('dataTape.exports.columns', { count: item.columns, formatted: item.columns.toLocaleString(lang) }),
              item.bytes !== null ? formatBytes(item.bytes, lang) : null,
            ]
              .filter(Boolean)
              .join(' · ')}
          </Typography>
          <Button
            variant="outlined"
            component="a"
            href={tapeFilePath(item.id)}
            download={item.filename ?? true}
            startIcon={<FileDownloadOutlined />}
            aria-label={t('dataTape.exports.downloadNamed', { name: item.filename ?? what })}
            aria-describedby={`tape-hint-${item.id}`}
          >
            {t('dataTape.exports.download')}
          </Button>
          <Typography id={`tape-hint-${item.id}`} variant="caption" color="text.secondary" sx={{ flexBasis: '100%' }}>
            {t('dataTape.exports.downloadHint')}
          </Typography>
        </Box>
      )}

      {item.state === 'failed' && (
        <Alert severity="error">{item.error ?? t('dataTape.exports.failed')}</Alert>
      )}
    </Paper>
  );
}
