import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { type AchSettingsBody, achSettingsBody } from '../../../../core/api/payments.js';
import { formatDateTime } from '../../../../core/dates.js';
import { useCan, useSession } from '../../app/session/session.js';
import { showToast } from '../../components/feedback/toastStore.js';
import { useLeaveGuard } from '../../components/feedback/useLeaveGuard.js';
import { FormTextField } from '../../components/form/FormTextField.js';
import { QueryState, Section } from '../../components/page/index.js';
import { PageHeader } from '../../components/PageHeader.js';
import { showServerError } from '../../lib/forms.js';
import { type AchSettings, useAchSettings, useSaveAchSettings } from './api.js';

type Values = z.input<typeof achSettingsBody>;
const FIELDS = ['originatorName', 'companyId', 'odfiRouting', 'immediateDestination', 'immediateDestinationName', 'immediateOrigin', 'immediateOriginName', 'entryDescription'] as const;

/**
 * /configuracion/pagos (target pagos; saving takes update): who the bank
 * knows the programme as in its NACHA files: the originator and company id,
 * the originating bank's routing number, the immediate destination and
 * origin of the file header, the entry description. Checked in the browser
 * with the server's schema (routing checksums, lengths, the characters a
 * NACHA file takes).
 */
export default function AchSettingsPage() {
  const { t } = useTranslation();
  const query = useAchSettings();
  return (
    <>
      <PageHeader title={t('payments.ach.title')} />
      <Box sx={{ maxWidth: 820 }}>
        <Section title={t('payments.ach.section')} id="ach-settings">
          <QueryState query={query} height={420} retry>
            {(data) => <AchForm data={data} />}
          </QueryState>
        </Section>
      </Box>
    </>
  );
}

const valuesOf = (data: AchSettings): Values => ({
  originatorName: data.settings?.originatorName ?? '',
  companyId: data.settings?.companyId ?? '',
  odfiRouting: data.settings?.odfiRouting ?? '',
  immediateDestination: data.settings?.immediateDestination ?? '',
  immediateDestinationName: data.settings?.immediateDestinationName ?? '',
  immediateOrigin: data.settings?.immediateOrigin ?? '',
  immediateOriginName: data.settings?.immediateOriginName ?? '',
  entryDescription: data.settings?.entryDescription ?? 'RENTASSIST',
});

function AchForm({ data }: { data: AchSettings }) {
  const { t } = useTranslation();
  const can = useCan();
  const tz = useSession().user.timeZone;
  const mayChange = can('pagos', 'update');
  const { control, handleSubmit, setError, reset, formState } = useForm<Values, unknown, AchSettingsBody>({ resolver: zodResolver(achSettingsBody), defaultValues: valuesOf(data) });
  useLeaveGuard(formState.isDirty, { title: t('payments.ach.leaveTitle'), message: t('payments.ach.leave'), confirmText: t('payments.ach.leaveConfirm') });
  const save = useSaveAchSettings({
    onSuccess: (saved) => {
      reset(valuesOf(saved));
      showToast(t('payments.ach.saved'), 'success');
    },
    onError: (error) => showServerError(error, setError, FIELDS),
  });
  const field = (name: (typeof FIELDS)[number], numeric = false) => (
    <FormTextField
      control={control}
      name={name}
      label={t(`payments.ach.fields.${name}`)}
      helperText={t(`payments.ach.help.${name}`)}
      required={name !== 'entryDescription'}
      disabled={!mayChange}
      inputMode={numeric ? 'numeric' : undefined}
      autoComplete="off"
    />
  );
  return (
    <form noValidate onSubmit={handleSubmit((v) => save.mutate(v))}>
      {data.settings ? (
        <Typography variant="body2" color="text.secondary">
          {t('payments.ach.updatedAt', { at: formatDateTime(data.settings.updatedAt, tz) })}
        </Typography>
      ) : (
        <Alert severity="info">{t('payments.ach.none')}</Alert>
      )}
      <Box sx={{ display: 'grid', columnGap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'repeat(2, minmax(0, 1fr))' } }}>
        {field('originatorName')}
        {field('companyId')}
        {field('odfiRouting', true)}
        {field('entryDescription')}
        {field('immediateDestination', true)}
        {field('immediateDestinationName')}
        {field('immediateOrigin', true)}
        {field('immediateOriginName')}
      </Box>
      {mayChange && (
        <Button type="submit" variant="contained" loading={save.isPending} sx={{ mt: 2 }}>
          {t('common.save')}
        </Button>
      )}
    </form>
  );
}
