import PrintOutlined from '@mui/icons-material/PrintOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import GlobalStyles from '@mui/material/GlobalStyles';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { formatDate, formatDateTime } from '../../../../core/dates.js';
import { useProjectSettings } from '../../app/project/projectSettings.js';
import { setRobots } from '../../app/project/useProjectBranding.js';
import { FactsList, QueryState } from '../../components/page/index.js';
import { PageHeader } from '../../components/PageHeader.js';
import { ApiError } from '../../lib/api.js';
import { useLandingPage } from './api.js';

/**
 * /landing/{entity docnumber}/{name}/{code}: one application's printable
 * public page, opened in a new window from the case page. It shows what the
 * applicant's own view shows (number, programme, status in plain words,
 * dates, public steps, the documents asked by name), never staff notes or
 * form data. Never indexed (a robots meta tag here, X-Robots-Tag on its API
 * answer, and /robots.txt); printing leaves out the buttons and the footer.
 */
export default function LandingPage() {
  const { t, i18n } = useTranslation();
  const { docnumber = '', name = '', code = '' } = useParams();
  const query = useLandingPage(docnumber, name, code);
  const { timeZone } = useProjectSettings();
  const lang = i18n.resolvedLanguage === 'es' ? 'es' : 'en';

  useEffect(() => {
    setRobots('landing-robots', 'noindex, nofollow');
    return () => setRobots('landing-robots', null);
  }, []);

  if (query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 400)) {
    return (
      <Box sx={{ maxWidth: 720, mx: 'auto' }}>
        <PageHeader title={t('landing.untitled')} />
        <Alert severity="info">{t('landing.notFound')}</Alert>
      </Box>
    );
  }

  return (
    <Box sx={{ maxWidth: 720, mx: 'auto' }}>
      <GlobalStyles styles={{ '@media print': { 'footer, .landing-no-print': { display: 'none !important' }, main: { padding: '0 !important' } } }} />
      <QueryState query={query} height={320} retry>
        {(p) => (
          <Box component="article" sx={{ display: 'grid', gap: 2 }}>
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
              {p.entity.logo && <Box component="img" src={p.entity.logo} alt="" sx={{ height: 48, maxWidth: 160, objectFit: 'contain' }} />}
              <Typography sx={{ fontWeight: 500 }}>{p.entity.name}</Typography>
            </Box>
            <PageHeader title={p.number ? t('landing.pageTitle', { number: p.number }) : t('landing.untitled')}>
              <Button className="landing-no-print" variant="outlined" startIcon={<PrintOutlined />} onClick={() => window.print()}>
                {t('landing.print')}
              </Button>
            </PageHeader>
            <FactsList
              items={[
                [t('landing.number'), p.number ?? '—'],
                [t('landing.programme'), p.programme[lang]],
                [t('landing.status'), <strong key="s">{t(`casePortal.status.${p.status}`)}</strong>],
                [t('landing.submitted'), p.submittedAt ? formatDate(p.submittedAt, timeZone) : '—'],
                [t('landing.updated'), formatDate(p.updatedAt, timeZone)],
              ]}
            />
            {p.requestedDocuments.length > 0 && (
              <Box component="section" aria-labelledby="landing-requested">
                <Typography id="landing-requested" component="h2" variant="h6">
                  {t('landing.requested')}
                </Typography>
                <Box component="ul" sx={{ my: 0.5 }}>
                  {p.requestedDocuments.map((d) => (
                    <li key={d.name}>{d.name}</li>
                  ))}
                </Box>
              </Box>
            )}
            <Box component="section" aria-labelledby="landing-steps">
              <Typography id="landing-steps" component="h2" variant="h6">
                {t('landing.steps')}
              </Typography>
              {p.events.length === 0 ? (
                <Typography color="text.secondary">{t('landing.noSteps')}</Typography>
              ) : (
                <Box component="ol" sx={{ my: 0.5, pl: 3 }}>
                  {p.events.map((e, index) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: steps have no id; their order is fixed.
                    <li key={index}>
                      <strong>{t(`casePortal.event.${e.kind}`)}</strong> · {formatDateTime(e.at, timeZone)}
                      {e.documents.length > 0 && <> · {e.documents.join(', ')}</>}
                    </li>
                  ))}
                </Box>
              )}
            </Box>
            <Typography variant="caption" color="text.secondary">
              {t('landing.printedFrom')} · {p.entity.name} ({p.entity.docnumber})
            </Typography>
          </Box>
        )}
      </QueryState>
    </Box>
  );
}
