import { zodResolver } from '@hookform/resolvers/zod';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import { useTheme } from '@mui/material/styles';
import Switch from '@mui/material/Switch';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useId } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
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
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const titleId = useId();
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
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm" fullScreen={phone}>
      <form noValidate onSubmit={handleSubmit((values) => save.mutate(values))}>
        <DialogTitle id={titleId}>{t(team ? 'teams.edit' : 'teams.new')}</DialogTitle>
        <DialogContent>
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
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="submit" variant="contained" loading={save.isPending}>
            {t('common.save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
