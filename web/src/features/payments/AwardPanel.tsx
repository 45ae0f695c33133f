import AddOutlined from '@mui/icons-material/AddOutlined';
import CancelIcon from '@mui/icons-material/Cancel';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import InputAdornment from '@mui/material/InputAdornment';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type Ref, useId, useImperativeHandle, useRef, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { AwardInput } from '../../../../core/api/payments.js';
import { monthText } from '../../../../core/api/payments.js';
import { FormTextField } from '../../components/form/FormTextField.js';
import { QueryState, Section } from '../../components/page/index.js';
import { showToast } from '../../components/feedback/toastStore.js';
import { fieldErrorText } from '../../lib/forms.js';
import { type AwardCaps, type CaseAward, useCaseAward } from './api.js';
import { AwardOverlaps } from './AwardOverlaps.js';
import { AwardSummary } from './AwardSummary.js';
import { type AwardField, type AwardValues, awardDefaults, awardFigures, awardMonths, type CapProblem, capProblems, toAwardInput } from './awardForm.js';
import { formatMoney, formatMonth } from './format.js';

/** What the task page's Accept asks of the panel. */
export interface AwardPanelHandle {
  /**
   * The award as the accept sends it and a sentence for the confirmation,
   * or null after showing what is wrong (messages under the fields, the
   * caps it goes over).
   */
  check: () => { award: AwardInput; summary: string } | null;
}

/** The payees a new award may name here (another party is chosen by staff on the case). */
const PAYEE_CHOICES = ['landlord', 'tenant'] as const;
/** The caps' names are written to sit inside a sentence ("the limit for monthly rent"); a line of their own starts with a capital. */
const capitalized = (text: string) => text.charAt(0).toLocaleUpperCase() + text.slice(1);
const FIELDS: readonly AwardField[] = ['arrearsMonths', 'aheadMonths', 'monthlyRent', 'utilities', 'payeeKind', 'propertyAddress', 'unit'];

interface AwardPanelProps {
  caseId: number;
  /** The reader may accept the task: the award is typed here; otherwise the case's award is shown. */
  editable: boolean;
  ref?: Ref<AwardPanelHandle>;
}

/**
 * The award on the task that sets it: the protocol's caps, the months of
 * arrears (a month field and chips), months ahead, monthly rent, utilities,
 * the payee and the property; the total computed as it is typed, the caps
 * it goes over said before anything is sent, and the duplicate-of-benefits
 * check (other applications paid for the same months). Accept (the task
 * page's) sends the award with the task's values. Under it, the case's
 * award and the ones it replaced.
 */
export function AwardPanel({ caseId, editable, ref }: AwardPanelProps) {
  const { t } = useTranslation();
  const query = useCaseAward(caseId);
  return (
    <Section title={t('payments.award.title')} id="task-award">
      <QueryState query={query} height={260} retry>
        {(data) => (
          <>
            {editable && data.caps ? (
              <AwardForm caseId={caseId} data={data} caps={data.caps} ref={ref} />
            ) : editable ? (
              <Alert severity="info">{t('payments.award.noCaps')}</Alert>
            ) : data.award ? (
              <AwardSummary award={data.award} />
            ) : (
              <Typography color="text.secondary">{t('payments.award.noneYet')}</Typography>
            )}
            <AwardHistory data={data} editable={editable} />
          </>
        )}
      </QueryState>
    </Section>
  );
}

function AwardHistory({ data, editable }: { data: CaseAward; editable: boolean }) {
  const { t } = useTranslation();
  // While typing a new award, the current one (which it replaces) is listed with the earlier ones.
  const shown = [...(editable && data.award ? [data.award] : []), ...data.previous];
  if (shown.length === 0) return null;
  return (
    <Box sx={{ mt: 3 }}>
      <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 500, mb: 1 }}>
        {t('payments.award.previous', { count: shown.length })}
      </Typography>
      <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 2 }}>
        {shown.map((a, i) => (
          <li key={a.id}>
            {i > 0 && <Divider sx={{ mb: 2 }} />}
            <AwardSummary award={a} />
          </li>
        ))}
      </Box>
    </Box>
  );
}

function CapsLine({ caps }: { caps: AwardCaps }) {
  const { t, i18n } = useTranslation();
  const money = (c: number) => formatMoney(c, i18n.resolvedLanguage ?? 'en');
  const parts = [
    t('payments.award.capArrears', { count: caps.maxArrearsMonths }),
    t('payments.award.capAhead', { count: caps.maxAheadMonths }),
    caps.maxMonthlyRent === null ? null : t('payments.award.capRent', { amount: money(caps.maxMonthlyRent) }),
    t('payments.award.capUtilities', { amount: money(caps.maxUtilities) }),
    t('payments.award.capTotal', { amount: money(caps.maxTotal) }),
  ].filter(Boolean);
  return (
    <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
      <strong>{t('payments.award.caps')}</strong> {parts.join(' · ')}
    </Typography>
  );
}

function AwardForm({ caseId, data, caps, ref }: { caseId: number; data: CaseAward; caps: AwardCaps; ref?: Ref<AwardPanelHandle> }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.resolvedLanguage ?? 'en';
  const money = (c: number) => formatMoney(c, lang);
  const payeeLabel = useId();
  const capsRef = useRef<HTMLDivElement>(null);
  const { control, getValues, setError, clearErrors, setValue, formState } = useForm<AwardValues>({
    defaultValues: awardDefaults(data.award?.state === 'approved' ? data.award : null, data.defaultPayeeKind),
  });
  const values = useWatch({ control }) as AwardValues;
  const figures = awardFigures(values);
  const problems = capProblems(values, caps);
  const [month, setMonth] = useState('');
  const [monthError, setMonthError] = useState<string | undefined>();

  const capText = (p: CapProblem) =>
    t('payments.award.overCap', {
      cap: capitalized(t(`payments.caps.${p.cap}`)),
      value: p.money ? money(p.value) : String(p.value),
      max: p.money ? money(p.max) : String(p.max),
    });

  const addMonth = () => {
    const parsed = monthText.safeParse(month);
    if (!parsed.success) return setMonthError(t('payments.invalidMonth'));
    const current = getValues('arrearsMonths');
    if (current.includes(month)) return setMonthError(t('payments.repeatedMonth'));
    setValue('arrearsMonths', [...current, month].sort(), { shouldDirty: true });
    clearErrors('arrearsMonths');
    setMonth('');
    setMonthError(undefined);
  };

  useImperativeHandle(ref, () => ({
    check: () => {
      clearErrors();
      const current = getValues();
      const result = toAwardInput(current);
      if ('errors' in result) {
        let first = true;
        for (const field of FIELDS) {
          const key = result.errors[field];
          if (!key) continue;
          setError(field, { type: 'validate', message: key }, { shouldFocus: first });
          first = false;
        }
        showToast(t('payments.award.fix'));
        return null;
      }
      const over = capProblems(current, caps);
      if (over.length > 0) {
        capsRef.current?.scrollIntoView?.({ block: 'center' });
        showToast(over.map(capText).join(' '));
        return null;
      }
      const total = awardFigures(current).total ?? 0;
      return { award: result.award, summary: t('payments.award.confirm', { total: money(total), payee: t(`payments.kind.${result.award.payeeKind ?? data.defaultPayeeKind}`) }) };
    },
  }));

  const arrearsError = fieldErrorText(t, formState.errors.arrearsMonths as never);

  return (
    <Box>
      <CapsLine caps={caps} />
      {data.award && data.award.state !== 'approved' && (
        <Alert severity="warning" sx={{ mb: 1 }}>
          {t('payments.award.locked')}
        </Alert>
      )}
      <Box sx={{ display: 'grid', gap: 0 }}>
        <FormControl component="fieldset" margin="normal" error={!!(monthError ?? arrearsError)} fullWidth>
          <FormLabel component="legend">{t('payments.award.arrearsMonths')}</FormLabel>
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'flex-start', mt: 1 }}>
            <TextField
              type="month"
              size="small"
              label={t('payments.award.month')}
              value={month}
              onChange={(e) => setMonth(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter') {
                  e.preventDefault();
                  addMonth();
                }
              }}
              error={!!monthError}
              slotProps={{ inputLabel: { shrink: true }, htmlInput: { placeholder: 'YYYY-MM' } }}
              sx={{ width: { xs: '100%', sm: 200 } }}
            />
            <Button variant="outlined" startIcon={<AddOutlined />} onClick={addMonth}>
              {t('payments.award.addMonth')}
            </Button>
          </Box>
          <Controller
            control={control}
            name="arrearsMonths"
            render={({ field }) => (
              <Box component="ul" aria-label={t('payments.award.arrearsMonths')} sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, listStyle: 'none', m: 0, mt: 1, p: 0 }}>
                {field.value.length === 0 && (
                  <Typography component="li" variant="body2" color="text.secondary">
                    {t('payments.award.noMonths')}
                  </Typography>
                )}
                {field.value.map((m) => (
                  <li key={m}>
                    <Chip
                      label={formatMonth(m, lang)}
                      onDelete={() => field.onChange(field.value.filter((x) => x !== m))}
                      deleteIcon={<CancelIcon titleAccess={t('payments.award.removeMonth', { month: formatMonth(m, lang) })} />}
                    />
                  </li>
                ))}
              </Box>
            )}
          />
          <FormHelperText sx={{ mx: 0 }}>{monthError ?? arrearsError ?? t('payments.award.monthsHelp')}</FormHelperText>
        </FormControl>

        <Box sx={{ display: 'grid', columnGap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'repeat(3, minmax(0, 1fr))' } }}>
          <FormTextField control={control} name="aheadMonths" label={t('payments.award.aheadMonths')} inputMode="numeric" helperText={t('payments.award.aheadHelp', { count: caps.maxAheadMonths })} />
          <FormTextField
            control={control}
            name="monthlyRent"
            label={t('payments.award.monthlyRent')}
            inputMode="decimal"
            required
            endAdornment={<InputAdornment position="end">USD</InputAdornment>}
          />
          <FormTextField control={control} name="utilities" label={t('payments.award.utilities')} inputMode="decimal" endAdornment={<InputAdornment position="end">USD</InputAdornment>} />
        </Box>

        <Controller
          control={control}
          name="payeeKind"
          render={({ field }) => (
            <FormControl margin="normal">
              <FormLabel id={payeeLabel}>{t('payments.award.payee')}</FormLabel>
              <RadioGroup row aria-labelledby={payeeLabel} value={field.value} onChange={(e) => field.onChange(e.target.value)}>
                {PAYEE_CHOICES.map((k) => (
                  <FormControlLabel key={k} value={k} control={<Radio />} label={t(`payments.kind.${k}`)} />
                ))}
              </RadioGroup>
              {data.defaultPayeeKind === 'tenant' && <FormHelperText sx={{ mx: 0 }}>{t('payments.award.tenantDefault')}</FormHelperText>}
            </FormControl>
          )}
        />

        <Box sx={{ display: 'grid', columnGap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'minmax(0, 3fr) minmax(0, 1fr)' } }}>
          <FormTextField control={control} name="propertyAddress" label={t('payments.award.propertyAddress')} required autoComplete="off" />
          <FormTextField control={control} name="unit" label={t('payments.award.unit')} autoComplete="off" />
        </Box>
      </Box>

      <Box role="status" aria-live="polite" sx={{ mt: 2, p: 1.5, borderRadius: 1, bgcolor: 'action.hover' }}>
        <Typography variant="h6" component="p">
          {t('payments.award.total', { total: figures.total === null ? '—' : money(figures.total) })}
        </Typography>
        {figures.total !== null && (
          <Typography variant="body2" color="text.secondary">
            {t('payments.award.totalHow', { count: figures.months, months: figures.months, rent: money(figures.rent ?? 0), utilities: money(figures.utilities ?? 0) })}
          </Typography>
        )}
      </Box>
      <Box ref={capsRef}>
        {problems.length > 0 && (
          <Alert severity="error" sx={{ mt: 2 }}>
            <AlertTitle>{t('payments.award.overCapsTitle')}</AlertTitle>
            <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
              {problems.map((p) => (
                <li key={p.cap}>{capText(p)}</li>
              ))}
            </Box>
          </Alert>
        )}
      </Box>
      <AwardOverlaps caseId={caseId} query={{ months: awardMonths(values), address: values.propertyAddress ?? '', unit: values.unit ?? '' }} />
    </Box>
  );
}
