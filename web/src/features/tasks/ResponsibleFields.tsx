import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import { type Ref, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { type UserOption, useTeamOptions } from '../teams/api.js';
import { UserPicker } from '../teams/UserPicker.js';

export type ResponsibleKind = 'user' | 'team';

interface ResponsibleFieldsProps {
  /** A visible legend over the choice; without it the choice is named "Assign to" for screen readers. */
  legend?: string;
  kind: ResponsibleKind;
  onKindChange: (kind: ResponsibleKind) => void;
  user: UserOption | null;
  onUserChange: (user: UserOption | null) => void;
  /** The chosen team's id, as text ('' for none). */
  team: string;
  onTeamChange: (team: string) => void;
  userError?: string;
  teamError?: string;
  autoFocus?: boolean;
  /** Where a form library focuses the field with an error. */
  userRef?: Ref<HTMLInputElement>;
  teamRef?: Ref<unknown>;
}

/**
 * Who does a task: a named user, or a team (its next member by the team's
 * strategy). Someone who may not list teams types the team's number.
 * Used by the change-responsible dialog and the new ad-hoc task page.
 */
export function ResponsibleFields(props: ResponsibleFieldsProps) {
  const { legend, kind, user, team, userError, teamError } = props;
  const { t } = useTranslation();
  const legendId = useId();
  const teams = useTeamOptions(kind === 'team');
  const radios = (
    <RadioGroup
      row
      value={kind}
      onChange={(event) => props.onKindChange(event.target.value as ResponsibleKind)}
      aria-label={legend ? undefined : t('tasks.assignTo')}
      aria-labelledby={legend ? legendId : undefined}
    >
      <FormControlLabel value="user" control={<Radio />} label={t('tasks.assignToUser')} />
      <FormControlLabel value="team" control={<Radio />} label={t('tasks.assignToTeam')} />
    </RadioGroup>
  );
  return (
    <>
      {legend ? (
        <FormControl component="fieldset" sx={{ mt: 2, display: 'block' }}>
          <FormLabel component="legend" id={legendId}>
            {legend}
          </FormLabel>
          {radios}
        </FormControl>
      ) : (
        radios
      )}
      {kind === 'user' ? (
        <UserPicker label={t('tasks.user')} value={user} onChange={props.onUserChange} required error={userError} autoFocus={props.autoFocus} inputRef={props.userRef} />
      ) : teams.isError ? (
        <TextField
          fullWidth
          margin="normal"
          type="number"
          label={t('tasks.teamId')}
          required
          value={team}
          onChange={(event) => props.onTeamChange(event.target.value)}
          inputRef={props.teamRef}
          error={!!teamError}
          helperText={teamError}
        />
      ) : (
        <TextField
          select
          fullWidth
          margin="normal"
          label={t('tasks.team')}
          required
          value={team}
          onChange={(event) => props.onTeamChange(event.target.value)}
          inputRef={props.teamRef}
          error={!!teamError}
          helperText={teamError ?? t('tasks.teamPicksMember')}
          disabled={!teams.data}
        >
          {(teams.data?.items ?? []).filter((option) => option.active).map((option) => (
            <MenuItem key={option.id} value={String(option.id)}>
              {option.name}
            </MenuItem>
          ))}
        </TextField>
      )}
    </>
  );
}
