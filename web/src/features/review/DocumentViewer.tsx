import OpenInNewOutlined from '@mui/icons-material/OpenInNewOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { ShownDocument } from '../../../../core/realtime.js';
import { showToast } from '../../components/feedback/toastStore.js';
import { errorMessage } from '../../lib/api.js';
import { goTo } from '../../lib/browser.js';
import { fileLink, useFileLink } from './api.js';
import { type CaseFile, previewKind } from './documents.js';

/** Opens a file through a fresh short-lived link (the one the preview used may have expired). */
async function openFile(id: string): Promise<void> {
  try {
    goTo(await fileLink(id));
  } catch (error) {
    showToast(errorMessage(error));
  }
}

/**
 * The viewer pane: the document someone shows to the room, for every member
 * through their own short-lived file link. Images preview in the page. PDFs
 * in a frame: both through the link's `inline=1` variant, which the files
 * route honours only for PDFs and images whose content it checked at upload.
 * Other files open through the "Open" button (a download).
 */
export function DocumentViewer({
  shown,
  file,
  me,
  stopping,
  onStop,
}: {
  shown: ShownDocument | null;
  /** The shown file as the case lists it; null when the list does not (yet) hold it. */
  file: CaseFile | null;
  me: number;
  stopping: boolean;
  onStop: () => void;
}) {
  const { t } = useTranslation();
  const link = useFileLink(shown?.fileId ?? null);
  if (!shown) {
    return (
      <Box sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 2 }} data-testid="review-viewer">
        <Typography variant="body2" color="text.secondary" role="status">
          {t('review.viewer.nothing')}
        </Typography>
      </Box>
    );
  }
  const name = file?.name ?? t('review.viewer.document');
  const kind = previewKind(file?.name ?? '');
  const mine = shown.by.id === me;
  return (
    <Box component="section" aria-label={t('review.viewer.label')} sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 2, minWidth: 0 }} data-testid="review-viewer">
      <Stack direction="row" sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1, mb: 1 }}>
        <Box sx={{ flexGrow: 1, minWidth: 0 }}>
          <Typography variant="subtitle2" sx={{ overflowWrap: 'anywhere' }}>
            {name}
          </Typography>
          <Typography variant="body2" color="text.secondary" role="status">
            {mine ? t('review.viewer.shownByYou') : t('review.viewer.shownBy', { name: shown.by.name })}
          </Typography>
        </Box>
        <Button size="small" startIcon={<OpenInNewOutlined />} onClick={() => void openFile(shown.fileId)} aria-label={t('review.viewer.openNamed', { name })}>
          {t('review.viewer.open')}
        </Button>
        {mine && (
          <Button size="small" variant="outlined" onClick={onStop} disabled={stopping}>
            {t('review.viewer.stop')}
          </Button>
        )}
      </Stack>
      {link.isPending ? (
        <Box sx={{ display: 'grid', placeItems: 'center', minHeight: 120 }}>
          <CircularProgress size={28} aria-label={t('review.viewer.loading')} />
        </Box>
      ) : link.isError ? (
        <Alert severity="error">{errorMessage(link.error)}</Alert>
      ) : kind === 'pdf' ? (
        <Box
          component="iframe"
          title={name}
          src={`${link.data}&inline=1`}
          sx={{ display: 'block', width: '100%', height: '70vh', border: 0, bgcolor: 'action.hover' }}
        />
      ) : kind === 'image' ? (
        <Box
          component="img"
          src={`${link.data}&inline=1`}
          alt={name}
          sx={{ display: 'block', maxWidth: '100%', maxHeight: '70vh', mx: 'auto', objectFit: 'contain', bgcolor: 'action.hover' }}
        />
      ) : (
        <Typography variant="body2" color="text.secondary">
          {t('review.viewer.noPreview')}
        </Typography>
      )}
    </Box>
  );
}
