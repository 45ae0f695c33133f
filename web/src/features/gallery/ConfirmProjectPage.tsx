import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams, useSearchParams } from 'react-router';
import { useDialogs } from '../../components/feedback/FeedbackProvider.js';
import { QueryState, Section } from '../../components/page/index.js';
import { PageHeader } from '../../components/PageHeader.js';
import { errorMessage } from '../../lib/api.js';
import { type InstallPlan, type Installed, useGallery, useInstall, usePreviewInstall } from './api.js';
import { inLang } from './GalleryPage.js';
import { PlanReport } from './PlanReport.js';
import { UID_PATTERN } from './uid.js';

/**
 * /vainilla/confirmar-proyecto/:id?uid=&title=: `:id` is the gallery
 * application and the query the project chosen on the register page (kept
 * in the address, so a reload or a shared link shows the same choice). The
 * preview is asked again (what exists may have changed), then Confirm
 * installs it in one request, with progress, and the success links to the
 * new project's protocols and their public pages.
 */
export default function ConfirmProjectPage() {
  const { t, i18n } = useTranslation();
  const dialogs = useDialogs();
  const { id: appKey = '' } = useParams();
  const [params] = useSearchParams();
  const uid = params.get('uid') ?? '';
  const title = (params.get('title') ?? '').trim();
  const valid = appKey !== '' && UID_PATTERN.test(uid) && title !== '';
  const gallery = useGallery();
  const [plan, setPlan] = useState<InstallPlan | null>(null);
  const [done, setDone] = useState<Installed | null>(null);
  const [error, setError] = useState<string | null>(null);
  const preview = usePreviewInstall({ onSuccess: (p) => setPlan(p), onError: (e) => setError(errorMessage(e)) });
  const install = useInstall({ onSuccess: (d) => setDone(d), onError: (e) => setError(errorMessage(e)) });
  const { mutate: ask } = preview;

  useEffect(() => {
    if (valid) ask({ app: appKey, target: { uid, title } });
  }, [valid, ask, appKey, uid, title]);

  if (!valid) {
    return (
      <Box sx={{ display: 'grid', gap: 2 }}>
        <PageHeader title={t('gallery.confirm.title')} />
        <Typography>{t('gallery.confirm.missing')}</Typography>
        <Box>
          <Button component={RouterLink} to="/vainilla-apps">
            {t('gallery.register.back')}
          </Button>
        </Box>
      </Box>
    );
  }

  const confirm = async () => {
    const ok = await dialogs.confirm({ title: t('gallery.confirm.dialogTitle'), message: t('gallery.confirm.dialogText'), confirmText: t('gallery.confirm.button') });
    if (ok) {
      setError(null);
      install.mutate({ app: appKey, target: { uid, title } });
    }
  };

  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <PageHeader title={t('gallery.confirm.title')} />
      <QueryState query={gallery} retry>
        {(items) => {
          const app = items.find((a) => a.key === appKey);
          if (!app) return <Alert severity="warning">{t('gallery.register.unknownApp')}</Alert>;
          if (done) {
            return (
              <Section title={t('gallery.confirm.success', { title: done.project.title })}>
                <Box role="status">
                  <Typography component="h3" variant="subtitle1">
                    {t('gallery.confirm.protocols')}
                  </Typography>
                  <List>
                    {done.protocols.map((p) => (
                      <ListItem key={p.id} disableGutters sx={{ flexWrap: 'wrap', gap: 1 }}>
                        <Button variant="contained" component={RouterLink} to={`/protocolos/${p.id}`}>
                          {t('gallery.confirm.openProtocol', { name: p.name })}
                        </Button>
                        <Button component="a" href={p.publicUrl} target="_blank" rel="noopener">
                          {t('gallery.confirm.publicPage')}
                        </Button>
                      </ListItem>
                    ))}
                  </List>
                </Box>
              </Section>
            );
          }
          return (
            <Section title={t('gallery.confirm.summary', { title, uid, app: inLang(app.title, i18n.language) })}>
              {preview.isPending && <LinearProgress aria-label={t('gallery.register.review')} />}
              {plan && <PlanReport plan={plan} />}
              {install.isPending && (
                <Box role="status" sx={{ my: 2 }}>
                  <Typography>{t('gallery.confirm.installing')}</Typography>
                  <LinearProgress />
                </Box>
              )}
              {error && (
                <Alert severity="error" sx={{ my: 2 }}>
                  {error} {install.isError ? t('gallery.confirm.failed') : ''}
                </Alert>
              )}
              <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 2 }}>
                <Button variant="contained" onClick={confirm} disabled={!plan?.ok || install.isPending}>
                  {t('gallery.confirm.button')}
                </Button>
                <Button component={RouterLink} to={`/vainilla/registrar-proyecto?${new URLSearchParams({ app: appKey, uid, title }).toString()}`}>
                  {t('gallery.register.title')}
                </Button>
              </Box>
            </Section>
          );
        }}
      </QueryState>
    </Box>
  );
}
