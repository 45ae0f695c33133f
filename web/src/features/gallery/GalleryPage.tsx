import Download from '@mui/icons-material/Download';
import UploadFile from '@mui/icons-material/UploadFile';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useProjectSettings } from '../../app/project/projectSettings.js';
import { FactsList, QueryState, Section } from '../../components/page/index.js';
import { PageHeader } from '../../components/PageHeader.js';
import { type GalleryApp, exportUrl, useGallery } from './api.js';
import { ImportProject } from './ImportProject.js';
import { UID_PATTERN } from './uid.js';

const COUNTS = ['protocols', 'tasks', 'forms', 'masters', 'teams', 'mailTemplates'] as const;

/** The language's text of a bilingual pair. */
export const inLang = (pair: { en: string; es: string }, lang: string) => (lang.startsWith('es') ? pair.es || pair.en : pair.en || pair.es);

function AppCard({ app }: { app: GalleryApp }) {
  const { t, i18n } = useTranslation();
  const title = inLang(app.title, i18n.language);
  return (
    <Card variant="outlined" component="article" aria-label={title} sx={{ display: 'flex', flexDirection: 'column', minWidth: 0 }}>
      <CardContent sx={{ flexGrow: 1 }}>
        <Typography component="h2" variant="h6" gutterBottom>
          {title}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {inLang(app.description, i18n.language)}
        </Typography>
        <Typography component="h3" variant="subtitle2" gutterBottom>
          {t('gallery.contains')}
        </Typography>
        <FactsList items={COUNTS.map((c) => [t(`gallery.counts.${c}`), String(app.contains[c])])} />
      </CardContent>
      <CardActions>
        <Button variant="contained" component={RouterLink} to={`/vainilla/registrar-proyecto?app=${encodeURIComponent(app.key)}`} aria-label={t('gallery.useAria', { title })}>
          {t('gallery.use')}
        </Button>
      </CardActions>
    </Card>
  );
}

function ExportProject() {
  const { t } = useTranslation();
  const settings = useProjectSettings();
  const [uid, setUid] = useState(settings.id === 'default' ? '' : settings.id);
  const valid = UID_PATTERN.test(uid);
  return (
    <Section title={t('gallery.export.title')}>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('gallery.export.help')}
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'flex-start' }}>
        <TextField
          label={t('gallery.export.uid')}
          value={uid}
          onChange={(e) => setUid(e.target.value.trim())}
          error={uid !== '' && !valid}
          helperText={uid !== '' && !valid ? t('gallery.badUid') : ' '}
          size="small"
          sx={{ flex: '1 1 220px' }}
        />
        <Button variant="outlined" startIcon={<Download />} component="a" href={valid ? exportUrl(uid) : undefined} disabled={!valid} download={valid ? `${uid}.casebook.json` : undefined}>
          {t('gallery.export.button')}
        </Button>
      </Box>
    </Section>
  );
}

/** /vainilla-apps: the gallery's applications as cards, and a project's export and import. */
export default function GalleryPage() {
  const { t } = useTranslation();
  const query = useGallery();
  return (
    <Box sx={{ display: 'grid', gap: 3 }}>
      <PageHeader title={t('gallery.title')} />
      <Typography>{t('gallery.intro')}</Typography>
      <QueryState query={query} retry isEmpty={(items) => items.length === 0} empty={<Typography>{t('gallery.empty')}</Typography>}>
        {(items) => (
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'repeat(2, minmax(0, 1fr))' } }}>
            {items.map((app) => (
              <AppCard key={app.key} app={app} />
            ))}
          </Box>
        )}
      </QueryState>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'repeat(2, minmax(0, 1fr))' } }}>
        <ExportProject />
        <ImportProject icon={<UploadFile />} />
      </Box>
    </Box>
  );
}
