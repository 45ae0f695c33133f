import AccountBalanceOutlined from '@mui/icons-material/AccountBalanceOutlined';
import Box from '@mui/material/Box';
import Breadcrumbs from '@mui/material/Breadcrumbs';
import Link from '@mui/material/Link';
import Typography, { type TypographyProps } from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { Language } from '../../i18n/index.js';
import { NotFoundPage } from '../errors/NotFoundPage.js';
import type { Bilingual } from './api.js';

/** The public pages' main heading: smaller on phones, where long programme names wrap. */
export const H1_SIZE = { xs: '1.625rem', sm: '2.125rem' } as const;

/** The other language of the two. */
const otherOf = (language: Language): Language => (language === 'en' ? 'es' : 'en');

/**
 * A text of a public page in the page's language; when the entity wrote it
 * only in the other one, that one, marked with its `lang` so that a screen
 * reader reads it in its own voice. `fallback` (a protocol's name) when
 * neither has it.
 */
export function useLocalized() {
  const { i18n } = useTranslation();
  const language: Language = i18n.resolvedLanguage === 'es' ? 'es' : 'en';
  return (text: Bilingual, fallback = ''): { text: string; lang?: Language } => {
    if (text[language].trim()) return { text: text[language] };
    const other = otherOf(language);
    if (text[other].trim()) return { text: text[other], lang: other };
    return { text: fallback };
  };
}

type LocalizedProps = Omit<TypographyProps, 'children'> & { value: { text: string; lang?: Language }; component?: React.ElementType };

/** A localized text (see useLocalized); its line breaks are kept, as the editor's textarea wrote them. */
export function LocalizedText({ value, sx, ...props }: LocalizedProps) {
  return (
    <Typography lang={value.lang} sx={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere', ...sx }} {...props}>
      {value.text}
    </Typography>
  );
}

/**
 * An entity's logo, or a neutral placeholder when it has none or the image
 * does not load: never a broken image. The entity's name is always written
 * beside it, so the image is decorative (empty alt).
 */
export function EntityLogo({ logo, size = 48 }: { logo: string | null; size?: number }) {
  const [failed, setFailed] = useState(false);
  useEffect(() => setFailed(false), [logo]);
  if (logo && !failed) {
    return (
      <Box
        component="img"
        src={logo}
        alt=""
        onError={() => setFailed(true)}
        data-testid="entity-logo"
        sx={{ width: size, height: size, objectFit: 'contain', flexShrink: 0 }}
      />
    );
  }
  return (
    <Box
      aria-hidden
      data-testid="entity-logo-placeholder"
      sx={{
        width: size,
        height: size,
        flexShrink: 0,
        borderRadius: 1,
        bgcolor: 'action.hover',
        color: 'text.secondary',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
      }}
    >
      <AccountBalanceOutlined sx={{ fontSize: size * 0.6 }} />
    </Box>
  );
}

/** Where the visitor is among the public pages: the last crumb is the current page. */
export function PublicBreadcrumbs({ trail }: { trail: ReadonlyArray<{ label: string; to?: string }> }) {
  const { t } = useTranslation();
  return (
    <Breadcrumbs aria-label={t('public.breadcrumb')} sx={{ mb: 2, '& ol': { flexWrap: 'wrap' }, overflowWrap: 'anywhere' }}>
      <Link component={RouterLink} to="/publico" underline="hover" color="inherit">
        {t('public.title')}
      </Link>
      {trail.map((crumb) =>
        crumb.to ? (
          <Link key={crumb.to} component={RouterLink} to={crumb.to} underline="hover" color="inherit">
            {crumb.label}
          </Link>
        ) : (
          <Typography key={crumb.label} color="text.primary" aria-current="page">
            {crumb.label}
          </Typography>
        ),
      )}
    </Breadcrumbs>
  );
}

/** The public pages' 404: nothing is said about why (missing, private, inactive), and the way back is the public list. */
export function PublicNotFound() {
  return <NotFoundPage back={{ to: '/publico', label: 'public.notFoundBack' }} />;
}

/** The page's title in the browser's tab while it is shown (the project's title comes back after). */
export function useDocumentTitle(title: string | undefined) {
  useEffect(() => {
    if (!title) return;
    const before = document.title;
    document.title = title;
    return () => {
      document.title = before;
    };
  }, [title]);
}
