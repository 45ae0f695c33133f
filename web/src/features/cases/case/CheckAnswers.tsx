import SendOutlined from '@mui/icons-material/SendOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { type FieldDef, type FormDefinition, orderedFields } from '../../../../../core/forms/definition.js';
import { Section } from '../../../components/page/index.js';
import { condition } from '../../forms/renderer/conditions.js';
import type { FormValues } from '../../forms/renderer/FormRenderer.js';
import { visibleSteps } from '../../forms/renderer/widgets/StepperWidget.js';
import { type OptionLabels, OptionLabelsContext, ValueText } from '../../tasks/DocumentDetail.js';
import { labelOf } from '../../tasks/fieldText.js';

/** A group of answers: a step of the form (or the fields outside any stepper). */
interface AnswerGroup {
  key: string;
  title: string | null;
  fields: FieldDef[];
}

/** The fields that hold an answer and show for these values, steps flattened in order. */
function answerFields(fields: FieldDef[], values: FormValues, role: string | undefined): FieldDef[] {
  return orderedFields(fields).flatMap((f) => {
    if (!condition(f.visibleWhen)({ values, role })) return [];
    if (f.type === 'stepper' || f.type === 'step') return answerFields(f.children ?? [], values, role);
    return f.type === 'static' ? [] : [f];
  });
}

/** The answers grouped as the applicant met them: one group per visible step, the rest together. */
export function answerGroups(form: Pick<FormDefinition, 'fields'>, values: FormValues, role: string | undefined, language: string): AnswerGroup[] {
  const groups: AnswerGroup[] = [];
  let loose: AnswerGroup | null = null;
  for (const field of orderedFields(form.fields)) {
    if (field.type === 'stepper') {
      loose = null;
      for (const step of visibleSteps(field, values, role)) {
        groups.push({ key: `${field.name}/${step.name}`, title: labelOf(step, language), fields: answerFields(step.children ?? [], values, role) });
      }
    } else if (field.type === 'step') {
      loose = null;
      if (condition(field.visibleWhen)({ values, role })) groups.push({ key: field.name, title: labelOf(field, language), fields: answerFields(field.children ?? [], values, role) });
    } else {
      const shown = answerFields([field], values, role);
      if (shown.length === 0) continue;
      if (!loose) {
        loose = { key: `loose-${groups.length}`, title: null, fields: [] };
        groups.push(loose);
      }
      loose.fields.push(...shown);
    }
  }
  return groups.filter((g) => g.fields.length > 0);
}

interface CheckAnswersProps {
  form: Pick<FormDefinition, 'fields'>;
  /** The values the validator accepted. */
  values: FormValues;
  role?: string;
  optionLabels: OptionLabels;
  /** Back to the form at this field (its step opened, the field focused). */
  onChange: (path: string) => void;
  onSubmit: () => void;
  submitting: boolean;
}

/**
 * "Check your answers" (the GOV.UK pattern): every answer of the
 * application grouped by step, each with a Change link back to its field,
 * then the submit. Shown once the whole form is valid; the heading takes
 * the focus, so a screen reader starts here.
 */
export function CheckAnswers({ form, values, role, optionLabels, onChange, onSubmit, submitting }: CheckAnswersProps) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? 'en';
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
    heading.current?.scrollIntoView?.({ block: 'start' });
  }, []);
  const groups = answerGroups(form, values, role, language);
  return (
    <OptionLabelsContext.Provider value={optionLabels}>
      <Typography ref={heading} tabIndex={-1} component="h2" variant="h5" sx={{ mb: 1, '&:focus': { outline: 'none' } }}>
        {t('caseApply.check.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('caseApply.check.intro')}
      </Typography>
      <Box sx={{ display: 'grid', gap: 2 }}>
        {groups.map((group) => (
          <Section key={group.key} title={group.title ?? t('caseApply.check.answers')}>
            <Box component="dl" sx={{ m: 0 }}>
              {group.fields.map((field) => {
                const label = labelOf(field, language);
                return (
                  <Box
                    key={field.name}
                    sx={{
                      display: 'grid',
                      gridTemplateColumns: { xs: 'minmax(0, 1fr) auto', sm: 'minmax(140px, 30%) minmax(0, 1fr) auto' },
                      columnGap: 2,
                      rowGap: 0.25,
                      py: 1,
                      borderBottom: 1,
                      borderColor: 'divider',
                      '&:last-of-type': { borderBottom: 0 },
                    }}
                  >
                    <Typography component="dt" variant="body2" sx={{ fontWeight: 500, minWidth: 0, overflowWrap: 'anywhere' }}>
                      {label}
                    </Typography>
                    <Typography component="dd" variant="body2" sx={{ m: 0, minWidth: 0, overflowWrap: 'anywhere', gridRow: { xs: 2, sm: 'auto' }, gridColumn: { xs: '1 / -1', sm: 'auto' } }}>
                      <ValueText field={field} value={values[field.name]} />
                    </Typography>
                    <Box component="dd" sx={{ m: 0, gridRow: { xs: 1, sm: 'auto' }, gridColumn: { xs: 2, sm: 'auto' } }}>
                      <Link component="button" type="button" variant="body2" onClick={() => onChange(field.name)} aria-label={t('caseApply.check.changeField', { field: label })}>
                        {t('caseApply.check.change')}
                      </Link>
                    </Box>
                  </Box>
                );
              })}
            </Box>
          </Section>
        ))}
        <Section title={t('caseApply.check.sendTitle')}>
          <Typography variant="body2" sx={{ mb: 2 }}>
            {t('caseApply.check.sendText')}
          </Typography>
          <Button variant="contained" startIcon={<SendOutlined />} onClick={onSubmit} loading={submitting}>
            {t('caseApply.check.submit')}
          </Button>
        </Section>
      </Box>
    </OptionLabelsContext.Provider>
  );
}
