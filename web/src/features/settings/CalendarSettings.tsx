import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Link from '@mui/material/Link';
import { useController, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { businessCalendarBody, HOLIDAYS_MASTER, WEEKDAYS, type Weekday } from '../../../../core/api/settings.js';
import { showToast } from '../../components/feedback/toastStore.js';
import { FormTextField } from '../../components/form/FormTextField.js';
import { TimeZoneField } from '../../components/form/TimeZoneField.js';
import { QueryState, Section } from '../../components/page/index.js';
import { PageHeader } from '../../components/PageHeader.js';
import { useCan } from '../../app/session/session.js';
import { fieldErrorText, showServerError } from '../../lib/forms.js';
import { type BusinessCalendar, type BusinessCalendarValues, useBusinessCalendar, useSaveBusinessCalendar } from './api.js';

/**
 * /configuracion/calendario: the tenant's business calendar, which
 * business-day due dates are counted on: its working days, the hours of the
 * working day and the time zone they are read in. Holidays are the items of
 * the `festivos` master, edited in the masters screens (linked).
 */
export default function CalendarSettings() {
  const { t } = useTranslation();
  const calendar = useBusinessCalendar();
  return (
    <>
      <PageHeader title={t('settings.calendar.title')} />
      <Box sx={{ maxWidth: 720 }}>
        <Section title={t('settings.calendar.title')} id="business-calendar">
          <QueryState query={calendar} height={360} retry>
            {(data) => <CalendarForm calendar={data} />}
          </QueryState>
        </Section>
      </Box>
    </>
  );
}

const FIELDS = ['workDays', 'workStart', 'workEnd', 'timeZone'] as const;

function CalendarForm({ calendar }: { calendar: BusinessCalendar }) {
  const { t } = useTranslation();
  const can = useCan();
  const mayChange = can('menu_configuracion', 'update');
  const mayEditHolidays = can('menu_maestros', 'show');
  const values = (c: BusinessCalendar): BusinessCalendarValues => ({ workDays: c.workDays, workStart: c.workStart, workEnd: c.workEnd, timeZone: c.timeZone });
  const { control, handleSubmit, setError, reset } = useForm<BusinessCalendarValues>({ resolver: zodResolver(businessCalendarBody), defaultValues: values(calendar) });
  const save = useSaveBusinessCalendar({
    onSuccess: (saved) => {
      reset(values(saved));
      showToast(t('settings.calendar.saved'), 'success');
    },
    onError: (error) => showServerError(error, setError, FIELDS),
  });
  return (
    <form noValidate onSubmit={handleSubmit((v) => save.mutate(v))}>
      <Alert severity="info" sx={{ mb: 2 }}>
        {t('settings.calendar.intro')}
      </Alert>
      <WorkDaysField control={control} disabled={!mayChange} />
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, columnGap: 2 }}>
        <FormTextField control={control} name="workStart" type="time" label={t('settings.calendar.workStart')} required disabled={!mayChange} />
        <FormTextField control={control} name="workEnd" type="time" label={t('settings.calendar.workEnd')} required disabled={!mayChange} />
      </Box>
      <TimeZoneField control={control} name="timeZone" label={t('settings.calendar.timeZone')} />
      <FormHelperText sx={{ mt: 2 }}>
        {t('settings.calendar.holidays')}{' '}
        {mayEditHolidays && (
          <Link component={RouterLink} to={`/main/${HOLIDAYS_MASTER}`}>
            {t('settings.calendar.editHolidays')}
          </Link>
        )}
      </FormHelperText>
      {mayChange && (
        <Button type="submit" variant="contained" loading={save.isPending} sx={{ mt: 2 }}>
          {t('settings.calendar.save')}
        </Button>
      )}
    </form>
  );
}

function WorkDaysField({ control, disabled }: { control: ReturnType<typeof useForm<BusinessCalendarValues>>['control']; disabled: boolean }) {
  const { t } = useTranslation();
  const { field, fieldState } = useController({ control, name: 'workDays' });
  const chosen = new Set<Weekday>(field.value);
  const message = fieldErrorText(t, fieldState.error);
  const toggle = (day: Weekday) => {
    const next = new Set(chosen);
    if (next.has(day)) next.delete(day);
    else next.add(day);
    field.onChange(WEEKDAYS.filter((d) => next.has(d)));
  };
  return (
    <FormControl component="fieldset" error={!!message} disabled={disabled} margin="normal">
      <FormLabel component="legend">{t('settings.calendar.workDays')}</FormLabel>
      <FormGroup row>
        {WEEKDAYS.map((day) => (
          <FormControlLabel key={day} control={<Checkbox checked={chosen.has(day)} onChange={() => toggle(day)} />} label={t(`settings.calendar.days.${day}`)} />
        ))}
      </FormGroup>
      {message && <FormHelperText>{message}</FormHelperText>}
    </FormControl>
  );
}
