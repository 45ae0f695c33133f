import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import ErrorOutlined from '@mui/icons-material/ErrorOutlined';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { contrastCheck, parseHexColor } from '../../../../core/contrast.js';

export interface PreviewColors {
  primary: string;
  secondary: string;
  accent: string;
  text: string;
}

const WHITE = '#FFFFFF';
/** A colour still being typed shows as the default grey in the preview. */
const shown = (hex: string, fallback: string) => (parseHexColor(hex) ? hex : fallback);

/**
 * What the colours being edited look like, before they are saved: the app
 * bar (with the logo and the title), a button, text on the page's background
 * and the accent; and the two WCAG AA checks the theme depends on: the text
 * colour on white and white on the primary colour (the app bar's and the
 * buttons' text), each with its ratio and passes or fails.
 */
export function BrandingPreview({ colors, title, logo }: { colors: PreviewColors; title: string; logo: string | null }) {
  const { t } = useTranslation();
  const primary = shown(colors.primary, '#9E9E9E');
  const text = shown(colors.text, '#212121');
  return (
    <Box sx={{ display: 'grid', gap: 2 }} aria-label={t('appSettings.preview.title')} role="group">
      <Box sx={{ border: 1, borderColor: 'divider', borderRadius: 1, overflow: 'hidden' }} data-testid="branding-preview">
        <Box data-testid="preview-app-bar" sx={{ bgcolor: primary, color: WHITE, px: 2, py: 1.5, display: 'flex', alignItems: 'center', gap: 1.5, minWidth: 0 }}>
          {logo && <Box component="img" src={logo} alt="" sx={{ height: 28, maxWidth: 96, objectFit: 'contain' }} />}
          <Typography component="span" sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>
            {title || t('appSettings.preview.appBar')}
          </Typography>
        </Box>
        <Box sx={{ bgcolor: WHITE, p: 2, display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 2 }}>
          <Box component="span" data-testid="preview-button" sx={{ bgcolor: primary, color: WHITE, px: 2, py: 0.75, borderRadius: 1, fontWeight: 500, textTransform: 'uppercase', fontSize: 14 }}>
            {t('appSettings.preview.button')}
          </Box>
          <Typography data-testid="preview-text" sx={{ color: text }}>
            {t('appSettings.preview.sample')}
          </Typography>
          <Box component="span" sx={{ borderBottom: 3, borderColor: shown(colors.accent, '#9E9E9E'), color: text }}>
            {t('appSettings.preview.link')}
          </Box>
          <Box component="span" sx={{ bgcolor: shown(colors.secondary, '#757575'), width: 24, height: 24, borderRadius: '50%' }} aria-hidden />
        </Box>
      </Box>
      <Box>
        <Typography variant="subtitle2" component="h3">
          {t('appSettings.contrast.title')}
        </Typography>
        <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 0.5 }}>
          <ContrastRow label={t('appSettings.contrast.textOnWhite')} foreground={colors.text} background={WHITE} />
          <ContrastRow label={t('appSettings.contrast.whiteOnPrimary')} foreground={WHITE} background={colors.primary} />
        </Box>
      </Box>
    </Box>
  );
}

function ContrastRow({ label, foreground, background }: { label: string; foreground: string; background: string }) {
  const { t } = useTranslation();
  const valid = parseHexColor(foreground) && parseHexColor(background);
  const check = valid ? contrastCheck(foreground, background) : undefined;
  return (
    <Box component="li" sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
      {check ? (
        check.passes ? <CheckCircleOutlined color="success" fontSize="small" aria-hidden /> : <ErrorOutlined color="error" fontSize="small" aria-hidden />
      ) : null}
      <span>{label}:</span>
      <strong>{check ? t('appSettings.contrast.ratio', { ratio: check.ratio.toFixed(2) }) : '—'}</strong>
      {check && (
        <Typography component="span" sx={{ color: check.passes ? 'success.main' : 'error.main', fontWeight: 500 }}>
          {check.passes ? t('appSettings.contrast.pass') : t('appSettings.contrast.fail')}
        </Typography>
      )}
    </Box>
  );
}
