import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { usePlanState } from './api.js';

/** 'N of M accounts used' of the tenant's plan, and a warning once none is left. */
export function PlanState() {
  const { t } = useTranslation();
  const labelId = useId();
  const { data } = usePlanState();
  if (!data) return null;
  const full = data.accountsUsed >= data.accountLimit;
  const percent = data.accountLimit > 0 ? Math.min(100, (data.accountsUsed / data.accountLimit) * 100) : 100;
  return (
    <Box sx={{ mb: 2 }} data-testid="plan-state">
      <Typography id={labelId} variant="body2" sx={{ mb: 0.5 }}>
        {t('userAdmin.plan', { used: data.accountsUsed, limit: data.accountLimit })}
      </Typography>
      <LinearProgress
        variant="determinate"
        value={percent}
        color={full ? 'error' : 'primary'}
        aria-labelledby={labelId}
        sx={{ height: 8, borderRadius: 4, maxWidth: 480 }}
      />
      {full && (
        <Alert severity="warning" sx={{ mt: 1 }}>
          {t('userAdmin.planFull')}
        </Alert>
      )}
    </Box>
  );
}
