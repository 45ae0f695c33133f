import DialogContentText from '@mui/material/DialogContentText';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../components/page/FormDialog.js';
import { showToast } from '../../components/feedback/toastStore.js';
import { ApiError, errorMessage } from '../../lib/api.js';
import { MEMBER_ROLES, type MemberRole, type TeamMemberItem, type UserOption, useSaveMember, useTeamOptions } from './api.js';
import { UserPicker } from './UserPicker.js';

interface MemberDialogProps {
  /** The membership to edit (role and active only), or null to add one. */
  member: TeamMemberItem | null;
  /** The team chosen in the page's filter, preselected for a new member. */
  teamId?: number;
  onClose: () => void;
}

type Errors = Partial<Record<'teamId' | 'userId', string>>;

/** Add a user to a team (leader or member, active), or change a member's role and state. */
export function MemberDialog({ member, teamId, onClose }: MemberDialogProps) {
  const { t } = useTranslation();
  const roleId = useId();
  const teams = useTeamOptions(!member);
  const [team, setTeam] = useState(member ? String(member.teamId) : teamId ? String(teamId) : '');
  const [user, setUser] = useState<UserOption | null>(null);
  const [role, setRole] = useState<MemberRole>(member?.role ?? 'member');
  const [active, setActive] = useState(member?.active ?? true);
  const [errors, setErrors] = useState<Errors>({});

  const save = useSaveMember(member, {
    onSuccess: () => showToast(t('common.saved'), 'success'),
    onRefreshed: onClose,
    onError: (error) => {
      if (error instanceof ApiError && error.code === 'DUPLICATE') return setErrors({ userId: t('teams.alreadyMember') });
      if (error instanceof ApiError && error.details.length) {
        const next: Errors = {};
        for (const d of error.details) if (d.path === 'teamId' || d.path === 'userId') next[d.path] = d.message;
        if (Object.keys(next).length) return setErrors(next);
      }
      showToast(errorMessage(error));
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!member) {
      const next: Errors = {};
      if (!team) next.teamId = t('validation.chooseOption');
      if (!user) next.userId = t('validation.chooseOption');
      setErrors(next);
      if (Object.keys(next).length) return;
    }
    save.mutate(member ? { role, active } : { teamId: Number(team), userId: user?.id, role, active });
  };

  return (
    <FormDialog title={t(member ? 'teams.editMember' : 'teams.addMember')} onClose={onClose} onSubmit={submit} pending={save.isPending}>
      {member ? (
        <DialogContentText>{t('teams.memberOf', { user: member.userName, email: member.userEmail, team: member.teamName })}</DialogContentText>
      ) : (
        <>
          <TextField
            select
            fullWidth
            margin="normal"
            label={t('teams.team')}
            required
            value={team}
            onChange={(event) => setTeam(event.target.value)}
            error={!!errors.teamId}
            helperText={errors.teamId}
            disabled={!teams.data}
          >
            {(teams.data?.items ?? []).map((option) => (
              <MenuItem key={option.id} value={String(option.id)}>
                {option.name}
              </MenuItem>
            ))}
          </TextField>
          <UserPicker label={t('teams.user')} value={user} onChange={setUser} required error={errors.userId} />
        </>
      )}
      <FormControl sx={{ mt: 2, display: 'block' }}>
        <FormLabel id={roleId}>{t('teams.role')}</FormLabel>
        <RadioGroup row aria-labelledby={roleId} value={role} onChange={(event) => setRole(event.target.value as MemberRole)}>
          {MEMBER_ROLES.map((value) => (
            <FormControlLabel key={value} value={value} control={<Radio />} label={t(`teams.roles.${value}`)} />
          ))}
        </RadioGroup>
      </FormControl>
      <FormControlLabel
        sx={{ mt: 1 }}
        control={<Switch checked={active} onChange={(event) => setActive(event.target.checked)} />}
        label={t('teams.active')}
      />
    </FormDialog>
  );
}
