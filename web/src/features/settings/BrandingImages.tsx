import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import UploadOutlined from '@mui/icons-material/UploadOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormHelperText from '@mui/material/FormHelperText';
import Typography from '@mui/material/Typography';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { BrandingKind } from '../../../../core/api/applicationSettings.js';
import { useDialogs } from '../../components/feedback/FeedbackProvider.js';
import { showToast } from '../../components/feedback/toastStore.js';
import { errorMessage } from '../../lib/api.js';
import { type ApplicationSettings, useRemoveBranding, useUploadBranding } from './api.js';

/** What the file picker offers; the server decides by content anyway. */
const ACCEPT: Record<BrandingKind, string> = {
  logo: 'image/png,image/jpeg,image/webp,image/gif',
  favicon: 'image/png,image/jpeg,image/webp,image/gif,image/x-icon,image/vnd.microsoft.icon,.ico',
};

/** The logo and the favicon: each shown as it is, uploaded (checked by the server by content and size) or removed after a confirmation. */
export function BrandingImages({ settings, project, mayChange }: { settings: ApplicationSettings; project?: string; mayChange: boolean }) {
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 2 }}>
      <ImageField kind="logo" url={settings.logo} project={project} mayChange={mayChange} />
      <ImageField kind="favicon" url={settings.favicon} project={project} mayChange={mayChange} />
    </Box>
  );
}

function ImageField({ kind, url, project, mayChange }: { kind: BrandingKind; url: string | null; project?: string; mayChange: boolean }) {
  const { t } = useTranslation();
  const dialogs = useDialogs();
  const input = useRef<HTMLInputElement>(null);
  const failed = (error: Error) => showToast(errorMessage(error), 'error');
  const upload = useUploadBranding(project, { onSuccess: () => showToast(t('appSettings.images.uploaded'), 'success'), onError: failed });
  const remove = useRemoveBranding(project, { onSuccess: () => showToast(t('appSettings.images.removed'), 'success'), onError: failed });
  const name = t(`appSettings.images.${kind}`);
  const cap = kind === 'logo' ? 'Logo' : 'Favicon';
  const inputId = `branding-${kind}`;

  const askRemove = async () => {
    const ok = await dialogs.confirm({
      title: t('appSettings.images.confirmRemoveTitle', { what: name.toLowerCase() }),
      message: t('appSettings.images.confirmRemoveMessage'),
      confirmText: t('appSettings.images.remove'),
    });
    if (ok) remove.mutate(kind);
  };

  return (
    <Box sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 2, display: 'grid', gap: 1, minWidth: 0 }}>
      <Typography variant="subtitle2" component="h3">
        {name}
      </Typography>
      <Box sx={{ height: 72, display: 'flex', alignItems: 'center', bgcolor: 'grey.100', borderRadius: 1, px: 1 }}>
        {url ? (
          <Box component="img" src={url} alt={name} sx={{ maxHeight: kind === 'logo' ? 64 : 32, maxWidth: '100%', objectFit: 'contain' }} />
        ) : (
          <Typography color="text.secondary">{t(`appSettings.images.no${cap}`)}</Typography>
        )}
      </Box>
      <FormHelperText id={`${inputId}-help`} sx={{ m: 0 }}>
        {t(`appSettings.images.${kind}Help`)}
      </FormHelperText>
      {mayChange && (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
          <input
            ref={input}
            id={inputId}
            type="file"
            accept={ACCEPT[kind]}
            hidden
            aria-describedby={`${inputId}-help`}
            data-testid={`${kind}-input`}
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = '';
              if (file) upload.mutate({ kind, file });
            }}
          />
          <Button variant="outlined" startIcon={<UploadOutlined />} loading={upload.isPending} onClick={() => input.current?.click()}>
            {t(`appSettings.images.upload${cap}`)}
          </Button>
          {url && (
            <Button color="error" startIcon={<DeleteOutlined />} loading={remove.isPending} onClick={() => void askRemove()}>
              {t(`appSettings.images.remove${cap}`)}
            </Button>
          )}
        </Box>
      )}
    </Box>
  );
}
