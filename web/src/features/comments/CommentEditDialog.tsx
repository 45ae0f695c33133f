import Alert from '@mui/material/Alert';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { COMMENT_MAX } from '../../../../core/api/comments.js';
import { useDialogs } from '../../components/feedback/FeedbackProvider.js';
import { showToast } from '../../components/feedback/toastStore.js';
import { FormDialog } from '../../components/page/index.js';
import { ApiError, errorMessage } from '../../lib/api.js';
import { type Comment, useDeleteComment, useEditComment, useInvalidateComments } from './api.js';

/** Changes a comment's text (and, for staff, whether the applicant sees it). A failure stays in the dialog with the text. */
export function CommentEditDialog({ comment, staffTools, onClose }: { comment: Comment; staffTools: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [body, setBody] = useState(comment.body);
  const [visible, setVisible] = useState(comment.visibleToApplicant);
  const [error, setError] = useState<string | null>(null);
  const invalidate = useInvalidateComments();
  const edit = useEditComment({
    onSuccess: () => showToast(t('common.saved'), 'success'),
    onRefreshed: onClose,
    onError: (failure) => {
      // Someone changed it meanwhile: the thread loads the new version, the typed text stays here to save again.
      if (failure instanceof ApiError && failure.status === 409) {
        setError(t('comments.edit.conflict'));
        void invalidate(comment.caseId);
      } else setError(errorMessage(failure));
    },
  });
  const trimmed = body.trim();
  const tooLong = trimmed.length > COMMENT_MAX;
  return (
    <FormDialog
      title={t('comments.edit.title', { number: comment.number })}
      onClose={onClose}
      pending={edit.isPending}
      submitDisabled={!trimmed || tooLong}
      onSubmit={(event) => {
        event.preventDefault();
        if (!trimmed || tooLong) return;
        setError(null);
        edit.mutate({
          id: comment.id,
          caseId: comment.caseId,
          version: comment.version,
          body: trimmed,
          ...(staffTools ? { visibleToApplicant: visible } : {}),
        });
      }}
    >
      <TextField
        label={t('comments.composer.field')}
        multiline
        minRows={4}
        maxRows={16}
        fullWidth
        autoFocus
        value={body}
        onChange={(event) => setBody(event.target.value)}
        error={tooLong}
        helperText={`${trimmed.length}/${COMMENT_MAX}`}
        sx={{ mt: 1 }}
      />
      {staffTools && (
        <FormControlLabel control={<Switch checked={visible} onChange={(_e, on) => setVisible(on)} />} label={t('comments.composer.visible')} />
      )}
      {error && (
        <Alert severity="error" sx={{ mt: 1 }}>
          {error}
        </Alert>
      )}
    </FormDialog>
  );
}

/** Asks before deleting a comment, then deletes it; the toast says how it went. */
export function useConfirmDeleteComment() {
  const { t } = useTranslation();
  const dialogs = useDialogs();
  const remove = useDeleteComment({
    onSuccess: () => showToast(t('comments.deleted'), 'success'),
    onError: (failure) => showToast(errorMessage(failure)),
  });
  return async (comment: Comment) => {
    const confirmed = await dialogs.confirm({
      title: t('comments.delete.title', { number: comment.number }),
      message: t('comments.delete.message'),
      confirmText: t('common.delete'),
    });
    if (confirmed) remove.mutate(comment);
  };
}
