import { zodResolver } from '@hookform/resolvers/zod';
import ArrowBackOutlined from '@mui/icons-material/ArrowBackOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import { AGENCY_PLAN_NAMES, AGENCY_PLANS, type AgencyPlanName } from '../../../../core/agencies.js';
import { agencyCreateBody, agencyEditorBody } from '../../../../core/api/agencies.js';
import { useDialogs } from '../../components/feedback/FeedbackProvider.js';
import { showToast } from '../../components/feedback/toastStore.js';
import { FormSelectField } from '../../components/form/FormSelectField.js';
import { FormTextField } from '../../components/form/FormTextField.js';
import { QueryState } from '../../components/page/index.js';
import { PageHeader } from '../../components/PageHeader.js';
import { showServerError } from '../../lib/forms.js';
import { type Agency, type AgencyForm, useAgency, useSaveAgency } from './api.js';
import { RequireOperator } from './RequireOperator.js';

const FIELDS = ['name', 'docnumber', 'adminName', 'adminEmail', 'active', 'plan', 'accountLimit', 'diskQuotaMb'] as const;
const EMPTY: AgencyForm = { name: '', docnumber: '', adminName: '', adminEmail: '', active: true, plan: 'standard', accountLimit: AGENCY_PLANS.standard.accountLimit, diskQuotaMb: AGENCY_PLANS.standard.diskQuotaMb };

/**
 * /crear-entidad/nuevo and /crear-entidad/{id} (platform operators): an
 * agency's name, document number (given once, at creation), state, plan and
 * limits. Deactivating asks first: its users are signed out and its public
 * pages are no longer found.
 */
export default function AgencyEditorPage() {
  const { id } = useParams();
  const agencyId = id && /^\d+$/.test(id) ? Number(id) : null;
  return <RequireOperator>{agencyId === null ? <AgencyEditor agency={null} /> : <ExistingAgency id={agencyId} />}</RequireOperator>;
}

function ExistingAgency({ id }: { id: number }) {
  const query = useAgency(id);
  return <QueryState query={query}>{(agency) => <AgencyEditor key={agency.id} agency={agency} />}</QueryState>;
}

function AgencyEditor({ agency }: { agency: Agency | null }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const dialogs = useDialogs();
  const [formError, setFormError] = useState<string | null>(null);
  const creating = agency === null;
  const { control, handleSubmit, setError, setValue, watch } = useForm<AgencyForm>({
    resolver: zodResolver(agency ? agencyEditorBody : agencyCreateBody) as never,
    defaultValues: agency
      ? { name: agency.name, docnumber: agency.docnumber, active: agency.active, plan: agency.plan, accountLimit: agency.accountLimit, diskQuotaMb: agency.diskQuotaMb }
      : EMPTY,
  });
  const plan = watch('plan') as AgencyPlanName;
  const save = useSaveAgency(agency?.id ?? null, {
    onSuccess: () => showToast(t(creating ? 'agencies.editor.created' : 'agencies.editor.saved'), 'success'),
    onRefreshed: (saved) => creating && navigate(`/crear-entidad/${saved.id}`, { replace: true }),
    onError: (error) => showServerError(error, setError, FIELDS, { byCode: { AGENCY_DOCNUMBER_TAKEN: 'docnumber', AGENCY_NAME_TAKEN: 'name', EMAIL_TAKEN: 'adminEmail' }, otherwise: setFormError }),
  });

  const submit = handleSubmit(async (values) => {
    setFormError(null);
    if (agency?.active && values.active === false) {
      const confirmed = await dialogs.confirm({
        title: t('agencies.editor.deactivateTitle'),
        message: t('agencies.editor.deactivateConfirm', { name: agency.name }),
        confirmText: t('agencies.editor.deactivate'),
      });
      if (!confirmed) return;
    }
    save.mutate(values);
  });

  const usePlanLimits = () => {
    setValue('accountLimit', AGENCY_PLANS[plan].accountLimit, { shouldDirty: true });
    setValue('diskQuotaMb', AGENCY_PLANS[plan].diskQuotaMb, { shouldDirty: true });
  };
  const title = creating ? t('agencies.editor.newTitle') : agency.name;

  return (
    <>
      <Button component={RouterLink} to="/crear-entidad" startIcon={<ArrowBackOutlined />} sx={{ mb: 1 }}>
        {t('agencies.editor.back')}
      </Button>
      <PageHeader title={title} />
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, maxWidth: 640 }}>
        <Typography variant="body2" color="text.secondary">
          {creating ? t('agencies.editor.intro') : t('agencies.editor.address', { slug: agency.slug })}
        </Typography>
        {!creating && (
          <Typography variant="body2" color="text.secondary">
            {t('agencies.editor.accountsUsed', { used: agency.accountsUsed.toLocaleString(i18n.language) })}
          </Typography>
        )}
        {formError && (
          <Alert severity="error" role="alert" sx={{ mt: 2 }}>
            {formError}
          </Alert>
        )}
        <form noValidate onSubmit={submit} aria-label={title}>
          <FormTextField control={control} name="name" label={t('agencies.editor.name')} required autoFocus={creating} />
          <FormTextField
            control={control}
            name="docnumber"
            label={t('agencies.editor.docnumber')}
            required={creating}
            disabled={!creating}
            helperText={creating ? t('agencies.register.docnumberHint') : t('agencies.editor.docnumberFixed')}
          />
          {creating && (
            <>
              <FormTextField control={control} name="adminName" label={t('agencies.editor.adminName')} required autoComplete="off" />
              <FormTextField control={control} name="adminEmail" label={t('agencies.editor.adminEmail')} type="email" required autoComplete="off" helperText={t('agencies.editor.adminHint')} />
            </>
          )}
          <Controller
            control={control}
            name="active"
            render={({ field }) => (
              <Box sx={{ mt: 1 }}>
                <FormControlLabel
                  control={<Switch checked={field.value} onChange={(event) => field.onChange(event.target.checked)} slotProps={{ input: { ref: field.ref, onBlur: field.onBlur } }} />}
                  label={t('agencies.editor.active')}
                />
                <FormHelperText sx={{ mt: 0 }}>{t('agencies.editor.activeHint')}</FormHelperText>
              </Box>
            )}
          />
          <FormSelectField control={control} name="plan" label={t('agencies.editor.plan')} options={AGENCY_PLAN_NAMES.map((value) => ({ value, label: t(`agencies.plans.${value}`) }))} />
          <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, columnGap: 2 }}>
            <FormTextField control={control} name="accountLimit" label={t('agencies.editor.accountLimit')} inputMode="numeric" required />
            <FormTextField control={control} name="diskQuotaMb" label={t('agencies.editor.diskQuotaMb')} inputMode="numeric" required />
          </Box>
          <Button onClick={usePlanLimits} size="small">
            {t('agencies.editor.planDefaults')}
          </Button>
          <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 2 }}>
            <Button type="submit" variant="contained" loading={save.isPending}>
              {creating ? t('agencies.editor.create') : t('agencies.editor.save')}
            </Button>
          </Box>
        </form>
      </Paper>
    </>
  );
}
