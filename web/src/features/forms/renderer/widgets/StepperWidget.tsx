import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Step from '@mui/material/Step';
import StepButton from '@mui/material/StepButton';
import Stepper from '@mui/material/Stepper';
import { useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTranslation } from 'react-i18next';
import { type FieldDef, orderedFields } from '../../../../../../core/forms/definition.js';
import { useFieldText } from '../../labels.js';
import type { FieldRendererProps } from '../../registry.js';
import { condition } from '../conditions.js';
import { useRenderer } from '../context.js';
import { FieldList } from '../FieldList.js';
import { useConditionValues } from '../hooks.js';

/** The steps of a stepper that show for these values. */
export function visibleSteps(stepper: FieldDef, values: Record<string, unknown>, role: string | undefined): FieldDef[] {
  return orderedFields(stepper.children ?? []).filter((step) => step.type === 'step' && condition(step.visibleWhen)({ values, role }));
}

/**
 * A stepper: one step at a time. Next checks only the fields of the steps
 * it leaves; Back and the step buttons of earlier steps keep every value.
 * The step buttons are buttons: Tab reaches them, Enter or Space opens one.
 */
export function StepperWidget({ field }: FieldRendererProps) {
  const { t } = useTranslation();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const text = useFieldText();
  const renderer = useRenderer();
  const values = useConditionValues();
  const steps = visibleSteps(field, values, renderer.role);
  if (steps.length === 0) return null;
  const active = Math.min(renderer.activeStep(field.name), steps.length - 1);
  const step = steps[active] as FieldDef;
  const go = (to: number) => void renderer.goToStep(field, steps, active, to);
  return (
    <Box component="section" aria-label={text.label(field)} sx={{ mb: 2 }}>
      <Stepper nonLinear activeStep={active} alternativeLabel={phone} sx={{ mb: 2, overflowX: 'auto', py: 1 }}>
        {steps.map((s, index) => (
          <Step key={`${index}:${s.name}`} completed={index < active}>
            <StepButton onClick={() => go(index)}>
              {text.label(s)}
            </StepButton>
          </Step>
        ))}
      </Stepper>
      <Typography component="h2" variant="h6" sx={{ mb: 1 }}>
        {t('forms.renderer.stepOf', { step: active + 1, count: steps.length, name: text.label(step) })}
      </Typography>
      <FieldList fields={step.children ?? []} />
      <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1, mt: 2 }}>
        <Button onClick={() => go(active - 1)} disabled={active === 0}>
          {t('forms.renderer.back')}
        </Button>
        {active < steps.length - 1 && (
          <Button variant="contained" onClick={() => go(active + 1)}>
            {t('forms.renderer.next')}
          </Button>
        )}
      </Box>
    </Box>
  );
}

/** A step outside a stepper (a definition still being built): its fields, under its label. */
export function StepWidget({ field }: FieldRendererProps) {
  const text = useFieldText();
  return (
    <Box component="section" sx={{ mb: 2 }}>
      <Typography component="h2" variant="h6">
        {text.label(field)}
      </Typography>
      <FieldList fields={field.children ?? []} />
    </Box>
  );
}
