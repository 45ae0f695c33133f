import ArrowForwardOutlined from '@mui/icons-material/ArrowForwardOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { QueryState } from '../../components/page/index.js';
import { isNotFound, type PublicEntity, type PublicProgramme, usePublicEntity } from './api.js';
import { ApplicationsNotice } from './ApplyPanel.js';
import { EntityLogo, H1_SIZE, LocalizedText, PublicBreadcrumbs, PublicNotFound, useDocumentTitle, useLocalized } from './parts.js';

/**
 * /publico/{entity} (its docnumber or its slug): the entity's programmes,
 * each with its title, what it is and who may apply, and a link to its own
 * page where the visitor applies. Anything not public is the 404 page.
 */
export default function PublicEntityPage() {
  const { entity = '' } = useParams();
  const query = usePublicEntity(entity);
  useDocumentTitle(query.data?.name);
  if (query.isError && isNotFound(query.error)) return <PublicNotFound />;
  return (
    <Box sx={{ maxWidth: 960, mx: 'auto' }}>
      <QueryState query={query} retry height={320}>
        {(data) => <EntityContent entity={data} />}
      </QueryState>
    </Box>
  );
}

function EntityContent({ entity }: { entity: PublicEntity }) {
  const { t } = useTranslation();
  return (
    <>
      <PublicBreadcrumbs trail={[{ label: entity.name }]} />
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 2 }}>
        <EntityLogo logo={entity.logo} size={48} />
        <Typography variant="h4" component="h1" sx={{ overflowWrap: 'anywhere', minWidth: 0, fontSize: H1_SIZE }}>
          {entity.name}
        </Typography>
      </Box>
      <ApplicationsNotice state={entity.applications} />
      <Typography component="h2" variant="h5" sx={{ mt: 3, mb: 2 }}>
        {t('public.programmesTitle')}
      </Typography>
      <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 2 }}>
        {entity.programmes.map((programme) => (
          <ProgrammeCard key={programme.code} entity={entity} programme={programme} />
        ))}
      </Box>
    </>
  );
}

function ProgrammeCard({ entity, programme }: { entity: PublicEntity; programme: PublicProgramme }) {
  const { t } = useTranslation();
  const localized = useLocalized();
  const headingId = useId();
  const title = localized(programme.title, programme.name);
  const description = localized(programme.description);
  const eligibility = localized(programme.eligibility);
  return (
    <Card component="li" variant="outlined" aria-labelledby={headingId}>
      <CardContent>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mb: 1 }}>
          <EntityLogo logo={entity.logo} size={32} />
          <LocalizedText id={headingId} value={title} component="h3" variant="h6" />
        </Box>
        {description.text && <LocalizedText value={description} sx={{ mb: 1 }} />}
        {eligibility.text && (
          <>
            <Typography component="h4" variant="subtitle1" sx={{ fontWeight: 600, mt: 1 }}>
              {t('public.eligibility')}
            </Typography>
            <LocalizedText value={eligibility} color="text.secondary" />
          </>
        )}
      </CardContent>
      <CardActions sx={{ px: 2, pb: 2 }}>
        <Button
          variant="contained"
          component={RouterLink}
          to={`/publico/${entity.slug}/${programme.code}`}
          endIcon={<ArrowForwardOutlined />}
          aria-label={t('public.seeProgrammeOf', { title: title.text })}
        >
          {t('public.seeProgramme')}
        </Button>
      </CardActions>
    </Card>
  );
}
