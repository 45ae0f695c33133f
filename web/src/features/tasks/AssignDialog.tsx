import DialogContentText from '@mui/material/DialogContentText';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../components/page/FormDialog.js';
import type { UserOption } from '../teams/api.js';
import { type ResponsibleKind, ResponsibleFields } from './ResponsibleFields.js';

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
  const [kind, setKind] = useState<ResponsibleKind>('user');
  const [user, setUser] = useState<UserOption | null>(null);
  const [team, setTeam] = useState('');
  const [missing, setMissing] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (kind === 'user' ? !user : !team) return setMissing(true);
    onSubmit(kind === 'user' ? { userId: (user as UserOption).id } : { teamId: Number(team) });
  };
  const choose = t('validation.chooseOption');

  return (
    <FormDialog title={title} onClose={onClose} onSubmit={submit} pending={pending} submitLabel={t('tasks.assign')}>
      {description && <DialogContentText>{description}</DialogContentText>}
      <ResponsibleFields
        kind={kind}
        onKindChange={setKind}
        user={user}
        onUserChange={setUser}
        team={team}
        onTeamChange={setTeam}
        userError={(missing && !user ? choose : undefined) ?? error}
        teamError={(missing && !team ? choose : undefined) ?? error}
        autoFocus
      />
    </FormDialog>
  );
}
