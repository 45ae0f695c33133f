import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { formatDateTime } from '../../../../core/dates.js';
import { useCan, useSession } from '../../app/session/session.js';
import { type Fact, FactsList } from '../../components/page/index.js';
import { StateChip } from '../../components/StateChip.js';
import type { Award } from './api.js';
import { formatMoney, formatMonth } from './format.js';

const TONE = { approved: 'neutral', batched: 'neutral', paid: 'positive', cancelled: 'negative' } as const;

/** One award as facts: what it pays for, to whom, its state, who approved it and when, its batch. */
export function AwardSummary({ award }: { award: Award }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.resolvedLanguage ?? 'en';
  const tz = useSession().user.timeZone;
  const can = useCan();
  const money = (c: number) => formatMoney(c, lang);
  const months = award.arrearsMonths.map((m) => formatMonth(m, lang)).join(', ');
  const facts: Fact[] = [
    [t('payments.award.arrearsMonths'), months || t('payments.award.none')],
    [t('payments.award.aheadMonths'), String(award.aheadMonths)],
    [t('payments.award.monthsPaid'), award.months.map((m) => formatMonth(m, lang)).join(', ') || t('payments.award.none')],
    [t('payments.award.monthlyRent'), money(award.monthlyRent)],
    [t('payments.award.utilities'), money(award.utilities)],
    [t('payments.award.payee'), [t(`payments.kind.${award.payeeKind}`), award.payeeName].filter(Boolean).join(': ')],
    [t('payments.award.property'), [award.propertyAddress, award.unit].filter(Boolean).join(', ')],
    [t('payments.award.approved'), t('payments.award.approvedBy', { at: formatDateTime(award.approvedAt, tz), name: award.approvedBy?.name ?? '—' })],
  ];
  if (award.batchId) {
    facts.push([
      t('payments.award.batch'),
      can('pagos', 'show') ? (
        <Link component={RouterLink} to={`/pagos/${award.batchId}`}>
          {t('payments.award.viewBatch')}
        </Link>
      ) : (
        t('payments.award.inBatch')
      ),
    ]);
  }
  if (award.paidAt) facts.push([t('payments.award.paidAt'), formatDateTime(award.paidAt, tz)]);
  return (
    <Box sx={{ display: 'grid', gap: 1 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
        <Typography component="span" variant="subtitle1" sx={{ fontWeight: 600 }}>
          {money(award.total)}
        </Typography>
        <StateChip tone={TONE[award.state]} label={t(`payments.awardStates.${award.state}`)} />
      </Box>
      <FactsList items={facts} />
    </Box>
  );
}
