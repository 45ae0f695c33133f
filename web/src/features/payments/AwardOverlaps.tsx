import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { type OverlapQuery, useAwardOverlaps } from './api.js';
import { formatMoney, formatMonth } from './format.js';

/** How long the typing must pause before the overlap check is asked. */
export const OVERLAP_DEBOUNCE_MS = 500;

function useDebounced<T>(value: T, key: string): T {
  const [settled, setSettled] = useState(value);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for the value (arrays are new each render).
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), OVERLAP_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [key]);
  return settled;
}

/**
 * Duplicate of benefits: once the typing pauses, asks which other
 * applications are paid for any of these months at the same address and
 * unit (or to the same landlord for the same tenant), and lists them with
 * the months both pay for and links to them. Says nothing until there is a
 * month and an address.
 */
export function AwardOverlaps({ caseId, query }: { caseId: number; query: OverlapQuery }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.resolvedLanguage ?? 'en';
  const key = `${query.months.join(',')}|${query.address.trim()}|${query.unit.trim()}`;
  const settled = useDebounced(query, key);
  const ready = settled.months.length > 0 && settled.address.trim() !== '';
  const overlaps = useAwardOverlaps(caseId, ready ? settled : null);

  if (!ready) return null;
  if (overlaps.isError) {
    return (
      <Alert severity="info" sx={{ mt: 2 }}>
        {t('payments.award.overlapsFailed')}
      </Alert>
    );
  }
  const items = overlaps.data?.items;
  if (!items) return null;
  if (items.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary" role="status" sx={{ mt: 2 }}>
        {t('payments.award.noOverlaps')}
      </Typography>
    );
  }
  return (
    <Alert severity="warning" sx={{ mt: 2 }} role="alert">
      <AlertTitle>{t('payments.award.overlapsTitle', { count: items.length })}</AlertTitle>
      <Typography variant="body2" sx={{ mb: 1 }}>
        {t('payments.award.overlapsIntro')}
      </Typography>
      <Box component="ul" sx={{ m: 0, pl: 2.5, display: 'grid', gap: 0.75 }}>
        {items.map((o) => (
          <li key={o.awardId}>
            <Link component={RouterLink} to={`/cases/${o.caseId}`} sx={{ fontWeight: 500 }}>
              {t('payments.award.application', { number: o.caseNumber ?? `#${o.caseId}` })}
            </Link>
            {' · '}
            {t(`payments.awardStates.${o.state}`)} · {formatMoney(o.total, lang)}
            <Typography variant="body2" component="span" sx={{ display: 'block' }}>
              {t('payments.award.overlapMonths', { months: o.months.map((m) => formatMonth(m, lang)).join(', ') })}
              {' · '}
              {o.reasons.map((r) => t(`payments.overlapReasons.${r}`)).join(', ')}
            </Typography>
          </li>
        ))}
      </Box>
    </Alert>
  );
}
