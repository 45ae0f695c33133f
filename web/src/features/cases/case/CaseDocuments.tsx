import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { type FieldDef, type FormDefinition, orderedFields } from '../../../../../core/forms/definition.js';
import { Section } from '../../../components/page/index.js';
import { FileLinks } from '../../tasks/DocumentDetail.js';
import { labelOf } from '../../tasks/fieldText.js';
import type { CaseDetail } from '../api.js';

function rootFileFields(fields: FieldDef[]): FieldDef[] {
  return orderedFields(fields).flatMap((f) => (f.type === 'stepper' || f.type === 'step' ? rootFileFields(f.children ?? []) : f.type === 'file' ? [f] : []));
}

/** The files of the application, field by field (each opens through a short-lived link of the files module). */
export function CaseDocuments({ form, data }: { form: FormDefinition | null; data: CaseDetail['data'] }) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? 'en';
  // Files inside a repeat group's rows show with their rows in the form data.
  const topLevel = rootFileFields(form?.fields ?? []);
  if (topLevel.length === 0) return null;
  return (
    <Section title={t('caseView.documents')}>
      <Box component="dl" sx={{ m: 0, display: 'grid', gap: 1 }}>
        {topLevel.map((field) => (
          <Box key={field.name}>
            <Typography component="dt" variant="body2" color="text.secondary">
              {labelOf(field, language)}
            </Typography>
            <Box component="dd" sx={{ m: 0, minWidth: 0 }}>
              <FileLinks value={data[field.name]} />
            </Box>
          </Box>
        ))}
      </Box>
    </Section>
  );
}
