import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../../../core/dates.js';
import { useCan, useSession } from '../../../app/session/session.js';
import { showToast } from '../../../components/feedback/toastStore.js';
import { Section } from '../../../components/page/index.js';
import { errorMessage } from '../../../lib/api.js';
import { downloadProtocolBpmn, type ProtocolDetail } from '../api.js';

/** The published versions of a protocol, the current one marked, with who published each and when; each can be downloaded as BPMN. */
export function VersionsSection({ protocol }: { protocol: ProtocolDetail }) {
  const { t } = useTranslation();
  const tz = useSession().user.timeZone;
  const canExport = useCan()('wf_protocolos', 'export');
  return (
    <Section title={t('protocols.editor.versions')} id="protocol-versions">
      {protocol.versions.length === 0 ? (
        <Typography color="text.secondary">{t('protocols.editor.noVersions')}</Typography>
      ) : (
        <Box component="ul" sx={{ m: 0, pl: 0, listStyle: 'none', display: 'grid', gap: 0.5 }}>
          {protocol.versions.map((version) => (
            <Typography component="li" key={version.version} variant="body2">
              <strong>{t('protocols.editor.version', { version: version.version })}</strong>
              {version.version === protocol.publishedVersion ? ` (${t('protocols.editor.current')})` : ''} ·{' '}
              {version.publishedBy
                ? t('protocols.editor.publishedBy', { when: formatDateTime(version.publishedAt, tz), who: version.publishedBy })
                : formatDateTime(version.publishedAt, tz)}
              {canExport && (
                <Tooltip title={t('protocols.bpmn.exportVersion', { version: version.version })}>
                  <IconButton
                    size="small"
                    sx={{ ml: 0.5 }}
                    aria-label={t('protocols.bpmn.exportVersion', { version: version.version })}
                    onClick={() => void downloadProtocolBpmn(protocol, version.version).catch((error: unknown) => showToast(errorMessage(error)))}
                  >
                    <DownloadOutlined fontSize="small" />
                  </IconButton>
                </Tooltip>
              )}
            </Typography>
          ))}
        </Box>
      )}
    </Section>
  );
}
