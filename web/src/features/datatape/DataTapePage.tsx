import ArrowBack from '@mui/icons-material/ArrowBack';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { useCan } from '../../app/session/session.js';
import { PageHeader } from '../../components/PageHeader.js';
import { QueryState } from '../../components/page/index.js';
import { type TapeProtocol, useTapeConfig, useTapeProtocols } from './api.js';
import { ProtocolTape } from './ProtocolTape.js';

/**
 * /reportes/data-tape (target `reporte_data_tape`): the funder's file of every
 * application of a protocol. The reader picks a protocol (kept in the address,
 * `?protocol=ID`), makes its file in the background and downloads it (export),
 * and sees or changes its columns and headers (update).
 */
export default function DataTapePage() {
  const { t } = useTranslation();
  const can = useCan();
  const protocols = useTapeProtocols();
  const [params, setParams] = useSearchParams();
  const items = protocols.data?.items;
  const asked = Number(params.get('protocol'));
  const chosen = items?.find((p) => p.id === asked) ?? null;

  // No protocol (or one no longer published) in the address: the first one, without a step in the history.
  const first = items?.[0]?.id;
  useEffect(() => {
    if (!chosen && first !== undefined) setParams({ protocol: String(first) }, { replace: true });
  }, [chosen, first, setParams]);

  return (
    <>
      <PageHeader title={t('dataTape.title')}>
        {can('menuReportes', 'show') && (
          <Button component={RouterLink} to="/reportes" startIcon={<ArrowBack />}>
            {t('dataTape.backToReports')}
          </Button>
        )}
      </PageHeader>
      <Typography color="text.secondary" sx={{ mb: 2, maxWidth: '75ch' }}>
        {t('dataTape.intro')}
      </Typography>
      <QueryState
        query={protocols}
        retry
        height={56}
        isEmpty={(data) => data.items.length === 0}
        empty={<Alert severity="info">{t('dataTape.noProtocols')}</Alert>}
      >
        {(data) => (
          <Box sx={{ display: 'grid', gap: 2, minWidth: 0 }}>
            <ProtocolPicker protocols={data.items} value={chosen} onChange={(id) => setParams({ protocol: String(id) })} />
            {chosen && <ChosenProtocol key={chosen.id} protocolId={chosen.id} />}
          </Box>
        )}
      </QueryState>
    </>
  );
}

function ProtocolPicker({ protocols, value, onChange }: { protocols: TapeProtocol[]; value: TapeProtocol | null; onChange: (id: number) => void }) {
  const { t } = useTranslation();
  return (
    <TextField
      select
      label={t('dataTape.protocol')}
      value={value ? String(value.id) : ''}
      onChange={(event) => onChange(Number(event.target.value))}
      sx={{ width: { xs: '100%', sm: 420 }, maxWidth: '100%' }}
      slotProps={{ select: { renderValue: (id) => protocols.find((p) => String(p.id) === id)?.name ?? '' } }}
    >
      {protocols.map((p) => (
        <MenuItem key={p.id} value={String(p.id)} sx={{ display: 'block', whiteSpace: 'normal' }}>
          {p.name}
          <Typography component="span" variant="body2" color="text.secondary" sx={{ display: 'block' }}>
            {p.saved ? t('dataTape.savedColumns') : t('dataTape.defaultColumns')}
          </Typography>
        </MenuItem>
      ))}
    </TextField>
  );
}

/** The chosen protocol's tape once its columns are in. */
function ChosenProtocol({ protocolId }: { protocolId: number }) {
  const config = useTapeConfig(protocolId);
  return (
    <QueryState query={config} retry height={320}>
      {(data) => <ProtocolTape config={data} />}
    </QueryState>
  );
}
