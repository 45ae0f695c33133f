import EditNoteOutlined from '@mui/icons-material/EditNoteOutlined';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { correctableFields, fieldLabel } from '../../../../../core/cases/correction.js';
import { formatDateTime } from '../../../../../core/dates.js';
import type { FormDefinition } from '../../../../../core/forms/definition.js';
import { useSession } from '../../../app/session/session.js';
import { FactsList } from '../../../components/page/index.js';
import { type Correction, correctionUrl } from '../api.js';

/** The asked fields' labels in the reader's language, in the form's order. */
export function askedFieldLabels(form: FormDefinition | null, names: readonly string[], language: string): string[] {
  const byName = new Map(correctableFields(form?.fields ?? []).map((f) => [f.name, f]));
  return names.map((name) => {
    const field = byName.get(name);
    return field ? fieldLabel(field, language) : name;
  });
}

interface CorrectionNoticeProps {
  caseId: number;
  correction: Correction;
  form: FormDefinition | null;
  /** The applicant may correct it now: a button to the correction page. */
  mayResubmit: boolean;
  /** Staff may withdraw the request: its button shows only then. */
  onCancel?: () => void;
  cancelling?: boolean;
}

/**
 * An application returned for correction, as its page shows it to staff and
 * to the applicant: the reason, what was asked, when and by whom. The
 * applicant gets the way to the correction page; staff read that the
 * applicant has it and that its tasks are where they were, and may withdraw
 * the request.
 */
export function CorrectionNotice({ caseId, correction, form, mayResubmit, onCancel, cancelling }: CorrectionNoticeProps) {
  const { t, i18n } = useTranslation();
  const tz = useSession().user.timeZone;
  const language = i18n.resolvedLanguage ?? 'en';
  const fields = askedFieldLabels(form, correction.fields, language);
  const documents = correction.documents.map((d) => d.name);
  return (
    <Alert
      severity="warning"
      icon={<EditNoteOutlined />}
      sx={{ mb: 2, '& .MuiAlert-message': { minWidth: 0, flexGrow: 1 } }}
      aria-labelledby={`correction-${correction.id}`}
      role="region"
    >
      <AlertTitle id={`correction-${correction.id}`} component="h2" sx={{ fontSize: '1rem' }}>
        {t('caseCorrection.notice.title')}
      </AlertTitle>
      <Typography variant="body2" sx={{ mb: 1 }}>
        {t(mayResubmit ? 'caseCorrection.notice.forApplicant' : 'caseCorrection.notice.forStaff')}
      </Typography>
      <FactsList
        items={[
          [t('caseCorrection.notice.reason'), <Box component="span" key="r" sx={{ whiteSpace: 'pre-line' }}>{correction.reason}</Box>],
          ...(fields.length ? [[t('caseCorrection.notice.fields'), fields.join(', ')] as [string, string]] : []),
          ...(documents.length ? [[t('caseCorrection.notice.documents'), documents.join(', ')] as [string, string]] : []),
          [
            t('caseCorrection.notice.asked'),
            correction.requestedBy
              ? t('caseCorrection.notice.askedBy', { name: correction.requestedBy, at: formatDateTime(correction.requestedAt, tz) })
              : formatDateTime(correction.requestedAt, tz),
          ],
        ]}
      />
      {(mayResubmit || onCancel) && (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 1.5 }}>
          {mayResubmit && (
            <Button variant="contained" component={RouterLink} to={correctionUrl(caseId)}>
              {t('caseCorrection.notice.correct')}
            </Button>
          )}
          {onCancel && (
            <Button variant="outlined" color="inherit" onClick={onCancel} loading={cancelling}>
              {t('caseCorrection.notice.cancel')}
            </Button>
          )}
        </Box>
      )}
    </Alert>
  );
}
