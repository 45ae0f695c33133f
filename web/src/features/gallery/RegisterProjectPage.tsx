import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { QueryState, Section } from '../../components/page/index.js';
import { PageHeader } from '../../components/PageHeader.js';
import { errorMessage } from '../../lib/api.js';
import { type InstallPlan, useGallery, usePreviewInstall } from './api.js';
import { inLang } from './GalleryPage.js';
import { PlanReport } from './PlanReport.js';
import { suggestUid, UID_PATTERN } from './uid.js';

/** The address of the confirm page for this choice: the app in the path, the new project in the query. */
export const confirmPath = (app: string, uid: string, title: string) =>
  `/vainilla/confirmar-proyecto/${encodeURIComponent(app)}?${new URLSearchParams({ uid, title }).toString()}`;

/**
 * /vainilla/registrar-proyecto?app=: the new project's title and uid (the uid
 * suggested from the title until it is typed), then Review: the preview of
 * what will be created and what conflicts, and Continue to the confirmation.
 */
export default function RegisterProjectPage() {
  const { t, i18n } = useTranslation();
  const [params] = useSearchParams();
  const appKey = params.get('app') ?? '';
  const gallery = useGallery();
  const [title, setTitle] = useState(params.get('title') ?? '');
  const [uid, setUid] = useState(params.get('uid') ?? '');
  const [uidTyped, setUidTyped] = useState(params.has('uid'));
  const [plan, setPlan] = useState<InstallPlan | null>(null);
  const [error, setError] = useState<string | null>(null);
  const preview = usePreviewInstall({ onSuccess: (p) => setPlan(p), onError: (e) => setError(errorMessage(e)) });

  const back = (
    <Button component={RouterLink} to="/vainilla-apps">
      {t('gallery.register.back')}
    </Button>
  );
  if (!appKey) {
    return (
      <Box sx={{ display: 'grid', gap: 2 }}>
        <PageHeader title={t('gallery.register.title')} />
        <Typography>{t('gallery.register.noApp')}</Typography>
        <Box>{back}</Box>
      </Box>
    );
  }

  const uidBad = uid !== '' && !UID_PATTERN.test(uid);
  const changeTitle = (value: string) => {
    setTitle(value);
    setPlan(null);
    if (!uidTyped) setUid(suggestUid(value));
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    if (!title.trim() || !uid || uidBad) return;
    preview.mutate({ app: appKey, target: { uid, title: title.trim() } });
  };

  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <PageHeader title={t('gallery.register.title')}>{back}</PageHeader>
      <QueryState query={gallery} retry>
        {(items) => {
          const app = items.find((a) => a.key === appKey);
          if (!app) return <Alert severity="warning">{t('gallery.register.unknownApp')}</Alert>;
          const appTitle = inLang(app.title, i18n.language);
          return (
            <Box sx={{ display: 'grid', gap: 2 }}>
              <Typography>{t('gallery.register.intro', { app: appTitle })}</Typography>
              <Section title={appTitle}>
                <Box component="form" noValidate onSubmit={submit} sx={{ display: 'grid', gap: 2, maxWidth: 560 }}>
                  <TextField
                    label={t('gallery.register.projectTitle')}
                    value={title}
                    onChange={(e) => changeTitle(e.target.value)}
                    required
                    slotProps={{ htmlInput: { maxLength: 200 } }}
                    autoFocus
                  />
                  <TextField
                    label={t('gallery.register.uid')}
                    value={uid}
                    onChange={(e) => {
                      setUidTyped(true);
                      setPlan(null);
                      setUid(e.target.value.trim().toLowerCase());
                    }}
                    required
                    error={uidBad}
                    helperText={uidBad ? t('gallery.badUid') : t('gallery.register.uidHelp')}
                  />
                  <Box>
                    <Button type="submit" variant="contained" disabled={!title.trim() || !uid || uidBad || preview.isPending} loading={preview.isPending}>
                      {t('gallery.register.review')}
                    </Button>
                  </Box>
                  {error && <Alert severity="error">{error}</Alert>}
                </Box>
              </Section>
              {plan && (
                <Section title={t('gallery.register.review')}>
                  <PlanReport plan={plan} />
                  {plan.project.uidTaken && (
                    <Alert severity="warning" sx={{ mt: 2 }}>
                      {t('gallery.plan.uidTaken', { uid: plan.project.uid })}
                    </Alert>
                  )}
                  <Box sx={{ mt: 2 }}>
                    <Button variant="contained" component={RouterLink} to={confirmPath(appKey, plan.project.uid, plan.project.title)} disabled={!plan.ok}>
                      {t('gallery.register.continue')}
                    </Button>
                  </Box>
                </Section>
              )}
            </Box>
          );
        }}
      </QueryState>
    </Box>
  );
}
