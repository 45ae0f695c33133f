import PlayArrowOutlined from '@mui/icons-material/PlayArrowOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TAPE_HEADERS } from '../../../../core/api/datatape.js';
import { showToast } from '../../components/feedback/toastStore.js';
import { QueryState, Section } from '../../components/page/index.js';
import { errorMessage } from '../../lib/api.js';
import { type StartTape, useStartTapeExport, useTapeExports } from './api.js';
import { ExportItem } from './ExportItem.js';

type Format = StartTape['format'];
type Headers = NonNullable<StartTape['headers']>;
/** Excel first: what a funder usually opens. */
const EXCEL_FIRST: readonly Format[] = ['xlsx', 'csv'];

/**
 * "Make a file" of the protocol's tape: CSV or Excel, the header row in
 * Spanish, English or as keys (the reader's language first), then the
 * reader's files of the last day, newest first, each with its progress
 * while it runs and its download once done.
 */
export function TapeFile({ protocolId, unsaved }: { protocolId: number; unsaved: boolean }) {
  const { t, i18n } = useTranslation();
  const formatId = useId();
  const headersId = useId();
  const [format, setFormat] = useState<Format>('xlsx');
  const [headers, setHeaders] = useState<Headers>(i18n.resolvedLanguage === 'es' ? 'es' : 'en');
  const [all, setAll] = useState(false);
  const exports = useTapeExports();
  const start = useStartTapeExport({
    onSuccess: () => showToast(t('dataTape.file.started'), 'success'),
    onError: (error) => showToast(t('dataTape.file.startFailed', { reason: errorMessage(error) })),
  });

  return (
    <Section title={t('dataTape.file.title')}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: { xs: 1, sm: 4 }, mb: 2 }}>
        <FormControl>
          <FormLabel id={formatId}>{t('dataTape.file.format')}</FormLabel>
          <RadioGroup row aria-labelledby={formatId} value={format} onChange={(event) => setFormat(event.target.value as Format)}>
            {EXCEL_FIRST.map((f) => (
              <FormControlLabel key={f} value={f} control={<Radio />} label={t(`dataTape.file.formats.${f}`)} />
            ))}
          </RadioGroup>
        </FormControl>
        <FormControl>
          <FormLabel id={headersId}>{t('dataTape.file.headers')}</FormLabel>
          <RadioGroup row aria-labelledby={headersId} value={headers} onChange={(event) => setHeaders(event.target.value as Headers)}>
            {TAPE_HEADERS.map((h) => (
              <FormControlLabel key={h} value={h} control={<Radio />} label={t(`dataTape.file.headerRows.${h}`)} />
            ))}
          </RadioGroup>
        </FormControl>
      </Box>
      {unsaved && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {t('dataTape.file.unsaved')}
        </Alert>
      )}
      <Button variant="contained" startIcon={<PlayArrowOutlined />} loading={start.isPending} loadingPosition="start" onClick={() => start.mutate({ protocolId, format, headers })}>
        {t('dataTape.file.start')}
      </Button>

      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mt: 3, mb: 1 }}>
        <Typography component="h3" variant="subtitle1" sx={{ flexGrow: 1, fontWeight: 500 }}>
          {t('dataTape.exports.title')}
        </Typography>
        <FormControlLabel control={<Switch checked={all} onChange={(event) => setAll(event.target.checked)} />} label={t('dataTape.exports.all')} />
      </Box>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {t('dataTape.exports.hint')}
      </Typography>
      <QueryState query={exports} retry height={72}>
        {(data) => {
          const shown = data.items.filter((item) => all || item.protocolId === protocolId);
          shown.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
          if (shown.length === 0) return <Typography color="text.secondary">{t(all ? 'dataTape.exports.noneAll' : 'dataTape.exports.none')}</Typography>;
          return (
            <Box component="ul" aria-label={t('dataTape.exports.title')} sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1 }}>
              {shown.map((item) => (
                <ExportItem key={item.id} item={item} showProtocol={all} />
              ))}
            </Box>
          );
        }}
      </QueryState>
    </Section>
  );
}
