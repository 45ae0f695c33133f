import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { QueryState, Section } from '../../components/page/index.js';
import { isNotFound, type PublicProgrammeDetail, usePublicProgramme } from './api.js';
import { ApplyPanel } from './ApplyPanel.js';
import { EntityLogo, H1_SIZE, LocalizedText, PublicBreadcrumbs, PublicNotFound, useDocumentTitle, useLocalized } from './parts.js';

/**
 * /publico/{entity}/{protocol}: one programme (a published public protocol)
 * with what it is, who may apply, and the way to apply (ApplyPanel). The
 * copy-URL action of the protocol list points here. Anything not public is
 * the 404 page, whatever the reason.
 */
export default function PublicProgrammePage() {
  const { entity = '', code = '' } = useParams();
  const query = usePublicProgramme(entity, code);
  const localized = useLocalized();
  const title = query.data ? localized(query.data.title, query.data.name).text : undefined;
  useDocumentTitle(query.data && `${title} · ${query.data.entity.name}`);
  if (query.isError && isNotFound(query.error)) return <PublicNotFound />;
  return (
    <Box sx={{ maxWidth: 960, mx: 'auto' }}>
      <QueryState query={query} retry height={320}>
        {(data) => <ProgrammeContent programme={data} />}
      </QueryState>
    </Box>
  );
}

function ProgrammeContent({ programme }: { programme: PublicProgrammeDetail }) {
  const { t } = useTranslation();
  const localized = useLocalized();
  const title = localized(programme.title, programme.name);
  const description = localized(programme.description);
  const eligibility = localized(programme.eligibility);
  const { entity } = programme;
  return (
    <>
      <PublicBreadcrumbs trail={[{ label: entity.name, to: `/publico/${entity.slug}` }, { label: title.text }]} />
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 3 }}>
        <EntityLogo logo={entity.logo} size={48} />
        <Box sx={{ minWidth: 0 }}>
          <Typography color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
            {entity.name}
          </Typography>
          <LocalizedText value={title} component="h1" variant="h4" sx={{ fontSize: H1_SIZE }} />
        </Box>
      </Box>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 2fr) minmax(0, 1fr)' }, alignItems: 'start' }}>
        <Box sx={{ display: 'grid', gap: 2, minWidth: 0 }}>
          {description.text && (
            <Section title={t('public.about')} id="programme-about">
              <LocalizedText value={description} />
            </Section>
          )}
          {eligibility.text && (
            <Section title={t('public.eligibility')} id="programme-eligibility">
              <LocalizedText value={eligibility} />
            </Section>
          )}
        </Box>
        <Section title={t('public.applyTitle')} id="programme-apply">
          <ApplyPanel programme={programme} title={title.text} />
        </Section>
      </Box>
    </>
  );
}
