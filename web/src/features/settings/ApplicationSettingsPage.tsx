import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import type { ChangeEvent, ReactNode } from 'react';
import { type Control, type Path, useController, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { applicationSettingsBody, AUTOSAVE_BOUNDS, IDLE_BOUNDS } from '../../../../core/api/applicationSettings.js';
import { useCan } from '../../app/session/session.js';
import { useDialogs } from '../../components/feedback/FeedbackProvider.js';
import { showToast } from '../../components/feedback/toastStore.js';
import { useLeaveGuard } from '../../components/feedback/useLeaveGuard.js';
import { FormSelectField } from '../../components/form/FormSelectField.js';
import { FormTextField } from '../../components/form/FormTextField.js';
import { TimeZoneField } from '../../components/form/TimeZoneField.js';
import { QueryState, Section } from '../../components/page/index.js';
import { PageHeader } from '../../components/PageHeader.js';
import { fieldErrorText, showServerError } from '../../lib/forms.js';
import { type ApplicationSettings, type ApplicationSettingsValues, useApplicationSettings, useSaveApplicationSettings } from './api.js';
import { BrandingImages } from './BrandingImages.js';
import { BrandingPreview } from './BrandingPreview.js';
import { PlanStateSection } from './PlanStateSection.js';

/**
 * /configuracion: one project's branding and behaviour (the tenant's default
 * project, or `?project=` another of its projects), and the tenant's plan.
 * The colours are previewed live with their WCAG AA contrast; images upload
 * at once; everything else is saved together (switching maintenance on asks
 * first) and reaches every open page of the tenant through the realtime
 * `project` change. Leaving with unsaved changes asks first. Without
 * `menu_configuracion update` the page is read-only.
 */
export default function ApplicationSettingsPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const project = params.get('project') ?? undefined;
  const settings = useApplicationSettings(project);
  return (
    <>
      <PageHeader title={t('appSettings.title')} />
      <Box sx={{ maxWidth: 960, display: 'grid', gap: 2, minWidth: 0 }}>
        <QueryState query={settings} height={480} retry>
          {(data) => (
            <>
              {data.projects.length > 1 && (
                <TextField
                  select
                  label={t('appSettings.project')}
                  value={data.project}
                  onChange={(event) => setParams(event.target.value === data.projects[0]?.uid ? {} : { project: event.target.value })}
                  sx={{ maxWidth: 360 }}
                >
                  {data.projects.map((p) => (
                    <MenuItem key={p.uid} value={p.uid}>
                      {p.title}
                    </MenuItem>
                  ))}
                </TextField>
              )}
              {/* A new form for each project: its starting values are taken once. */}
              <SettingsForm key={data.project} settings={data} project={project} />
            </>
          )}
        </QueryState>
        <PlanStateSection />
      </Box>
    </>
  );
}

/** The form's values: numbers and the deadline as the inputs hold them (text). */
interface FormValues {
  title: string;
  description: string;
  colors: { primary: string; secondary: string; accent: string; text: string };
  supportPhone: string;
  language: 'en' | 'es';
  timeZone: string;
  idleTimeoutSeconds: string;
  autosaveSeconds: string;
  newApplicationsDeadline: string;
  allowNewApplications: boolean;
  maintenance: boolean;
  blockIndexing: boolean;
}

const toForm = (s: ApplicationSettings): FormValues => ({
  title: s.title,
  description: s.description,
  colors: { ...s.colors },
  supportPhone: s.supportPhone,
  language: s.language,
  timeZone: s.timeZone,
  idleTimeoutSeconds: String(s.idleTimeoutSeconds),
  autosaveSeconds: String(s.autosaveSeconds),
  // datetime-local takes minutes; the stored wall clock has seconds.
  newApplicationsDeadline: s.newApplicationsDeadline?.slice(0, 16) ?? '',
  allowNewApplications: s.allowNewApplications,
  maintenance: s.maintenance,
  blockIndexing: s.blockIndexing,
});

const toBody = (v: FormValues) => ({
  ...v,
  idleTimeoutSeconds: v.idleTimeoutSeconds.trim() === '' ? Number.NaN : Number(v.idleTimeoutSeconds),
  autosaveSeconds: v.autosaveSeconds.trim() === '' ? Number.NaN : Number(v.autosaveSeconds),
  newApplicationsDeadline: v.newApplicationsDeadline || null,
});

const FIELDS = [
  'title', 'description', 'colors.primary', 'colors.secondary', 'colors.accent', 'colors.text', 'supportPhone', 'language', 'timeZone',
  'idleTimeoutSeconds', 'autosaveSeconds', 'newApplicationsDeadline', 'allowNewApplications', 'maintenance', 'blockIndexing',
] as const satisfies readonly Path<FormValues>[];

function SettingsForm({ settings, project }: { settings: ApplicationSettings; project?: string }) {
  const { t } = useTranslation();
  const can = useCan();
  const dialogs = useDialogs();
  const mayChange = can('menu_configuracion', 'update');
  const disabled = !mayChange;
  const { control, handleSubmit, setError, reset, formState } = useForm<FormValues>({ defaultValues: toForm(settings) });
  const colors = useWatch({ control, name: 'colors' });
  const title = useWatch({ control, name: 'title' });
  const idle = useWatch({ control, name: 'idleTimeoutSeconds' });
  const autosave = useWatch({ control, name: 'autosaveSeconds' });
  const dirty = mayChange && formState.isDirty;

  const release = useLeaveGuard(dirty, { title: t('appSettings.leave.title'), message: t('appSettings.leave.message'), confirmText: t('appSettings.leave.confirm') });

  const save = useSaveApplicationSettings(project, {
    onSuccess: (saved) => {
      release();
      reset(toForm(saved));
      showToast(t('appSettings.saved'), 'success');
    },
    onError: (error) => showServerError(error, setError, FIELDS),
  });

  const submit = handleSubmit(async (values) => {
    // Checked here by the server's own schema, so a bad value is named before anything is sent.
    const parsed = applicationSettingsBody.safeParse(toBody(values));
    if (!parsed.success) {
      let first = true;
      for (const issue of parsed.error.issues) {
        const path = issue.path.join('.') as Path<FormValues>;
        if (!(FIELDS as readonly string[]).includes(path)) continue;
        const message = t(issue.message, (issue as { params?: Record<string, unknown> }).params ?? {});
        setError(path, { type: 'server', message }, { shouldFocus: first });
        first = false;
      }
      return;
    }
    if (parsed.data.maintenance && !settings.maintenance) {
      const ok = await dialogs.confirm({
        title: t('appSettings.confirmMaintenance.title'),
        message: t('appSettings.confirmMaintenance.message'),
        confirmText: t('appSettings.confirmMaintenance.confirm'),
      });
      if (!ok) return;
    }
    save.mutate(parsed.data as ApplicationSettingsValues);
  });

  const minutes = (seconds: string) => (Number(seconds) > 0 ? t('appSettings.help.seconds', { minutes: Math.round((Number(seconds) / 60) * 10) / 10 }) : undefined);
  const grid = { display: 'grid', gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: '1fr 1fr' }, columnGap: 2 } as const;

  return (
    <Box component="form" noValidate onSubmit={(event) => void submit(event)} sx={{ display: 'grid', gap: 2, minWidth: 0 }}>
      {!mayChange && <Alert severity="info">{t('appSettings.readOnly')}</Alert>}
      {mayChange && <Alert severity="info">{t('appSettings.intro')}</Alert>}

      <Section title={t('appSettings.sections.branding')} id="branding">
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: '1fr 1fr' }, gap: 2 }}>
          <Box sx={{ minWidth: 0 }}>
            <FormTextField control={control} name="title" label={t('appSettings.fields.title')} required disabled={disabled} />
            <FormTextField control={control} name="description" label={t('appSettings.fields.description')} multiline minRows={2} disabled={disabled} />
            <Box sx={grid}>
              {(['primary', 'secondary', 'accent', 'text'] as const).map((c) => (
                <ColorField key={c} control={control} name={`colors.${c}`} label={t(`appSettings.fields.${c}`)} disabled={disabled} />
              ))}
            </Box>
          </Box>
          <Box sx={{ minWidth: 0, pt: { md: 2 } }}>
            <BrandingPreview colors={colors} title={title} logo={settings.logo} />
          </Box>
        </Box>
      </Section>

      <Section title={t('appSettings.sections.images')} id="images">
        <BrandingImages settings={settings} project={project} mayChange={mayChange} />
      </Section>

      <Section title={t('appSettings.sections.contact')} id="contact">
        <Box sx={grid}>
          <FormTextField control={control} name="supportPhone" type="tel" inputMode="tel" autoComplete="off" label={t('appSettings.fields.supportPhone')} disabled={disabled} />
          <FormSelectField
            control={control}
            name="language"
            label={t('appSettings.fields.language')}
            disabled={disabled}
            options={[
              { value: 'en', label: t('appSettings.languages.en') },
              { value: 'es', label: t('appSettings.languages.es') },
            ]}
          />
        </Box>
        <TimeZoneField control={control} name="timeZone" label={t('appSettings.fields.timeZone')} disabled={disabled} />
      </Section>

      <Section title={t('appSettings.sections.sessions')} id="sessions">
        <Box sx={grid}>
          <FormTextField
            control={control}
            name="idleTimeoutSeconds"
            type="number"
            inputMode="numeric"
            label={t('appSettings.fields.idle')}
            disabled={disabled}
            helperText={[t('appSettings.help.idleBounds', IDLE_BOUNDS), minutes(idle)].filter(Boolean).join(' · ')}
          />
          <FormTextField
            control={control}
            name="autosaveSeconds"
            type="number"
            inputMode="numeric"
            label={t('appSettings.fields.autosave')}
            disabled={disabled}
            helperText={[t('appSettings.help.autosaveBounds', AUTOSAVE_BOUNDS), minutes(autosave)].filter(Boolean).join(' · ')}
          />
        </Box>
      </Section>

      <Section title={t('appSettings.sections.applications')} id="applications">
        <Box sx={grid}>
          <FormTextField control={control} name="newApplicationsDeadline" type="datetime-local" label={t('appSettings.fields.deadline')} disabled={disabled} helperText={t('appSettings.help.deadline')} />
        </Box>
        <SwitchField control={control} name="allowNewApplications" label={t('appSettings.fields.allow')} disabled={disabled} />
      </Section>

      <Section title={t('appSettings.sections.visibility')} id="visibility">
        <SwitchField control={control} name="maintenance" label={t('appSettings.fields.maintenance')} help={t('appSettings.help.maintenance')} disabled={disabled} />
        <SwitchField control={control} name="blockIndexing" label={t('appSettings.fields.blockIndexing')} help={t('appSettings.help.blockIndexing')} disabled={disabled} />
      </Section>

      {mayChange && (
        <Box
          sx={{
            display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 2, position: 'sticky', bottom: 0, zIndex: 1, py: 1.5,
            bgcolor: 'background.default', borderTop: 1, borderColor: 'divider',
          }}
        >
          <Button type="submit" variant="contained" loading={save.isPending}>
            {t('appSettings.save')}
          </Button>
          {dirty && <Chip color="warning" size="small" variant="outlined" label={t('appSettings.unsaved')} />}
        </Box>
      )}
    </Box>
  );
}

/** A colour as #RRGGBB beside a swatch and the browser's picker (the text field is the one that counts). */
function ColorField({ control, name, label, disabled }: { control: Control<FormValues>; name: `colors.${'primary' | 'secondary' | 'accent' | 'text'}`; label: string; disabled: boolean }) {
  const { t } = useTranslation();
  const { field, fieldState } = useController({ control, name });
  const message = fieldErrorText(t, fieldState.error);
  const valid = /^#[0-9A-Fa-f]{6}$/.test(field.value);
  return (
    <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1, minWidth: 0 }}>
      <TextField
        {...field}
        inputRef={field.ref}
        label={label}
        margin="normal"
        fullWidth
        disabled={disabled}
        error={!!message}
        helperText={message ?? t('appSettings.help.color')}
        slotProps={{ htmlInput: { maxLength: 7, spellCheck: false, autoCapitalize: 'characters' } }}
      />
      <Box
        component="input"
        type="color"
        aria-label={label}
        disabled={disabled}
        value={valid ? field.value.toLowerCase() : '#000000'}
        onChange={(event: ChangeEvent<HTMLInputElement>) => field.onChange(event.target.value.toUpperCase())}
        sx={{ mt: 2.5, width: 44, height: 40, p: 0, border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: 'transparent', flexShrink: 0 }}
      />
    </Box>
  );
}

function SwitchField({ control, name, label, help, disabled }: { control: Control<FormValues>; name: 'allowNewApplications' | 'maintenance' | 'blockIndexing'; label: string; help?: ReactNode; disabled: boolean }) {
  const { field } = useController({ control, name });
  return (
    <Box sx={{ my: 1 }}>
      <FormControlLabel
        control={<Switch checked={field.value} onChange={(event) => field.onChange(event.target.checked)} onBlur={field.onBlur} name={field.name} slotProps={{ input: { ref: field.ref } }} disabled={disabled} />}
        label={label}
      />
      {help && <FormHelperText sx={{ mt: 0, ml: 6 }}>{help}</FormHelperText>}
    </Box>
  );
}
