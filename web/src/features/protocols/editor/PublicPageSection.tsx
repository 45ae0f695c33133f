import OpenInNewOutlined from '@mui/icons-material/OpenInNewOutlined';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { PUBLIC_TEXT_MAX, PUBLIC_TITLE_MAX, type PublicPage } from '../../../../../core/api/protocols.js';
import { Section } from '../../../components/page/index.js';
import type { SortedProblems } from './problems.js';

interface PublicPageSectionProps {
  value: PublicPage;
  onChange: (value: PublicPage) => void;
  /** The server's problems with each text, shown under its field. */
  problems: SortedProblems['settings'];
  /** The page's address, when the protocol is public and published (it answers 404 otherwise). */
  publicUrl?: string | null;
}

/** Each text of the page, English beside Spanish on wide screens. */
const ROWS: ReadonlyArray<{ en: keyof PublicPage; es: keyof PublicPage; max: number; multiline: boolean }> = [
  { en: 'titleEn', es: 'titleEs', max: PUBLIC_TITLE_MAX, multiline: false },
  { en: 'descriptionEn', es: 'descriptionEs', max: PUBLIC_TEXT_MAX, multiline: true },
  { en: 'eligibilityEn', es: 'eligibilityEs', max: PUBLIC_TEXT_MAX, multiline: true },
];

const LABELS: Record<keyof PublicPage, string> = {
  titleEn: 'protocols.editor.publicTitleEn',
  titleEs: 'protocols.editor.publicTitleEs',
  descriptionEn: 'protocols.editor.publicDescriptionEn',
  descriptionEs: 'protocols.editor.publicDescriptionEs',
  eligibilityEn: 'protocols.editor.eligibilityEn',
  eligibilityEs: 'protocols.editor.eligibilityEs',
};

/**
 * A protocol's public page (`/publico/{entity}/{code}`): its title, what the
 * programme is and who may apply, in English and Spanish. Saved with the
 * protocol; it shows once the protocol is public and published.
 */
export function PublicPageSection({ value, onChange, problems, publicUrl }: PublicPageSectionProps) {
  const { t } = useTranslation();
  return (
    <Section
      title={t('protocols.editor.publicPage')}
      id="protocol-public-page"
      action={
        publicUrl ? (
          <Link href={publicUrl} target="_blank" rel="noopener" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
            {t('protocols.editor.publicPageOpen')}
            <OpenInNewOutlined fontSize="small" aria-hidden />
          </Link>
        ) : undefined
      }
    >
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {t('protocols.editor.publicPageHint')}
      </Typography>
      {ROWS.map((row) => (
        <Box key={row.en} sx={{ display: 'grid', gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))' }, columnGap: 2 }}>
          {([['en', row.en], ['es', row.es]] as const).map(([language, key]) => {
            const problem = problems[`publicPage.${key}`];
            return (
              <TextField
                key={key}
                margin="dense"
                label={t(LABELS[key])}
                multiline={row.multiline}
                minRows={row.multiline ? 3 : undefined}
                value={value[key]}
                onChange={(event) => onChange({ ...value, [key]: event.target.value })}
                error={!!problem}
                helperText={problem ?? t('protocols.editor.characterCount', { used: value[key].length, max: row.max })}
                slotProps={{ htmlInput: { maxLength: row.max, lang: language } }}
              />
            );
          })}
        </Box>
      ))}
    </Section>
  );
}
