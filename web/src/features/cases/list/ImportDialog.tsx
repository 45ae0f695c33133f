import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import { useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { importProblem } from '../../../components/page/index.js';
import { ApiError, errorMessage } from '../../../lib/api.js';
import {
  type ImportJob,
  type ImportMapping,
  type ImportMode,
  importEnded,
  type SearchProtocol,
  useCaseImportDryRun,
  useCaseImportProgress,
  useRunCaseImport,
  useUploadCaseImport,
} from '../api.js';
import { ImportColumnsStep } from './ImportColumnsStep.js';
import { ImportFileStep } from './ImportFileStep.js';
import { ImportModeChoice } from './ImportModeChoice.js';
import { guessMapping, guessRef } from './importMapping.js';
import { CheckSummary, RowErrors, RunReport } from './ImportReports.js';

const STEPS = ['file', 'columns', 'check', 'run'] as const;
type StepName = (typeof STEPS)[number];


interface ImportDialogProps {
  protocols: SearchProtocol[];
  onClose: (imported: boolean) => void;
}

/**
 * CSV or Excel import of cases, in four steps: upload the file, map each
 * column to a field of the main form (or ignore it) and name the reference
 * column, a dry run that checks every row and lists the bad ones (there the
 * user chooses to import the valid rows or all or nothing), then the import
 * in the background with its progress, rate and time left, and its report
 * with the rejected rows to download. Rows whose reference was imported
 * before are skipped, so the same file twice creates nothing twice, and an
 * interrupted import run again resumes.
 */
export function ImportDialog({ protocols, onClose }: ImportDialogProps) {
  const { t, i18n } = useTranslation();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const titleId = useId();
  const [step, setStep] = useState<StepName>('file');
  const [protocolId, setProtocolId] = useState(protocols.length === 1 ? String(protocols[0]?.id) : '');
  const [protocolMissing, setProtocolMissing] = useState(false);
  const [job, setJob] = useState<ImportJob | null>(null);
  const [mapping, setMapping] = useState<Record<string, string>>({});
  const [refColumn, setRefColumn] = useState('');
  const [refMissing, setRefMissing] = useState(false);
  const [mode, setMode] = useState<ImportMode>('valid_rows');

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
  const body = (): ImportMapping => ({ mapping: Object.fromEntries(Object.entries(mapping).filter(([, field]) => field)), refColumn, mode });
  const dryRun = useCaseImportDryRun({ onSuccess: () => setStep('check') });
  const progress = useCaseImportProgress(job?.id, step === 'run' && !!job);
  const run = useRunCaseImport({
    onSuccess: () => {
      setStep('run');
      // Run again after an interruption: the ended answer had stopped the polling; ask again.
      if (progress.data) void progress.refetch();
    },
  });

  const chooseFile = (file: File | undefined) => {
    if (!file) return;
    if (!protocolId) return setProtocolMissing(true);
    upload.mutate(file);
  };
  const check = () => {
    if (!refColumn) return setRefMissing(true);
    dryRun.mutate({ id: job?.id, mapping: body() });
  };

  const finished = step === 'run' && !!progress.data && importEnded(progress.data.status) && !run.isPending;
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
          <ImportFileStep
            protocols={protocols}
            protocolId={protocolId}
            protocolMissing={protocolMissing}
            onProtocolChange={(value) => {
              setProtocolId(value);
              setProtocolMissing(false);
            }}
            onProtocolMissing={() => setProtocolMissing(true)}
            onFile={chooseFile}
            uploading={upload.isPending}
            uploadError={upload.isError ? upload.error : null}
          />
        )}

        {step === 'columns' && job && (
          <ImportColumnsStep
            job={job}
            refColumn={refColumn}
            refMissing={refMissing}
            onRefColumn={(column) => {
              setRefColumn(column);
              setRefMissing(false);
            }}
            mapping={mapping}
            onMap={(column, field) => setMapping((current) => ({ ...current, [column]: field }))}
            mappingErrors={mappingErrors}
            labelOf={labelOf}
            checkError={dryRun.isError ? dryRun.error : null}
            checking={dryRun.isPending}
          />
        )}

        {step === 'check' && dryRun.data && job && (
          <Box>
            <CheckSummary result={dryRun.data} total={job.total} />
            <ImportModeChoice mode={mode} onChange={setMode} disabled={run.isPending} />
            {mode === 'all_or_nothing' && dryRun.data.errors.length > 0 && (
              <Alert severity="warning" role="status" sx={{ mb: 1 }}>
                {t('caseList.import.mode.wouldReject')}
              </Alert>
            )}
            {dryRun.data.errors.length > 0 && <RowErrors title={t('caseList.import.dryErrors', { count: new Set(dryRun.data.errors.map((e) => e.line)).size })} errors={dryRun.data.errors} labelOf={labelOf} />}
            {run.isError && (
              <Alert severity="error" role="alert" sx={{ mt: 2 }}>
                {importProblem(run.error)}
              </Alert>
            )}
          </Box>
        )}

        {step === 'run' && !progress.data && <LinearProgress aria-label={t('caseImports.progress.label')} />}
        {step === 'run' && progress.data && (
          <RunReport
            job={progress.data}
            labelOf={labelOf}
            resuming={run.isPending}
            {...(progress.data.mine !== false && { onResume: () => run.mutate({ id: job?.id, mapping: body() }) })}
          />
        )}
        {step === 'run' && run.isError && (
          <Alert severity="error" role="alert" sx={{ mt: 2 }}>
            {importProblem(run.error)}
          </Alert>
        )}
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
