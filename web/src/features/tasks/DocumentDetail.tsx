import AttachFileOutlined from '@mui/icons-material/AttachFileOutlined';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { createContext, useContext } from 'react';
import { useTranslation } from 'react-i18next';
import { type FieldDef, type FormDefinition, orderedFields } from '../../../../core/forms/definition.js';
import { compileCondition } from '../../../../core/forms/expr.js';
import { showToast } from '../../components/feedback/toastStore.js';
import { apiFetch, errorMessage } from '../../lib/api.js';
import { isFileRef, labelOf, optionText } from './fieldText.js';

/** Opens a stored file through a short-lived download link. */
async function openFile(id: string): Promise<void> {
  try {
    const { url } = await apiFetch<{ url: string }>(`/api/files/${encodeURIComponent(id)}/link`);
    window.location.assign(url);
  } catch (error) {
    showToast(errorMessage(error));
  }
}

/** The files of a file field as download links. */
export function FileLinks({ value }: { value: unknown }) {
  const { t } = useTranslation();
  const files = (Array.isArray(value) ? value : [value]).filter(isFileRef);
  if (files.length === 0) return <Typography variant="body2">{t('tasks.form.noFiles')}</Typography>;
  return (
    <Box component="ul" sx={{ m: 0, pl: 0, listStyle: 'none' }}>
      {files.map((file) => (
        <li key={file.id}>
          <Link
            component="button"
            type="button"
            variant="body2"
            onClick={() => void openFile(file.id)}
            sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, textAlign: 'left', overflowWrap: 'anywhere' }}
            aria-label={t('tasks.form.download', { name: file.name })}
          >
            <AttachFileOutlined fontSize="small" aria-hidden />
            {file.name}
          </Link>
        </li>
      ))}
    </Box>
  );
}

/** A stored value as text: option labels, yes/no, lists, repeat rows as a small table. */
/** Names of master items by field and code, as the API gives them with the data. */
export type OptionLabels = Record<string, Record<string, string>>;
const OptionLabelsContext = createContext<OptionLabels>({});

export function ValueText({ field, value }: { field: FieldDef; value: unknown }) {
  const { t, i18n } = useTranslation();
  const masterNames = useContext(OptionLabelsContext);
  const language = i18n.resolvedLanguage ?? 'en';
  if (value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)) {
    return (
      <Typography variant="body2" color="text.secondary" component="span">
        {t('tasks.form.empty')}
      </Typography>
    );
  }
  if (field.type === 'file') return <FileLinks value={value} />;
  if (field.type === 'repeat' && Array.isArray(value)) {
    const columns = orderedFields(field.children ?? []).filter((c) => c.headers !== false && c.type !== 'static');
    return (
      // Focusable, so a keyboard can scroll a table wider than the screen.
      <TableContainer sx={{ overflowX: 'auto', maxWidth: '100%' }} tabIndex={0} role="region" aria-label={labelOf(field, language)}>
        <Table size="small" aria-label={labelOf(field, language)} sx={{ '& th, & td': { whiteSpace: 'nowrap', overflowWrap: 'normal' } }}>
          <TableHead>
            <TableRow>
              {columns.map((c) => (
                <TableCell key={c.name}>{labelOf(c, language)}</TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {value.map((row, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: stored rows have no identity.
              <TableRow key={index}>
                {columns.map((c) => (
                  <TableCell key={c.name}>
                    <ValueText field={c} value={(row as Record<string, unknown>)?.[c.name]} />
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    );
  }
  const label = (v: unknown) => {
    const option = field.options?.find((o) => o.value === v || String(o.value) === String(v));
    const masterName = masterNames[field.name]?.[String(v)];
    if (masterName) return masterName;
    return option ? optionText(option, language) : typeof v === 'boolean' ? t(v ? 'tasks.yes' : 'tasks.no') : String(v);
  };
  const text = Array.isArray(value) ? value.map(label).join(', ') : typeof value === 'object' ? JSON.stringify(value) : label(value);
  return <span>{text}</span>;
}

/** Every field that shows a value (steppers and steps are only groups; static text is left out). */
function valueFields(fields: FieldDef[]): FieldDef[] {
  return orderedFields(fields).flatMap((f) => (f.type === 'stepper' || f.type === 'step' ? valueFields(f.children ?? []) : f.type === 'static' ? [] : [f]));
}

/** Whether a field shows for these values (a field hidden by its condition holds nothing to read). */
function shown(field: FieldDef, data: Record<string, unknown>): boolean {
  if (!field.visibleWhen) return true;
  try {
    return compileCondition(field.visibleWhen)({ values: data });
  } catch {
    return true;
  }
}

/** The application's main-form values, read-only. */
export function DocumentDetail({ form, data, optionLabels = {} }: { form: FormDefinition | null; data: Record<string, unknown>; optionLabels?: OptionLabels }) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? 'en';
  if (!form) return <Typography color="text.secondary">{t('tasks.form.noDocument')}</Typography>;
  const fields = valueFields(form.fields).filter((field) => shown(field, data));
  return (
    <OptionLabelsContext.Provider value={optionLabels}>
      <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'minmax(140px, 30%) 1fr' }, columnGap: 2, rowGap: { xs: 0.25, sm: 1 } }}>
        {fields.map((field) => (
          <Box key={field.name} sx={{ display: 'contents' }}>
            <Typography component="dt" variant="body2" color="text.secondary" sx={{ mt: { xs: 1, sm: 0 } }}>
              {labelOf(field, language)}
            </Typography>
            <Typography component="dd" variant="body2" sx={{ m: 0, minWidth: 0, overflowWrap: 'anywhere' }}>
              <ValueText field={field} value={data[field.name]} />
            </Typography>
          </Box>
        ))}
      </Box>
    </OptionLabelsContext.Provider>
  );
}
