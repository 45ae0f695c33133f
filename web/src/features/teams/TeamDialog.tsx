import { zodResolver } from '@hookform/resolvers/zod';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { FormDialog } from '../../components/page/FormDialog.js';
import { showToast } from '../../components/feedback/toastStore.js';
import { FormSelectField } from '../../components/form/FormSelectField.js';
import { FormTextField } from '../../components/form/FormTextField.js';
import { showServerError } from '../../lib/forms.js';
import { ASSIGNMENTS, type TeamItem, useSaveTeam } from './api.js';

/** The server's rules for a team (server/modules/teams/routes.ts). */
const teamSchema = z.object({
  name: z.string().trim().min(1, { error: 'validation.required' }).max(120, { error: 'validation.tooLong' }),
  description: z.string().trim().max(1000, { error: 'validation.tooLong' }),
  assignment: z.enum(ASSIGNMENTS, { error: 'validation.chooseOption' }),
  active: z.boolean(),
});
type TeamValues = z.input<typeof teamSchema>;
type TeamOutput = z.output<typeof teamSchema>;
const FIELDS = ['name', 'description', 'assignment'] as const;

/** Create or edit a team: name, description, how it assigns tasks, active. */
export function TeamDialog({ team, onClose }: { team: TeamItem | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { control, handleSubmit, setError } = useForm<TeamValues, unknown, TeamOutput>({
    resolver: zodResolver(teamSchema),
    defaultValues: {
      name: team?.name ?? '',
      description: team?.description ?? '',
      assignment: team?.assignment ?? 'round_robin',
      active: team?.active ?? true,
    },
  });
  const save = useSaveTeam(team, {
    onSuccess: () => showToast(t('common.saved'), 'success'),
    onRefreshed: onClose,
    onError: (error) => showServerError(error, setError, FIELDS, { byCode: { DUPLICATE: 'name' } }),
  });
  const assignmentOptions = ASSIGNMENTS.map((value) => ({ value, label: t(`teams.assignments.${value}`) }));

  return (
    <FormDialog title={t(team ? 'teams.edit' : 'teams.new')} onClose={onClose} onSubmit={handleSubmit((values) => save.mutate(values))} pending={save.isPending}>
      <FormTextField control={control} name="name" label={t('teams.name')} required autoFocus />
      <FormTextField control={control} name="description" label={t('teams.description')} multiline minRows={2} />
      <FormSelectField
        control={control}
        name="assignment"
        label={t('teams.assignment')}
        options={assignmentOptions}
        helperText={t('teams.assignmentHint')}
      />
      <Controller
        control={control}
        name="active"
        render={({ field }) => (
          <FormControlLabel
            sx={{ mt: 1 }}
            control={<Switch checked={field.value} onChange={(event) => field.onChange(event.target.checked)} slotProps={{ input: { ref: field.ref } }} />}
            label={t('teams.active')}
          />
        )}
      />
    </FormDialog>
  );
}
