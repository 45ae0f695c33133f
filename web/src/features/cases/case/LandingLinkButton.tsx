import ContentCopyOutlined from '@mui/icons-material/ContentCopyOutlined';
import OpenInNewOutlined from '@mui/icons-material/OpenInNewOutlined';
import PublicOutlined from '@mui/icons-material/PublicOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../../../core/dates.js';
import { useCan, useSession } from '../../../app/session/session.js';
import { useDialogs } from '../../../components/feedback/FeedbackProvider.js';
import { showToast } from '../../../components/feedback/toastStore.js';
import { InfoDialog, QueryState } from '../../../components/page/index.js';
import { errorMessage } from '../../../lib/api.js';
import { useCreateLandingLink, useLandingLink, useRevokeLandingLink } from '../../landing/api.js';

/**
 * The case's landing page (issue 20): staff who may read the case make its
 * public link (shown once: only its hash is kept), open it in a new window,
 * or revoke it. Not for drafts, and not for applicants, who have their own view.
 */
export function LandingLinkButton({ caseId, state }: { caseId: number; state: string }) {
  const { t } = useTranslation();
  const session = useSession();
  const can = useCan();
  const [open, setOpen] = useState(false);
  const staff = session.targets.includes('wf_tareas') || session.targets.includes('admin_cases');
  if (!staff || !can('wf_casos', 'show') || state === 'DRAFT') return null;
  return (
    <>
      <Button variant="outlined" startIcon={<PublicOutlined />} onClick={() => setOpen(true)}>
        {t('landing.link.button')}
      </Button>
      {open && <LandingLinkDialog caseId={caseId} onClose={() => setOpen(false)} />}
    </>
  );
}

function LandingLinkDialog({ caseId, onClose }: { caseId: number; onClose: () => void }) {
  const { t } = useTranslation();
  const session = useSession();
  const dialogs = useDialogs();
  const state = useLandingLink(caseId, true);
  const [made, setMade] = useState<string | null>(null);
  const failed = (error: Error) => showToast(errorMessage(error), 'error');
  const create = useCreateLandingLink(caseId, { onSuccess: (link) => setMade(`${window.location.origin}${link.path}`), onError: failed });
  const revoke = useRevokeLandingLink(caseId, {
    onSuccess: () => {
      setMade(null);
      showToast(t('landing.link.revoked'), 'success');
    },
    onError: failed,
  });
  const askRevoke = async () => {
    if (await dialogs.confirm({ title: t('landing.link.confirmRevokeTitle'), message: t('landing.link.confirmRevokeMessage'), confirmText: t('landing.link.revoke') })) revoke.mutate();
  };
  const copy = async (url: string) => {
    try {
      await navigator.clipboard.writeText(url);
      showToast(t('landing.link.copied'), 'success');
    } catch {
      // The address stays selectable in its field.
    }
  };
  return (
    <InfoDialog title={t('landing.link.title')} onClose={onClose}>
      <Typography sx={{ mb: 2 }}>{t('landing.link.intro')}</Typography>
      <QueryState query={state} height={80}>
        {(s) => (
          <Box sx={{ display: 'grid', gap: 2 }}>
            {made ? (
              <>
                <Alert severity="success">{t('landing.link.created')}</Alert>
                <TextField value={made} label={t('landing.link.title')} slotProps={{ htmlInput: { readOnly: true } }} onFocus={(e) => e.target.select()} fullWidth />
                <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
                  <Button variant="contained" startIcon={<OpenInNewOutlined />} component="a" href={made} target="_blank" rel="noopener noreferrer">
                    {t('landing.link.open')}
                  </Button>
                  <Button startIcon={<ContentCopyOutlined />} onClick={() => void copy(made)}>
                    {t('landing.link.copy')}
                  </Button>
                </Box>
              </>
            ) : (
              <Typography>{s.active && s.createdAt ? t('landing.link.active', { date: formatDateTime(s.createdAt, session.user.timeZone) }) : t('landing.link.none')}</Typography>
            )}
            <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
              <Button variant={made ? 'outlined' : 'contained'} loading={create.isPending} onClick={() => create.mutate()}>
                {s.active ? t('landing.link.renew') : t('landing.link.create')}
              </Button>
              {s.active && (
                <Button color="error" loading={revoke.isPending} onClick={() => void askRevoke()}>
                  {t('landing.link.revoke')}
                </Button>
              )}
            </Box>
          </Box>
        )}
      </QueryState>
    </InfoDialog>
  );
}
