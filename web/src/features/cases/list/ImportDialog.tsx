import UploadFile from '@mui/icons-material/UploadFile';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import MenuItem from '@mui/material/MenuItem';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import { useTheme } from '@mui/material/styles';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, errorMessage } from '../../../lib/api.js';
import {
  type DryRunResult,
  type ImportJob,
  type ImportMapping,
  type RowError,
  type SearchProtocol,
  useCaseImportDryRun,
  useCaseImportProgress,
  useRunCaseImport,
  useUploadCaseImport,
} from '../api.js';

const STEPS = ['file', 'columns', 'check', 'run'] as const;
type StepName = (typeof STEPS)[number];

/** The first message the server gave about a refused request (the file, a column), else its message. */
const problemOf = (error: unknown) => (error instanceof ApiError && error.details[0]?.message) || errorMessage(error);

const normal = (text: string) => text.trim().toLowerCase().normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/[\s_-]+/g, '');

/** Columns named like a field (its name or a label) start mapped to it. */
function guessMapping(job: ImportJob, labels: (name: string) => string[]): Record<string, string> {
  const mapping: Record<string, string> = {};
  const taken = new Set<string>();
  for (const column of job.header) {
    const field = job.fields.find((f) => !taken.has(f.name) && [f.name, f.label, ...labels(f.name)].some((l) => l && normal(l) === normal(column)));
    if (field) {
      mapping[column] = field.name;
      taken.add(field.name);
    }
  }
  return mapping;
}

const guessRef = (header: string[]) => header.find((h) => /^(ref|reference|referencia|external.?ref|external.?id|id)$/i.test(h.trim())) ?? header.find((h) => /ref/i.test(h)) ?? '';

interface ImportDialogProps {
  protocols: SearchProtocol[];
  onClose: (imported: boolean) => void;
}

/**
 * CSV import of cases, in four steps: upload the file, map each column to a
 * field of the main form (or ignore it) and name the reference column, a dry
 * run that checks every row and lists the bad ones, then the import in the
 * background with its progress and final report. Rows whose reference was
 * imported before are skipped, so the same file twice creates nothing twice.
 */
export function ImportDialog({ protocols, onClose }: ImportDialogProps) {
  const { t, i18n } = useTranslation();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const titleId = useId();
  const input = useRef<HTMLInputElement | null>(null);
  const [step, setStep] = useState<StepName>('file');
  const [protocolId, setProtocolId] = useState(protocols.length === 1 ? String(protocols[0]?.id) : '');
  const [protocolMissing, setProtocolMissing] = useState(false);
  const [job, setJob] = useState<ImportJob | null>(null);
  const [mapping, setMapping] = useState<Record<string, string>>({});
  const [refColumn, setRefColumn] = useState('');
  const [refMissing, setRefMissing] = useState(false);

  const formFields = protocols.find((p) => String(p.id) === protocolId)?.fields ?? [];
  const english = i18n.language.startsWith('en');
  /** A field's label in the page's language when the form gives one, else as the server named it. */
  const labelOf = (name: string | null) => {
    if (!name) return '';
    const known = formFields.find((f) => f.name === name);
    if (known) return (english ? known.label_en || known.label : known.label || known.label_en) || name;
    return job?.fields.find((f) => f.name === name)?.label ?? name;
  };

  const upload = useUploadCaseImport(protocolId, {
    onSuccess: (uploaded) => {
      setJob(uploaded);
      setMapping(
        guessMapping(uploaded, (name) => {
          const f = formFields.find((x) => x.name === name);
          return f ? [f.label, f.label_en ?? ''] : [];
        }),
      );
      setRefColumn(guessRef(uploaded.header));
      setStep('columns');
    },
  });
  const body = (): ImportMapping => ({ mapping: Object.fromEntries(Object.entries(mapping).filter(([, field]) => field)), refColumn });
  const dryRun = useCaseImportDryRun({ onSuccess: () => setStep('check') });
  const run = useRunCaseImport({ onSuccess: () => setStep('run') });
  const progress = useCaseImportProgress(job?.id, step === 'run' && !!job);

  const chooseFile = (file: File | undefined) => {
    if (!file) return;
    if (!protocolId) return setProtocolMissing(true);
    upload.mutate(file);
  };
  const check = () => {
    if (!refColumn) return setRefMissing(true);
    dryRun.mutate({ id: job?.id, mapping: body() });
  };

  const finished = step === 'run' && progress.data && progress.data.status !== 'running';
  const running = step === 'run' && !finished;
  const mappingErrors = new Map(
    (dryRun.error instanceof ApiError ? dryRun.error.details : []).filter((d) => d.path.startsWith('mapping.')).map((d) => [d.path.slice('mapping.'.length), d.message]),
  );

  return (
    <Dialog
      open
      onClose={() => onClose(step === 'run')}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="md"
      fullScreen={phone}
    >
      <DialogTitle id={titleId}>{t('caseList.import.title')}</DialogTitle>
      <DialogContent>
        <Stepper activeStep={STEPS.indexOf(step)} alternativeLabel sx={{ mb: 3, '& .MuiStepLabel-label': { fontSize: { xs: '0.75rem', sm: '0.875rem' } } }}>
          {STEPS.map((name) => (
            <Step key={name} completed={STEPS.indexOf(name) < STEPS.indexOf(step) || (name === 'run' && !!finished)}>
              <StepLabel>{t(`caseList.import.steps.${name}`)}</StepLabel>
            </Step>
          ))}
        </Stepper>

        {step === 'file' && (
          <Box>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
              {t('caseList.import.fileHelp')}
            </Typography>
            {protocols.length === 0 && <Alert severity="warning" role="status">{t('caseList.import.noProtocols')}</Alert>}
            {protocols.length > 1 && (
              <TextField
                select
                fullWidth
                label={t('caseList.import.protocol')}
                value={protocolId}
                onChange={(event) => {
                  setProtocolId(event.target.value);
                  setProtocolMissing(false);
                }}
                required
                error={protocolMissing}
                helperText={protocolMissing ? t('validation.chooseOption') : undefined}
                sx={{ mb: 2 }}
              >
                {protocols.map((p) => (
                  <MenuItem key={p.id} value={String(p.id)}>
                    {p.name}
                  </MenuItem>
                ))}
              </TextField>
            )}
            <input
              ref={input}
              type="file"
              accept=".csv,text/csv"
              hidden
              aria-label={t('caseList.import.choose')}
              onChange={(event) => {
                chooseFile(event.target.files?.[0]);
                event.target.value = '';
              }}
            />
            <Button variant="contained" startIcon={<UploadFile />} disabled={protocols.length === 0} loading={upload.isPending} onClick={() => (protocolId ? input.current?.click() : setProtocolMissing(true))}>
              {t('caseList.import.choose')}
            </Button>
            {upload.isError && (
              <Alert severity="error" role="alert" sx={{ mt: 2 }}>
                {problemOf(upload.error)}
              </Alert>
            )}
          </Box>
        )}

        {step === 'columns' && job && (
          <Box>
            <Typography variant="body2" sx={{ mb: 2 }}>
              {t('caseList.import.fileSummary', { name: job.fileName, count: job.total })}
            </Typography>
            <Alert severity="info" role="note" sx={{ mb: 2 }}>
              {t('caseList.import.refHelp')}
            </Alert>
            <TextField
              select
              fullWidth
              label={t('caseList.import.refColumn')}
              value={refColumn}
              onChange={(event) => {
                setRefColumn(event.target.value);
                setRefMissing(false);
              }}
              required
              error={refMissing || mappingErrors.has('refColumn')}
              helperText={refMissing ? t('validation.chooseOption') : undefined}
              sx={{ mb: 2 }}
            >
              {job.header.map((column) => (
                <MenuItem key={column} value={column}>
                  {column}
                </MenuItem>
              ))}
            </TextField>
            <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
              {t('caseList.import.mappingTitle')}
            </Typography>
            <TableContainer sx={{ border: 1, borderColor: 'divider', borderRadius: 1 }}>
              <Table
                size="small"
                aria-label={t('caseList.import.mappingTitle')}
                // Phones: each column is a block with its field under it (nothing scrolls sideways).
                sx={{
                  '& thead': { display: { xs: 'none', sm: 'table-header-group' } },
                  '& tbody tr': { display: { xs: 'block', sm: 'table-row' }, borderBottom: { xs: 1, sm: 0 }, borderColor: 'divider', py: { xs: 1, sm: 0 } },
                  '& tbody td': { display: { xs: 'block', sm: 'table-cell' }, borderBottom: { xs: 0, sm: 1 }, borderColor: 'divider', py: { xs: 0.5, sm: 1 } },
                  '& tbody td.sample': { display: { xs: 'none', sm: 'table-cell' } },
                }}
              >
                <TableHead>
                  <TableRow>
                    <TableCell sx={{ fontWeight: 600 }}>{t('caseList.import.column')}</TableCell>
                    <TableCell sx={{ fontWeight: 600 }}>{t('caseList.import.sample')}</TableCell>
                    <TableCell sx={{ fontWeight: 600 }}>{t('caseList.import.field')}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {job.header.map((column) => {
                    const problem = mappingErrors.get(column);
                    return (
                      <TableRow key={column}>
                        <TableCell sx={{ overflowWrap: 'anywhere' }}>
                          <code>{column}</code>
                          {column === refColumn && (
                            <Typography variant="caption" component="div" color="text.secondary">
                              {t('caseList.import.isRef')}
                            </Typography>
                          )}
                        </TableCell>
                        <TableCell className="sample" sx={{ overflowWrap: 'anywhere', color: 'text.secondary' }}>
                          {job.sample[0]?.[column] ?? ''}
                        </TableCell>
                        <TableCell sx={{ minWidth: { sm: 160 } }}>
                          <TextField
                            select
                            size="small"
                            fullWidth
                            value={mapping[column] ?? ''}
                            onChange={(event) => setMapping((current) => ({ ...current, [column]: event.target.value }))}
                            error={!!problem}
                            helperText={problem}
                            slotProps={{ select: { displayEmpty: true }, htmlInput: { 'aria-label': t('caseList.import.fieldFor', { column }) } }}
                          >
                            <MenuItem value="">
                              <em>{t('caseList.import.ignore')}</em>
                            </MenuItem>
                            {job.fields.map((f) => (
                              <MenuItem key={f.name} value={f.name}>
                                {f.required ? t('caseList.import.requiredField', { label: labelOf(f.name) }) : labelOf(f.name)}
                              </MenuItem>
                            ))}
                          </TextField>
                        </TableCell>
                      </TableRow>
                    );
                  })}
                </TableBody>
              </Table>
            </TableContainer>
            {dryRun.isError && (
              <Alert severity="error" role="alert" sx={{ mt: 2 }}>
                {dryRun.error instanceof ApiError && dryRun.error.details.length ? (
                  <List dense disablePadding>
                    {dryRun.error.details.map((d) => (
                      <ListItem key={`${d.path}:${d.message}`} disableGutters sx={{ py: 0 }}>
                        {d.message}
                      </ListItem>
                    ))}
                  </List>
                ) : (
                  errorMessage(dryRun.error)
                )}
              </Alert>
            )}
            {dryRun.isPending && <LinearProgress sx={{ mt: 2 }} aria-label={t('caseList.import.checking')} />}
          </Box>
        )}

        {step === 'check' && dryRun.data && job && (
          <Box>
            <CheckSummary result={dryRun.data} total={job.total} />
            {dryRun.data.errors.length > 0 && <RowErrors title={t('caseList.import.dryErrors', { count: new Set(dryRun.data.errors.map((e) => e.line)).size })} errors={dryRun.data.errors} labelOf={labelOf} />}
            {run.isError && (
              <Alert severity="error" role="alert" sx={{ mt: 2 }}>
                {problemOf(run.error)}
              </Alert>
            )}
          </Box>
        )}

        {step === 'run' && !progress.data && <LinearProgress aria-label={t('caseList.import.progressLabel')} />}
        {step === 'run' && progress.data && <RunReport job={progress.data} labelOf={labelOf} />}
        {running && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
            {t('caseList.import.closeWhileRunning')}
          </Typography>
        )}
        {step === 'run' && progress.isError && (
          <Alert severity="error" role="alert" sx={{ mt: 2 }}>
            {errorMessage(progress.error)}
          </Alert>
        )}
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        {step === 'columns' && <Button onClick={() => setStep('file')}>{t('caseList.import.back')}</Button>}
        {step === 'check' && <Button onClick={() => setStep('columns')}>{t('caseList.import.back')}</Button>}
        <Box sx={{ flexGrow: 1 }} />
        {step !== 'run' && <Button onClick={() => onClose(false)}>{t('common.cancel')}</Button>}
        {step === 'columns' && (
          <Button variant="contained" onClick={check} loading={dryRun.isPending}>
            {t('caseList.import.check')}
          </Button>
        )}
        {step === 'check' && dryRun.data && (
          <Button variant="contained" disabled={dryRun.data.valid === 0} loading={run.isPending} onClick={() => run.mutate({ id: job?.id, mapping: body() })}>
            {t('caseList.import.run', { count: dryRun.data.valid })}
          </Button>
        )}
        {step === 'run' && (
          <Button variant="contained" onClick={() => onClose(true)}>
            {t('common.close')}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}

function CheckSummary({ result, total }: { result: DryRunResult; total: number }) {
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

function RowErrors({ title, errors, labelOf }: { title: string; errors: RowError[]; labelOf: (name: string | null) => string }) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <Box sx={{ mt: 2 }}>
      <Typography id={titleId} component="h3" variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
        {title}
      </Typography>
      <TableContainer sx={{ maxHeight: 320, overflow: 'auto', border: 1, borderColor: 'divider', borderRadius: 1 }}>
        <Table size="small" stickyHeader aria-labelledby={titleId}>
          <TableHead>
            <TableRow>
              <TableCell sx={{ fontWeight: 600 }}>{t('caseList.import.line')}</TableCell>
              <TableCell sx={{ fontWeight: 600 }}>{t('caseList.import.field')}</TableCell>
              <TableCell sx={{ fontWeight: 600 }}>{t('caseList.import.message')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {errors.map((error) => (
              <TableRow key={`${error.line}:${error.field}:${error.message}`}>
                <TableCell>{error.line}</TableCell>
                <TableCell sx={{ overflowWrap: 'anywhere' }}>{labelOf(error.field?.split('.')[0] ?? null) || error.field}</TableCell>
                <TableCell sx={{ overflowWrap: 'anywhere' }}>{error.message}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    </Box>
  );
}

function RunReport({ job, labelOf }: { job: ImportJob; labelOf: (name: string | null) => string }) {
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
