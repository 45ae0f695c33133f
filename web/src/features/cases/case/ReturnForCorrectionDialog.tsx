import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CORRECTION_REASON_MAX, returnForCorrectionBody } from '../../../../../core/api/cases.js';
import { correctableFields, fieldLabel } from '../../../../../core/cases/correction.js';
import type { FieldDef, FormDefinition } from '../../../../../core/forms/definition.js';
import { ErrorSummary, type SummaryItem } from '../../../components/feedback/ErrorSummary.js';
import { FormDialog } from '../../../components/page/index.js';
import type { ApiErrorDetail } from '../../../lib/api.js';
import { useChecklist } from '../../comments/index.js';
import type { CaseDetail, ReturnForCorrection } from '../api.js';

type Problem = 'reason' | 'fields' | 'documents';

/** The form's correctable fields grouped as the applicant meets them: by step, then the fields outside any step. */
function fieldGroups(form: FormDefinition | null, language: string): Array<{ title: string | null; fields: FieldDef[] }> {
  const groups: Array<{ title: string | null; fields: FieldDef[] }> = [];
  const loose: FieldDef[] = [];
  for (const field of form?.fields ?? []) {
    if (field.type === 'stepper') {
      for (const step of field.children ?? []) {
        const fields = correctableFields(step.children ?? []);
        if (fields.length) groups.push({ title: fieldLabel(step, language), fields });
      }
    } else loose.push(...correctableFields([field]));
  }
  return loose.length ? [{ title: null, fields: loose }, ...groups] : groups;
}

interface ReturnForCorrectionDialogProps {
  c: CaseDetail;
  number: string;
  pending: boolean;
  /** What the server refused in the request, by field (`reason`, `fields`, `documents`). */
  serverErrors: readonly ApiErrorDetail[];
  onSubmit: (body: ReturnForCorrection) => void;
  onClose: () => void;
}

/**
 * Staff send an open application back to its applicant: the reason (which
 * the applicant reads in the email and on the page), and the fields of its
 * form and the checklist documents to fix, at least one. Checked here with
 * the API's own schema, again on the server; problems show beside their
 * field and in a summary at the top that links to each.
 */
export function ReturnForCorrectionDialog({ c, number, pending, serverErrors, onSubmit, onClose }: ReturnForCorrectionDialogProps) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? 'en';
  const ids = { reason: useId(), fields: useId(), documents: useId() };
  const [reason, setReason] = useState('');
  const [fields, setFields] = useState<string[]>([]);
  const [documents, setDocuments] = useState<string[]>([]);
  const [local, setLocal] = useState<Partial<Record<Problem, string>>>({});
  const checklist = useChecklist(c.id);
  const groups = useMemo(() => fieldGroups(c.form, language), [c.form, language]);
  const order = groups.flatMap((g) => g.fields.map((f) => f.name));

  // The server's refusals (an unknown field, a document no longer in the checklist) beside the same fields as ours.
  const problems: Partial<Record<Problem, string>> = { ...local };
  for (const d of serverErrors) {
    const key = (['reason', 'fields', 'documents'] as const).find((p) => d.path === p || d.path.startsWith(`${p}.`));
    if (key && !problems[key]) problems[key] = d.message;
  }

  const toggle = (list: string[], value: string, on: boolean) => (on ? [...new Set([...list, value])] : list.filter((v) => v !== value));
  const focus = (id: string) => () => document.getElementById(id)?.focus();
  // In the summary each problem names its field, as the GOV.UK pattern asks.
  const legend = { reason: t('caseCorrection.dialog.reason'), fields: t('caseCorrection.dialog.fields'), documents: t('caseCorrection.dialog.documents') };
  const summary: SummaryItem[] = (['reason', 'fields', 'documents'] as const).flatMap((p) => {
    const message = problems[p];
    return message ? [{ key: p, message: `${legend[p]}: ${message}`, onSelect: focus(ids[p]) }] : [];
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const sorted = [...fields].sort((a, b) => order.indexOf(a) - order.indexOf(b));
    const parsed = returnForCorrectionBody.safeParse({ reason, fields: sorted, documents, version: c.version });
    if (!parsed.success) {
      const found: Partial<Record<Problem, string>> = {};
      for (const issue of parsed.error.issues) {
        const key = issue.path[0] as Problem;
        if (!found[key]) found[key] = t(issue.message, { max: CORRECTION_REASON_MAX });
      }
      return setLocal(found);
    }
    setLocal({});
    onSubmit(parsed.data);
  };

  const items = checklist.data?.items ?? [];
  return (
    <FormDialog
      title={t('caseCorrection.dialog.title', { number })}
      description={t('caseCorrection.dialog.description')}
      onClose={onClose}
      onSubmit={submit}
      pending={pending}
      submitLabel={t('caseCorrection.dialog.submit')}
      maxWidth="md"
    >
      <Box sx={{ mt: 2 }}>
        <ErrorSummary items={summary} focus />
      </Box>
      <TextField
        id={ids.reason}
        fullWidth
        multiline
        minRows={3}
        required
        margin="normal"
        label={t('caseCorrection.dialog.reason')}
        value={reason}
        onChange={(event) => setReason(event.target.value)}
        error={!!problems.reason}
        helperText={problems.reason ?? t('caseCorrection.dialog.reasonHelp')}
        slotProps={{ htmlInput: { maxLength: CORRECTION_REASON_MAX } }}
      />

      <FormControl component="fieldset" error={!!problems.fields} fullWidth margin="normal">
        <FormLabel component="legend" sx={{ mb: 0.5 }}>
          {t('caseCorrection.dialog.fields')}
        </FormLabel>
        <FormHelperText sx={{ mx: 0 }}>{problems.fields ?? t('caseCorrection.dialog.fieldsHelp')}</FormHelperText>
        {groups.length === 0 && (
          <Typography variant="body2" color="text.secondary">
            {t('caseCorrection.dialog.noFields')}
          </Typography>
        )}
        {groups.map((group, g) => (
          <Box key={group.title ?? '-'} role="group" aria-label={group.title ?? undefined} sx={{ mt: 1 }}>
            {group.title && (
              <Typography variant="subtitle2" component="p" color="text.secondary">
                {group.title}
              </Typography>
            )}
            <Box sx={{ display: 'grid', gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'repeat(2, minmax(0, 1fr))' }, columnGap: 2 }}>
              {group.fields.map((field, i) => (
                <FormControlLabel
                  key={field.name}
                  sx={{ mr: 0, alignItems: 'flex-start', '& .MuiFormControlLabel-label': { pt: 1.1, overflowWrap: 'anywhere' } }}
                  control={
                    <Checkbox
                      id={g === 0 && i === 0 ? ids.fields : undefined}
                      checked={fields.includes(field.name)}
                      onChange={(event) => setFields((list) => toggle(list, field.name, event.target.checked))}
                    />
                  }
                  label={fieldLabel(field, language)}
                />
              ))}
            </Box>
          </Box>
        ))}
      </FormControl>

      <FormControl component="fieldset" error={!!problems.documents} fullWidth margin="normal">
        <FormLabel component="legend" sx={{ mb: 0.5 }}>
          {t('caseCorrection.dialog.documents')}
        </FormLabel>
        <FormHelperText sx={{ mx: 0 }}>{problems.documents ?? t('caseCorrection.dialog.documentsHelp')}</FormHelperText>
        {checklist.isPending && <Typography variant="body2">{t('common.loading')}</Typography>}
        {checklist.isError && (
          <Typography variant="body2" color="error">
            {t('caseCorrection.dialog.checklistFailed')}
          </Typography>
        )}
        {checklist.isSuccess && items.length === 0 && (
          <Typography variant="body2" color="text.secondary">
            {t('caseCorrection.dialog.noDocuments')}
          </Typography>
        )}
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'repeat(2, minmax(0, 1fr))' }, columnGap: 2 }}>
          {items.map((item, i) => (
            <FormControlLabel
              key={item.code}
              sx={{ mr: 0, alignItems: 'flex-start', '& .MuiFormControlLabel-label': { pt: 1.1, overflowWrap: 'anywhere' } }}
              control={
                <Checkbox
                  id={i === 0 ? ids.documents : undefined}
                  checked={documents.includes(item.code)}
                  onChange={(event) => setDocuments((list) => toggle(list, item.code, event.target.checked))}
                />
              }
              label={item.name}
            />
          ))}
        </Box>
      </FormControl>
    </FormDialog>
  );
}
