import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import { useTranslation } from 'react-i18next';
import { countProblems, type SortedProblems } from './problems.js';

interface EditorAlertsProps {
  /** The draft differs from the published version, or nothing is published yet. */
  unpublished: boolean;
  publishedVersion: number | null;
  problems: SortedProblems;
}

/** Above the editor: that the draft is not published yet, and how many problems the last save found. */
export function EditorAlerts({ unpublished, publishedVersion, problems }: EditorAlertsProps) {
  const { t } = useTranslation();
  const total = countProblems(problems);
  return (
    <>
      {unpublished && (
        <Alert severity="warning" sx={{ mb: 2 }} role="status">
          {publishedVersion ? t('protocols.editor.unpublished', { version: publishedVersion }) : t('protocols.editor.neverPublished')}
        </Alert>
      )}
      {total > 0 && (
        <Alert severity="error" sx={{ mb: 2 }}>
          <AlertTitle>{t('protocols.editor.hasProblems', { count: total })}</AlertTitle>
          {problems.general.length > 0 && (
            <Box component="ul" sx={{ m: 0, pl: 2 }}>
              {problems.general.map((message, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: messages may repeat.
                <li key={i}>{message}</li>
              ))}
            </Box>
          )}
          {problems.general.length === 0 && t('protocols.editor.problemsWhere')}
        </Alert>
      )}
    </>
  );
}
