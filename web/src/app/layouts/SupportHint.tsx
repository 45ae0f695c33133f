import HelpOutline from '@mui/icons-material/HelpOutlineOutlined';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Tooltip from '@mui/material/Tooltip';
import { useTranslation } from 'react-i18next';

/**
 * 'Have Questions?' with the support phone in a tooltip. It is a tel: link,
 * so it takes keyboard focus (which opens the tooltip) and dials on phones,
 * where it shrinks to an icon.
 */
export function SupportHint({ phone }: { phone: string }) {
  const { t } = useTranslation();
  if (!phone) return null;
  return (
    <Tooltip title={t('layout.callSupport', { phone })} describeChild>
      <Link
        href={`tel:${phone.replace(/[^\d+]/g, '')}`}
        color="inherit"
        underline="hover"
        aria-label={t('layout.haveQuestions')}
        sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, whiteSpace: 'nowrap' }}
      >
        <HelpOutline fontSize="small" aria-hidden />
        <Box component="span" sx={{ display: { xs: 'none', sm: 'inline' } }}>
          {t('layout.haveQuestions')}
        </Box>
      </Link>
    </Tooltip>
  );
}
