import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import { useTheme } from '@mui/material/styles';
import TextField from '@mui/material/TextField';
import useMediaQuery from '@mui/material/useMediaQuery';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type UserOption, useTeamOptions } from '../teams/teamsApi.js';
import { UserPicker } from '../teams/UserPicker.js';

export type AssignTarget = { userId: number } | { teamId: number };

interface AssignDialogProps {
  title: string;
  /** What is being reassigned, said above the choice. */
  description?: string;
  pending?: boolean;
  /** The server's message for the choice (a 422 on userId or teamId). */
  error?: string;
  onSubmit: (target: AssignTarget) => void;
  onClose: () => void;
}

/** Choose a new responsible: a named user, or a team (its next member by the team's strategy). */
export function AssignDialog({ title, description, pending, error, onSubmit, onClose }: AssignDialogProps) {
  const { t } = useTranslation();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const titleId = useId();
  const [kind, setKind] = useState<'user' | 'team'>('user');
  const [user, setUser] = useState<UserOption | null>(null);
  const [team, setTeam] = useState('');
  const [missing, setMissing] = useState(false);
  const teams = useTeamOptions(kind === 'team');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (kind === 'user' ? !user : !team) return setMissing(true);
    onSubmit(kind === 'user' ? { userId: (user as UserOption).id } : { teamId: Number(team) });
  };
  const choose = t('validation.chooseOption');

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm" fullScreen={phone}>
      <form noValidate onSubmit={submit}>
        <DialogTitle id={titleId}>{title}</DialogTitle>
        <DialogContent>
          {description && <DialogContentText>{description}</DialogContentText>}
          <RadioGroup row value={kind} onChange={(event) => setKind(event.target.value as 'user' | 'team')} aria-label={t('tasks.assignTo')}>
            <FormControlLabel value="user" control={<Radio />} label={t('tasks.assignToUser')} />
            <FormControlLabel value="team" control={<Radio />} label={t('tasks.assignToTeam')} />
          </RadioGroup>
          {kind === 'user' ? (
            <UserPicker label={t('tasks.user')} value={user} onChange={setUser} required error={(missing && !user ? choose : undefined) ?? error} autoFocus />
          ) : teams.isError ? (
            <TextField
              fullWidth
              margin="normal"
              type="number"
              label={t('tasks.teamId')}
              required
              value={team}
              onChange={(event) => setTeam(event.target.value)}
              error={(missing && !team) || !!error}
              helperText={missing && !team ? choose : error}
            />
          ) : (
            <TextField
              select
              fullWidth
              margin="normal"
              label={t('tasks.team')}
              required
              value={team}
              onChange={(event) => setTeam(event.target.value)}
              error={(missing && !team) || !!error}
              helperText={missing && !team ? choose : (error ?? t('tasks.teamPicksMember'))}
              disabled={!teams.data}
            >
              {(teams.data?.items ?? []).filter((option) => option.active).map((option) => (
                <MenuItem key={option.id} value={String(option.id)}>
                  {option.name}
                </MenuItem>
              ))}
            </TextField>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="submit" variant="contained" loading={pending}>
            {t('tasks.assign')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
