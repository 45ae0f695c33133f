import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Skeleton from '@mui/material/Skeleton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../../core/dates.js';
import { useSession } from '../../app/session/session.js';
import { Section } from '../../components/page/index.js';
import { TaskStateChip } from '../tasks/TaskStateChip.js';
import { type Comment, useCommentThread } from './api.js';
import { CommentBody } from './CommentBody.js';
import { CommentComposer } from './CommentComposer.js';
import { CommentEditDialog, useConfirmDeleteComment } from './CommentEditDialog.js';

/** Who may see a comment: only staff, or the applicant too. */
export function VisibilityChip({ visible }: { visible: boolean }) {
  const { t } = useTranslation();
  return visible ? (
    <Chip size="small" color="info" variant="outlined" label={t('comments.visibleToApplicant')} />
  ) : (
    <Chip size="small" variant="outlined" label={t('comments.internal')} />
  );
}

function CommentItem({ comment, onEdit, onDelete }: { comment: Comment; onEdit: () => void; onDelete: () => void }) {
  const { t } = useTranslation();
  const session = useSession();
  const zone = session.user.timeZone;
  const label = t('comments.commentNumber', { number: comment.number });
  return (
    <Box component="li" aria-label={label} sx={{ py: 1.5, borderTop: 1, borderColor: 'divider', '&:first-of-type': { borderTop: 0 } }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: 1, rowGap: 0.5 }}>
        <Typography variant="subtitle2" component="span">
          #{comment.number}
        </Typography>
        <Typography variant="subtitle2" component="span">
          {comment.authorName}
        </Typography>
        <Typography variant="caption" color="text.secondary" component="span">
          <time dateTime={comment.createdAt}>{formatDateTime(comment.createdAt, zone)}</time>
          {comment.editedAt && ` · ${t('comments.edited', { when: formatDateTime(comment.editedAt, zone) })}`}
        </Typography>
        <TaskStateChip state={comment.caseState} />
        {comment.taskName && <Chip size="small" label={t('comments.task', { name: comment.taskName })} />}
        <VisibilityChip visible={comment.visibleToApplicant} />
        <Box sx={{ flexGrow: 1 }} />
        {comment.actions.includes('edit') && (
          <Tooltip title={t('common.edit')} describeChild>
            <IconButton size="small" aria-label={`${t('common.edit')}: ${label}`} onClick={onEdit}>
              <EditOutlined fontSize="small" />
            </IconButton>
          </Tooltip>
        )}
        {comment.actions.includes('delete') && (
          <Tooltip title={t('common.delete')} describeChild>
            <IconButton size="small" aria-label={`${t('common.delete')}: ${label}`} onClick={onDelete}>
              <DeleteOutlined fontSize="small" />
            </IconButton>
          </Tooltip>
        )}
      </Box>
      <CommentBody body={comment.body} sx={{ mt: 0.75 }} />
      {comment.documents.length > 0 && (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, mt: 0.75 }}>
          {comment.documents.map((doc) => (
            <Chip
              key={doc.code}
              size="small"
              color={doc.mark === 'missing' ? 'warning' : 'success'}
              variant="outlined"
              label={`${doc.name}: ${t(`comments.marks.${doc.mark}`)}`}
            />
          ))}
        </Box>
      )}
    </Box>
  );
}

interface CommentThreadProps {
  caseId: number;
  /** Only this task's comments, and new ones go on it. */
  taskId?: number;
}

/**
 * The comments of a case (or of one of its tasks), oldest first, with the
 * composer under them when the user may comment. Edit and delete follow
 * each comment's `actions`, as the server sent them.
 */
export function CommentThread({ caseId, taskId }: CommentThreadProps) {
  const { t } = useTranslation();
  const query = useCommentThread(caseId, taskId);
  const [editing, setEditing] = useState<Comment | null>(null);
  const confirmDelete = useConfirmDeleteComment();
  const thread = query.data;

  return (
    <Section title={t('comments.title')}>
      {query.isError && (
        // A failed refresh keeps the thread and the composer (and what is typed in it) on screen.
        <Alert
          severity="error"
          sx={{ mb: 1 }}
          action={
            <Button color="inherit" size="small" onClick={() => void query.refetch()}>
              {t('common.retry')}
            </Button>
          }
        >
          {t('comments.loadError')}
        </Alert>
      )}
      {!thread ? (
        !query.isError && <Skeleton variant="rectangular" height={120} aria-label={t('common.loading')} />
      ) : (
        <>
          {thread.items.length === 0 ? (
            <Typography variant="body2" color="text.secondary">
              {t('comments.empty')}
            </Typography>
          ) : (
            <Box component="ol" aria-label={t('comments.title')} sx={{ listStyle: 'none', m: 0, p: 0 }}>
              {thread.items.map((comment) => (
                <CommentItem key={comment.id} comment={comment} onEdit={() => setEditing(comment)} onDelete={() => void confirmDelete(comment)} />
              ))}
            </Box>
          )}
          {thread.canComment && <CommentComposer caseId={caseId} taskId={taskId} staffTools={thread.canUseStaffTools} />}
          {editing && (
            <CommentEditDialog
              // The comment as last loaded: after a conflict the thread reloads, and saving again sends the new version.
              comment={thread.items.find((c) => c.id === editing.id) ?? editing}
              staffTools={thread.canUseStaffTools}
              onClose={() => setEditing(null)}
            />
          )}
        </>
      )}
    </Section>
  );
}
