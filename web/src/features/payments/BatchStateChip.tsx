import { useTranslation } from 'react-i18next';
import type { BatchState } from '../../../../core/api/payments.js';
import { StateChip } from '../../components/StateChip.js';

const TONE = { open: 'neutral', exported: 'neutral', paid: 'positive' } as const;

export function BatchStateChip({ state }: { state: BatchState }) {
  const { t } = useTranslation();
  return <StateChip tone={TONE[state]} label={t(`payments.batchStates.${state}`)} />;
}
