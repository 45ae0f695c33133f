import Alert from '@mui/material/Alert';
import TextField from '@mui/material/TextField';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../components/page/FormDialog.js';
import type { TaskDetail } from './api.js';

const MAX_REASON = 2000;

/** Where a reject sends the case, in words: back to a named task, or the end as not eligible. */
export function useRejectDestination(onReject: TaskDetail['onReject'], adhoc = false): string {
  const { t } = useTranslation();
  if (adhoc) return t('adhocTasks.rejectStays');
  return onReject && 'to' in onReject ? t('tasks.reject.backTo', { task: onReject.name }) : t('tasks.reject.notEligible');
}

interface RejectDialogProps {
  taskName: string;
  onReject: TaskDetail['onReject'];
  /** An ad-hoc task: its reject sends the case nowhere. */
  adhoc?: boolean;
  pending?: boolean;
  /** The server's message for the reason, if it refused it. */
  error?: string;
  onSubmit: (reason: string) => void;
  onClose: () => void;
}

/** Reject a task: a reason is required, and the dialog says where the case goes. */
export function RejectDialog({ taskName, onReject, adhoc = false, pending, error, onSubmit, onClose }: RejectDialogProps) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const [touched, setTouched] = useState(false);
  const destination = useRejectDestination(onReject, adhoc);
  const notEligible = !adhoc && (!onReject || 'notEligible' in onReject);
  const missing = reason.trim() === '';
  const tooLong = reason.trim().length > MAX_REASON;
  const message = touched && missing ? t('validation.required') : tooLong ? t('validation.tooLong') : error;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (missing || tooLong) return;
    onSubmit(reason.trim());
  };

  return (
    <FormDialog title={t('tasks.reject.title', { name: taskName })} onClose={onClose} onSubmit={submit} submitColor="error" pending={pending} submitLabel={t('tasks.reject.confirm')}>
      <Alert severity={notEligible ? 'error' : 'warning'} sx={{ mb: 1 }}>
        {destination}
      </Alert>
      <TextField
        autoFocus
        fullWidth
        multiline
        minRows={3}
        margin="normal"
        name="reason"
        label={t('tasks.reject.reason')}
        required
        value={reason}
        onChange={(event) => setReason(event.target.value)}
        onBlur={() => setTouched(true)}
        error={!!message}
        helperText={message ?? t('tasks.reject.reasonHint')}
      />
    </FormDialog>
  );
}
