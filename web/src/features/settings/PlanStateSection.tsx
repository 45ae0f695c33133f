import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { AGENCY_PLANS, planName } from '../../../../core/agencies.js';
import { formatDateTime } from '../../../../core/dates.js';
import { FactsList, QueryState, Section } from '../../components/page/index.js';
import { useSession } from '../../app/session/session.js';
import { usePlanState } from './api.js';

const share = (used: number, limit: number) => (limit > 0 ? Math.min(100, Math.round((used / limit) * 100)) : 100);

/** The tenant's plan: accounts used and left, disk used by files and by the database, with a warning past 90 % of a limit. */
export function PlanStateSection() {
  const { t } = useTranslation();
  const session = useSession();
  const plan = usePlanState();
  // The plan by its name in the reader's language (Standard, Premium), not its stored number; a number no plan has, as it is.
  const planLabel = (n: number) => (AGENCY_PLANS[planName(n)].plan === n ? t(`agencies.plans.${planName(n)}`) : String(n));
  return (
    <Section title={t('appSettings.sections.plan')} id="plan">
      <QueryState query={plan} height={120} retry>
        {(p) => {
          const diskUsed = Math.round((p.filesMb + p.databaseMb) * 100) / 100;
          return (
            <Box sx={{ display: 'grid', gap: 1.5 }}>
              {p.warnings.includes('accounts') && <Alert severity="warning">{t('appSettings.plan.warnAccounts')}</Alert>}
              {p.warnings.includes('disk') && <Alert severity="warning">{t('appSettings.plan.warnDisk')}</Alert>}
              <FactsList
                items={[
                  [t('appSettings.plan.plan'), t('appSettings.plan.planValue', { plan: planLabel(p.plan) })],
                  [
                    t('appSettings.plan.accounts'),
                    <Meter key="a" value={share(p.accountsUsed, p.accountLimit)} warn={p.warnings.includes('accounts')}>
                      {t('appSettings.plan.accountsValue', { used: p.accountsUsed, limit: p.accountLimit, available: p.accountsAvailable })}
                    </Meter>,
                  ],
                  [
                    t('appSettings.plan.disk'),
                    <Meter key="d" value={share(diskUsed, p.diskQuotaMb)} warn={p.warnings.includes('disk')}>
                      {t('appSettings.plan.diskValue', { used: diskUsed, quota: p.diskQuotaMb })}
                    </Meter>,
                  ],
                  [t('appSettings.plan.files'), t('appSettings.plan.mb', { mb: p.filesMb })],
                  [t('appSettings.plan.database'), t('appSettings.plan.mb', { mb: p.databaseMb })],
                ]}
              />
              <Typography variant="body2" color="text.secondary">
                {t('appSettings.plan.measured', { when: formatDateTime(p.databaseMeasuredAt, session.user.timeZone) })}
              </Typography>
            </Box>
          );
        }}
      </QueryState>
    </Section>
  );
}

function Meter({ value, warn, children }: { value: number; warn: boolean; children: string }) {
  return (
    <Box sx={{ display: 'grid', gap: 0.5, maxWidth: 360 }}>
      <span>{children}</span>
      <LinearProgress variant="determinate" value={value} color={warn ? 'warning' : 'primary'} aria-label={children} />
    </Box>
  );
}
