import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { ProtocolDefinition } from '../../../../../core/workflow/protocol.js';
import { Section } from '../../../components/page/index.js';
import { AmountField } from './AmountField.js';
import { type AwardCaps, newAwardCaps } from './draft.js';

interface AwardsSectionProps {
  definition: ProtocolDefinition;
  /** What the last save said about the caps. */
  problems: readonly string[];
  updateDefinition: (change: (def: ProtocolDefinition) => ProtocolDefinition) => void;
}

/**
 * Whether the programme grants awards (issue 23), and the most one may give:
 * months of arrears and ahead, the monthly rent, utilities and the total
 * (dollars in the boxes, cents in the definition). Below, which task sets
 * the award: none, or more than one, is said.
 */
export function AwardsSection({ definition: def, problems, updateDefinition }: AwardsSectionProps) {
  const { t } = useTranslation();
  const caps = def.awardCaps;
  // Turned off and on again, the caps come back as they were.
  const previous = useRef<AwardCaps | null>(caps);
  const setCaps = (patch: Partial<AwardCaps>) => updateDefinition((d) => (d.awardCaps ? { ...d, awardCaps: { ...d.awardCaps, ...patch } } : d));
  const toggle = (on: boolean) => {
    if (!on && caps) previous.current = caps;
    updateDefinition((d) => ({ ...d, awardCaps: on ? (previous.current ?? newAwardCaps()) : null }));
  };
  const setters = def.tasks.filter((task) => task.award).map((task) => task.name);

  return (
    <Section title={t('protocols.editor.awards.title')} id="protocol-awards">
      <FormControlLabel control={<Switch checked={caps !== null} onChange={(event) => toggle(event.target.checked)} />} label={t('protocols.editor.awards.enabled')} />
      {caps && (
        <>
          <Typography variant="body2" color="text.secondary">
            {t('protocols.editor.awards.hint')}
          </Typography>
          <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', lg: 'repeat(5, minmax(0, 1fr))' }, columnGap: 2 }}>
            <AmountField label={t('protocols.editor.awards.maxArrearsMonths')} value={caps.maxArrearsMonths} max={60} onChange={(n) => setCaps({ maxArrearsMonths: n ?? 0 })} />
            <AmountField label={t('protocols.editor.awards.maxAheadMonths')} value={caps.maxAheadMonths} max={24} onChange={(n) => setCaps({ maxAheadMonths: n ?? 0 })} />
            <AmountField
              money
              label={t('protocols.editor.awards.maxMonthlyRent')}
              value={caps.maxMonthlyRent}
              empty={null}
              onChange={(cents) => setCaps({ maxMonthlyRent: cents })}
              helperText={t('protocols.editor.awards.noCap')}
            />
            <AmountField
              money
              label={t('protocols.editor.awards.maxUtilities')}
              value={caps.maxUtilities}
              empty={0}
              onChange={(cents) => setCaps({ maxUtilities: cents ?? 0 })}
              helperText={t('protocols.editor.awards.noUtilities')}
            />
            <AmountField money label={t('protocols.editor.awards.maxTotal')} value={caps.maxTotal} onChange={(cents) => setCaps({ maxTotal: cents ?? 0 })} helperText={t('protocols.editor.awards.totalHint')} />
          </Box>
          {setters.length === 0 && (
            <Alert severity="info" sx={{ mt: 1 }}>
              {t('protocols.editor.awards.noTask')}
            </Alert>
          )}
          {setters.length === 1 && (
            <Typography variant="body2" sx={{ mt: 1 }}>
              {t('protocols.editor.awards.setBy', { task: setters[0] })}
            </Typography>
          )}
          {setters.length > 1 && (
            <Alert severity="warning" sx={{ mt: 1 }}>
              {t('protocols.editor.awards.twoTasks', { tasks: setters.join(', ') })}
            </Alert>
          )}
        </>
      )}
      {problems.map((message, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: messages may repeat.
        <Typography key={i} color="error" variant="body2" sx={{ mt: 1 }}>
          {message}
        </Typography>
      ))}
    </Section>
  );
}
