import CloseOutlined from '@mui/icons-material/CloseOutlined';
import PersonOutlined from '@mui/icons-material/PersonOutlined';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import DialogContentText from '@mui/material/DialogContentText';
import Typography from '@mui/material/Typography';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../components/page/FormDialog.js';
import type { UserOption } from '../../teams/api.js';
import { UserPicker } from '../../teams/UserPicker.js';

interface Common {
  /** The application, as the dialog names it. */
  number: string;
  pending?: boolean;
  /** The server's message about the choice. */
  error?: string;
  onClose: () => void;
}

/** Gives the application to another user of the tenant. */
export function OwnerDialog({ number, current, pending, error, onSubmit, onClose }: Common & { current: string; onSubmit: (userId: number) => void }) {
  const { t } = useTranslation();
  const [user, setUser] = useState<UserOption | null>(null);
  const [missing, setMissing] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!user) return setMissing(true);
    onSubmit(user.id);
  };
  return (
    <FormDialog title={t('caseView.owner.title')} onClose={onClose} onSubmit={submit} pending={pending} submitLabel={t('caseView.owner.change')}>
      <DialogContentText>{t('caseView.owner.description', { number, owner: current })}</DialogContentText>
      <UserPicker
        label={t('caseView.owner.newOwner')}
        value={user}
        onChange={setUser}
        required
        autoFocus
        error={(missing && !user ? t('validation.chooseOption') : undefined) ?? error}
      />
    </FormDialog>
  );
}

/** The users who follow the application besides its owner: add with the picker, remove with a chip's delete. */
export function ParticipantsDialog({
  number,
  current,
  pending,
  error,
  onSubmit,
  onClose,
}: Common & { current: Array<{ id: number; name: string }>; onSubmit: (userIds: number[]) => void }) {
  const { t } = useTranslation();
  const [people, setPeople] = useState(current);
  // The picker empties after each choice; its key makes a fresh one.
  const [pickerKey, setPickerKey] = useState(0);
  const add = (user: UserOption | null) => {
    if (!user) return;
    setPeople((list) => (list.some((p) => p.id === user.id) ? list : [...list, { id: user.id, name: user.name }]));
    setPickerKey((k) => k + 1);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(people.map((p) => p.id));
  };
  return (
    <FormDialog title={t('caseView.participants.title')} onClose={onClose} onSubmit={submit} pending={pending}>
      <DialogContentText>{t('caseView.participants.description', { number })}</DialogContentText>
      <Box component="ul" aria-label={t('caseView.participants.label')} sx={{ listStyle: 'none', p: 0, my: 2, display: 'grid', gap: 0.5 }}>
        {people.length === 0 && (
          <Typography component="li" variant="body2" color="text.secondary">
            {t('caseView.participants.none')}
          </Typography>
        )}
        {people.map((person) => (
          <Box component="li" key={person.id} sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 0 }}>
            <PersonOutlined fontSize="small" color="action" aria-hidden />
            <Typography variant="body2" sx={{ flexGrow: 1, overflowWrap: 'anywhere' }}>
              {person.name}
            </Typography>
            <IconButton size="small" aria-label={t('caseView.participants.remove', { name: person.name })} onClick={() => setPeople((list) => list.filter((p) => p.id !== person.id))}>
              <CloseOutlined fontSize="small" />
            </IconButton>
          </Box>
        ))}
      </Box>
      <UserPicker key={pickerKey} label={t('caseView.participants.add')} value={null} onChange={add} error={error} />
    </FormDialog>
  );
}
