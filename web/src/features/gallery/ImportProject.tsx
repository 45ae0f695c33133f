import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type ChangeEvent, type ReactNode, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { BUNDLE_MAX_BYTES } from '../../../../core/api/gallery.js';
import { useDialogs } from '../../components/feedback/FeedbackProvider.js';
import { showToast } from '../../components/feedback/toastStore.js';
import { InfoDialog, Section } from '../../components/page/index.js';
import { ApiError, errorMessage } from '../../lib/api.js';
import { type InstallPlan, type Installed, useImportDryRun, useImportProject } from './api.js';
import { PlanReport } from './PlanReport.js';
import { UID_PATTERN } from './uid.js';

/** Import a project file: pick it, check it (the dry run's report), then import it after a confirmation. */
export function ImportProject({ icon }: { icon: ReactNode }) {
  const { t } = useTranslation();
  const dialogs = useDialogs();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<{ name: string; bundle: unknown } | null>(null);
  const [uid, setUid] = useState('');
  const [title, setTitle] = useState('');
  const [plan, setPlan] = useState<InstallPlan | null>(null);
  const [problem, setProblem] = useState<{ message: string; details: readonly { path: string; message: string }[] } | null>(null);
  const [done, setDone] = useState<Installed | null>(null);
  const onError = (error: Error) => setProblem({ message: errorMessage(error), details: error instanceof ApiError ? error.details : [] });
  const dryRun = useImportDryRun({ onSuccess: (p) => setPlan(p), onError });
  const run = useImportProject({
    onSuccess: (d) => {
      setPlan(null);
      setDone(d);
      showToast(t('gallery.import.done', { title: d.project.title }), 'success');
    },
    onError,
  });

  const request = () => ({ bundle: file?.bundle, ...(uid ? { uid } : {}), ...(title.trim() ? { title: title.trim() } : {}) });
  const pick = async (e: ChangeEvent<HTMLInputElement>) => {
    const f = e.target.files?.[0];
    e.target.value = '';
    setPlan(null);
    setProblem(null);
    setDone(null);
    setFile(null);
    if (!f) return;
    if (f.size > BUNDLE_MAX_BYTES) return setProblem({ message: t('gallery.import.tooLarge', { mb: BUNDLE_MAX_BYTES / 1024 / 1024 }), details: [] });
    try {
      setFile({ name: f.name, bundle: JSON.parse(await f.text()) });
    } catch {
      setProblem({ message: t('gallery.import.notJson'), details: [] });
    }
  };
  const confirm = async () => {
    if (!plan) return;
    const ok = await dialogs.confirm({
      title: t('gallery.import.confirmTitle'),
      message: t('gallery.import.confirmText', { title: plan.project.title, uid: plan.project.uid }),
      confirmText: t('gallery.import.confirm'),
    });
    if (ok) run.mutate(request());
  };
  const uidBad = uid !== '' && !UID_PATTERN.test(uid);

  return (
    <Section title={t('gallery.import.title')}>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('gallery.import.help')}
      </Typography>
      <Box component="form" onSubmit={(e) => { e.preventDefault(); if (file && !uidBad) dryRun.mutate(request()); }} sx={{ display: 'grid', gap: 2 }}>
        <input ref={input} type="file" accept=".json,application/json" hidden onChange={pick} data-testid="gallery-import-file" />
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
          <Button variant="outlined" startIcon={icon} onClick={() => input.current?.click()}>
            {t('gallery.import.choose')}
          </Button>
          {file && <Typography sx={{ overflowWrap: 'anywhere' }}>{t('gallery.import.chosen', { name: file.name })}</Typography>}
        </Box>
        <TextField label={t('gallery.import.uid')} value={uid} onChange={(e) => setUid(e.target.value.trim())} error={uidBad} helperText={uidBad ? t('gallery.badUid') : ' '} size="small" />
        <TextField label={t('gallery.import.projectTitle')} value={title} onChange={(e) => setTitle(e.target.value)} size="small" slotProps={{ htmlInput: { maxLength: 200 } }} />
        <Box>
          <Button type="submit" variant="contained" disabled={!file || uidBad || dryRun.isPending} loading={dryRun.isPending}>
            {t('gallery.import.check')}
          </Button>
        </Box>
        {problem && (
          <Box role="alert" sx={{ color: 'error.main' }}>
            <Typography>{problem.message}</Typography>
            {problem.details.length > 0 && (
              <ul>
                {problem.details.map((d) => (
                  <li key={`${d.path}:${d.message}`}>
                    {d.message} <Typography component="span" variant="caption">({d.path})</Typography>
                  </li>
                ))}
              </ul>
            )}
          </Box>
        )}
        {done && (
          <Box role="status">
            <Typography>{t('gallery.import.done', { title: done.project.title })}</Typography>
            {done.protocols.map((p) => (
              <Button key={p.id} component={RouterLink} to={`/protocolos/${p.id}`} size="small">
                {t('gallery.confirm.openProtocol', { name: p.name })}
              </Button>
            ))}
          </Box>
        )}
      </Box>
      {plan && (
        <InfoDialog title={t('gallery.import.reportTitle')} onClose={() => setPlan(null)} report>
          <PlanReport plan={plan} />
          <Box sx={{ mt: 2 }}>
            <Button variant="contained" onClick={confirm} disabled={!plan.ok || run.isPending} loading={run.isPending}>
              {t('gallery.import.confirm')}
            </Button>
          </Box>
        </InfoDialog>
      )}
    </Section>
  );
}
