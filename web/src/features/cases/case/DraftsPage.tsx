import AddOutlined from '@mui/icons-material/AddOutlined';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { formatDateTime, newApplicationsOpen } from '../../../../../core/dates.js';
import { useProjectSettings } from '../../../app/project/projectSettings.js';
import { useSession } from '../../../app/session/session.js';
import { useDialogs } from '../../../components/feedback/FeedbackProvider.js';
import { showToast } from '../../../components/feedback/toastStore.js';
import { QueryState } from '../../../components/page/index.js';
import { PageHeader } from '../../../components/PageHeader.js';
import { errorMessage } from '../../../lib/api.js';
import { type CaseItem, newCaseUrl, useDeleteDraft, useDrafts } from '../api.js';

/**
 * /cases/drafts: my applications saved to complete later, newest first; each
 * continues in the new-application editor or is deleted after a
 * confirmation. After the deadline for new applications the page says so.
 */
export default function DraftsPage() {
  const { t } = useTranslation();
  const session = useSession();
  const settings = useProjectSettings();
  const dialogs = useDialogs();
  const drafts = useDrafts();
  const open = newApplicationsOpen(settings, new Date());

  const remove = useDeleteDraft({
    onSuccess: () => showToast(t('caseView.drafts.deleted'), 'success'),
    onError: (error) => showToast(errorMessage(error)),
  });

  const confirmDelete = async (draft: CaseItem) => {
    const confirmed = await dialogs.confirm({
      title: t('caseView.drafts.deleteTitle'),
      message: t('caseView.drafts.deleteMessage', { name: draft.applicant || t('caseView.drafts.noName'), protocol: draft.protocolName }),
      confirmText: t('common.delete'),
    });
    if (confirmed) remove.mutate(draft);
  };

  const newButton = open && (
    <Button variant="contained" component={RouterLink} to={newCaseUrl()} startIcon={<AddOutlined />}>
      {t('caseView.editor.newTitle')}
    </Button>
  );

  return (
    <>
      <PageHeader title={t('caseView.drafts.title')}>{newButton}</PageHeader>
      {!open && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {t('cases.errors.applicationsClosed')}
        </Alert>
      )}
      <QueryState
        query={drafts}
        retry
        isEmpty={(data) => data.items.length === 0}
        empty={
          <Paper variant="outlined" sx={{ p: 3, textAlign: 'center' }}>
            <Typography sx={{ mb: 1 }}>{t('caseView.drafts.empty')}</Typography>
            {open && (
              <Typography variant="body2" color="text.secondary">
                {t('caseView.drafts.emptyHint')}
              </Typography>
            )}
          </Paper>
        }
      >
        {(data) => (
          <>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
              {t('caseView.drafts.count', { count: data.total })}
            </Typography>
            <Box component="ul" aria-label={t('caseView.drafts.title')} sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1.5 }}>
              {data.items.map((draft) => {
                const name = draft.applicant || t('caseView.drafts.noName');
                return (
                  <Paper component="li" variant="outlined" key={draft.id} sx={{ p: 2, display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1.5 }}>
                    <Box sx={{ flex: '1 1 240px', minWidth: 0 }}>
                      <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
                        {name}
                      </Typography>
                      <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                        {draft.protocolName} · {t('caseView.drafts.savedAt', { when: formatDateTime(draft.updatedAt, session.user.timeZone) })}
                      </Typography>
                    </Box>
                    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
                      <Button
                        variant="contained"
                        component={RouterLink}
                        to={newCaseUrl(draft.id)}
                        startIcon={<EditOutlined />}
                        aria-label={t('caseView.drafts.continueNamed', { name })}
                      >
                        {t('caseView.drafts.continue')}
                      </Button>
                      <Button
                        variant="outlined"
                        color="error"
                        startIcon={<DeleteOutlined />}
                        onClick={() => void confirmDelete(draft)}
                        disabled={remove.isPending && remove.variables?.id === draft.id}
                        aria-label={t('caseView.drafts.deleteNamed', { name })}
                      >
                        {t('common.delete')}
                      </Button>
                    </Box>
                  </Paper>
                );
              })}
            </Box>
          </>
        )}
      </QueryState>
    </>
  );
}
