import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../../../core/dates.js';
import { useSession } from '../../../app/session/session.js';
import { Section } from '../../../components/page/index.js';
import type { ProtocolDetail } from '../api.js';

/** The published versions of a protocol, the current one marked, with who published each and when. */
export function VersionsSection({ protocol }: { protocol: ProtocolDetail }) {
  const { t } = useTranslation();
  const tz = useSession().user.timeZone;
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
            </Typography>
          ))}
        </Box>
      )}
    </Section>
  );
}
