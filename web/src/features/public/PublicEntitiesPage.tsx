import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import Pagination from '@mui/material/Pagination';
import Typography from '@mui/material/Typography';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { QueryState } from '../../components/page/index.js';
import { SearchField } from '../../components/table/SearchField.js';
import { PUBLIC_PAGE_SIZE, usePublicEntities } from './api.js';
import { EntityLogo, H1_SIZE, useDocumentTitle } from './parts.js';

/**
 * /publico: the organisations (entities) that publish programmes anyone may
 * apply to, each a link to its page. No session needed.
 */
export default function PublicEntitiesPage() {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const wanted = search.trim();
  const entities = usePublicEntities(wanted, page);
  // Asked once the visitor pauses typing (SearchField waits), from the first page.
  const onSearch = useCallback((text: string) => {
    setSearch(text);
    setPage(1);
  }, []);
  useDocumentTitle(t('public.title'));
  const pages = Math.ceil((entities.data?.total ?? 0) / PUBLIC_PAGE_SIZE);

  return (
    <Box sx={{ maxWidth: 960, mx: 'auto' }}>
      <Typography variant="h4" component="h1" gutterBottom sx={{ fontSize: H1_SIZE }}>
        {t('public.title')}
      </Typography>
      <Typography sx={{ mb: 2 }}>{t('public.intro')}</Typography>
      <Box role="search" sx={{ mb: 2 }}>
        <SearchField onSearch={onSearch} label={t('public.search')} />
      </Box>
      <QueryState
        query={entities}
        retry
        height={240}
        isEmpty={(data) => data.items.length === 0}
        empty={<Alert severity="info">{wanted ? t('public.noMatch') : t('public.noEntities')}</Alert>}
      >
        {(data) => (
          <>
            <Typography role="status" variant="body2" color="text.secondary" sx={{ mb: 1 }}>
              {t('public.entitiesFound', { count: data.total })}
            </Typography>
            <Box
              component="ul"
              sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'repeat(2, minmax(0, 1fr))' } }}
            >
              {data.items.map((entity) => (
                <Card component="li" variant="outlined" key={entity.slug}>
                  <CardActionArea component={RouterLink} to={`/publico/${entity.slug}`} sx={{ p: 2, display: 'flex', alignItems: 'center', justifyContent: 'flex-start', gap: 2, height: '100%' }}>
                    <EntityLogo logo={entity.logo} />
                    <Box sx={{ minWidth: 0 }}>
                      <Typography component="h2" variant="h6" sx={{ overflowWrap: 'anywhere' }}>
                        {entity.name}
                      </Typography>
                      <Typography variant="body2" color="text.secondary">
                        {t('public.programmes', { count: entity.programmes })}
                      </Typography>
                    </Box>
                  </CardActionArea>
                </Card>
              ))}
            </Box>
            {pages > 1 && (
              <Pagination
                sx={{ mt: 2, display: 'flex', justifyContent: 'center' }}
                aria-label={t('public.pages')}
                count={pages}
                page={page}
                onChange={(_event, value) => setPage(value)}
                getItemAriaLabel={(type, value, selected) =>
                  type === 'page' ? t(selected ? 'public.currentPage' : 'public.goToPage', { page: value }) : t(`public.${type}Page`)
                }
              />
            )}
          </>
        )}
      </QueryState>
    </Box>
  );
}
