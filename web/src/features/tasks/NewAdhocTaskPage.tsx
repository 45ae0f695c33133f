import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import { useEffect, useRef } from 'react';
import { type Control, Controller, type FieldErrors, type Resolver, type UseFormClearErrors, useController, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { formatDate } from '../../../../core/dates.js';
import { ADHOC_DAYS_MAX, adhocTaskSchema, hasResponsible } from '../../../../core/workflow/adhoc.js';
import { useCan, useSession } from '../../app/session/session.js';
import { showToast } from '../../components/feedback/toastStore.js';
import { FormSelectField } from '../../components/form/FormSelectField.js';
import { FormTextField } from '../../components/form/FormTextField.js';
import { PageHeader } from '../../components/PageHeader.js';
import { ApiError } from '../../lib/api.js';
import { fieldErrorText, showServerError } from '../../lib/forms.js';
import type { UserOption } from '../teams/api.js';
import { useAdhocCasePreset, useInvalidateOpenCases } from '../cases/api.js';
import { useFormOptions } from '../forms/api.js';
import { type OpenCaseOption, OpenCasePicker } from './OpenCasePicker.js';
import { type ResponsibleKind, ResponsibleFields } from './ResponsibleFields.js';
import { useCreateAdhocTask } from './api.js';

/** What the page holds: pickers keep their option, inputs their text. Field names are the API's. */
export interface AdhocTaskValues {
  caseId: OpenCaseOption | null;
  name: string;
  instructions: string;
  kind: ResponsibleKind;
  userId: UserOption | null;
  teamId: string;
  expirationDays: string;
  formId: string;
}

const FIELDS = ['caseId', 'name', 'instructions', 'userId', 'teamId', 'expirationDays', 'formId'] as const;

/** The request body the values make: the responsible of the kind chosen, empty texts as "none". */
export function adhocTaskPayload(values: AdhocTaskValues): Record<string, unknown> {
  const days = values.expirationDays.trim();
  const instructions = values.instructions.trim();
  return {
    caseId: values.caseId?.id,
    name: values.name,
    userId: values.kind === 'user' ? values.userId?.id : undefined,
    teamId: values.kind === 'team' && values.teamId ? Number(values.teamId) : undefined,
    expirationDays: days === '' ? null : Number(days),
    formId: values.formId ? Number(values.formId) : null,
    instructions: instructions === '' ? null : instructions,
  };
}

/** The API's own schema (core/workflow/adhoc.ts) checks the payload; its messages go under the fields. */
const resolver: Resolver<AdhocTaskValues> = async (values) => {
  const payload = adhocTaskPayload(values);
  const parsed = adhocTaskSchema.safeParse(payload);
  if (parsed.success) return { values, errors: {} };
  const issues = [...parsed.error.issues];
  // The schema checks the responsible only when the fields themselves parse: say it together with the rest.
  if (!hasResponsible(payload) && !issues.some((i) => i.path[0] === 'userId')) issues.push({ code: 'custom', path: ['userId'], message: 'validation.chooseOption', input: payload });
  const errors: FieldErrors<AdhocTaskValues> = {};
  for (const issue of issues) {
    let field = String(issue.path[0] ?? '') as keyof AdhocTaskValues;
    // "Choose a responsible" belongs to the picker on screen.
    if (field === 'userId' && values.kind === 'team') field = 'teamId';
    if (!FIELDS.includes(field as (typeof FIELDS)[number]) || errors[field]) continue;
    errors[field] = { type: issue.code, message: issue.message };
  }
  return { values: {}, errors };
};

const DAY_MS = 86_400_000;

/**
 * /tareas/nuevo: an ad-hoc task on an open application: the application, a
 * name, instructions, who does it (a user or a team), the days until it is
 * due and, optionally, a form to fill. On success the new task's page opens.
 */
export default function NewAdhocTaskPage() {
  const { t } = useTranslation();
  const can = useCan();
  const session = useSession();
  const navigate = useNavigate();
  const invalidateOpenCases = useInvalidateOpenCases();
  const { control, handleSubmit, setError, clearErrors, setValue } = useForm<AdhocTaskValues>({
    resolver,
    defaultValues: { caseId: null, name: '', instructions: '', kind: 'user', userId: null, teamId: '', expirationDays: '', formId: '' },
  });
  const days = useWatch({ control, name: 'expirationDays' }).trim();
  const forms = useFormOptions(can('formularios', 'show'), 60_000);

  // From an application's page (`?case=<id>`): that application, when it is open.
  const [params] = useSearchParams();
  const fromCase = Number(params.get('case')) || null;
  const preset = useAdhocCasePreset(fromCase, can('wf_casos', 'show'));
  useEffect(() => {
    const c = preset.data;
    if (c?.state === 'PENDING') setValue('caseId', { id: c.id, number: c.number, applicant: c.applicant, protocolName: c.protocolName });
  }, [preset.data, setValue]);

  // The route needs the tasks target; making one needs its create action too.
  const allowed = can('wf_tareas', 'create');
  const refused = useRef(false);
  useEffect(() => {
    if (allowed || refused.current) return;
    refused.current = true;
    showToast(t('errors.forbidden'));
    navigate('/home', { replace: true });
  }, [allowed, navigate, t]);

  const create = useCreateAdhocTask({
    onSuccess: (_created, body) => showToast(t('adhocTasks.created', { name: body.name }), 'success'),
    onRefreshed: ({ id }) => navigate(`/tasks/${id}`),
    onError: async (error) => {
      // A closed or vanished application is said under the application field.
      showServerError(error, setError, FIELDS, { byCode: { CASE_NOT_OPEN: 'caseId', NOT_FOUND: 'caseId' } });
      if (error instanceof ApiError && (error.code === 'CASE_NOT_OPEN' || error.code === 'NOT_FOUND')) await invalidateOpenCases();
    },
  });

  if (!allowed) return null;
  const validDays = /^\d+$/.test(days) && Number(days) <= ADHOC_DAYS_MAX;
  const dueHint = validDays ? t('adhocTasks.dueOn', { date: formatDate(new Date(Date.now() + Number(days) * DAY_MS), session.user.timeZone) }) : t('adhocTasks.noDue');
  const formOptions = [{ value: '', label: t('adhocTasks.noForm') }, ...(forms.data?.items ?? []).map((f) => ({ value: String(f.id), label: f.name }))];

  return (
    <>
      <PageHeader title={t('adhocTasks.newTitle')} />
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, maxWidth: 760 }}>
        <form noValidate onSubmit={handleSubmit((values) => create.mutate(adhocTaskSchema.parse(adhocTaskPayload(values))))} aria-label={t('adhocTasks.newTitle')}>
          <Controller
            control={control}
            name="caseId"
            render={({ field, fieldState }) => (
              <OpenCasePicker
                label={t('adhocTasks.case')}
                value={field.value}
                onChange={field.onChange}
                inputRef={field.ref}
                error={fieldErrorText(t, fieldState.error)}
                helperText={t('adhocTasks.caseHint')}
                required
                autoFocus
              />
            )}
          />
          <FormTextField control={control} name="name" label={t('adhocTasks.name')} required />
          <FormTextField control={control} name="instructions" label={t('adhocTasks.instructions')} multiline minRows={3} helperText={t('adhocTasks.instructionsHint')} />
          <ResponsibleFieldsBound control={control} clearErrors={clearErrors} legend={t('adhocTasks.responsible')} />
          <Box sx={{ display: 'grid', columnGap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'minmax(0, 1fr) minmax(0, 1fr)' } }}>
            <FormTextField control={control} name="expirationDays" label={t('adhocTasks.expirationDays')} type="number" inputMode="numeric" helperText={dueHint} />
            {forms.data && (
              <FormSelectField
                control={control}
                name="formId"
                label={t('adhocTasks.form')}
                options={formOptions}
                helperText={t('adhocTasks.formHint')}
                slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
              />
            )}
          </Box>
          <Box sx={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'flex-end', gap: 1, mt: 2 }}>
            <Button component={RouterLink} to="/tareas">
              {t('common.cancel')}
            </Button>
            <Button type="submit" variant="contained" loading={create.isPending}>
              {t('adhocTasks.create')}
            </Button>
          </Box>
        </form>
      </Paper>
    </>
  );
}

interface BoundProps {
  control: Control<AdhocTaskValues>;
  clearErrors: UseFormClearErrors<AdhocTaskValues>;
  legend: string;
}

/** The responsible choice bound to the form: switching user/team clears the other's message. */
function ResponsibleFieldsBound({ control, clearErrors, legend }: BoundProps) {
  const { t } = useTranslation();
  const kind = useController({ control, name: 'kind' });
  const user = useController({ control, name: 'userId' });
  const team = useController({ control, name: 'teamId' });
  return (
    <ResponsibleFields
      legend={legend}
      kind={kind.field.value}
      onKindChange={(next) => {
        kind.field.onChange(next);
        clearErrors(['userId', 'teamId']);
      }}
      user={user.field.value}
      onUserChange={user.field.onChange}
      team={team.field.value}
      onTeamChange={team.field.onChange}
      userError={fieldErrorText(t, user.fieldState.error)}
      teamError={fieldErrorText(t, team.fieldState.error)}
      userRef={user.field.ref}
      teamRef={team.field.ref}
    />
  );
}
