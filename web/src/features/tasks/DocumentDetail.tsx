import AttachFileOutlined from '@mui/icons-material/AttachFileOutlined';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import { useTheme } from '@mui/material/styles';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { createContext, useContext } from 'react';
import { useTranslation } from 'react-i18next';
import { type FieldDef, type FormDefinition, orderedFields } from '../../../../core/forms/definition.js';
import { compileCondition } from '../../../../core/forms/expr.js';
import { showToast } from '../../components/feedback/toastStore.js';
import { errorMessage } from '../../lib/api.js';
import { fileLink } from './api.js';
import { isFileRef, labelOf, optionText } from './fieldText.js';
import { isPartyValue } from '../../../../core/forms/data.js';
import { partyValueText } from '../parties/labels.js';

/** Opens a stored file through a short-lived download link. */
async function openFile(id: string): Promise<void> {
  try {
    window.location.assign(await fileLink(id));
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

/** Names of master items by field and code, as the API gives them with the data. */
export type OptionLabels = Record<string, Record<string, string>>;
export const OptionLabelsContext = createContext<OptionLabels>({});

/** A stored value as text: option labels, yes/no, lists, repeat rows as a small table (stacked on phones). */
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
  if (field.type === 'party' && isPartyValue(value)) return <span>{partyValueText(t, value)}</span>;
  if (field.type === 'repeat' && Array.isArray(value)) return <RepeatRows field={field} rows={value} />;
  const label = (v: unknown) => {
    const option = field.options?.find((o) => o.value === v || String(o.value) === String(v));
    const masterName = masterNames[field.name]?.[String(v)];
    if (masterName) return masterName;
    return option ? optionText(option, language) : typeof v === 'boolean' ? t(v ? 'tasks.yes' : 'tasks.no') : String(v);
  };
  const text = Array.isArray(value) ? value.map(label).join(', ') : typeof value === 'object' ? JSON.stringify(value) : label(value);
  return <span>{text}</span>;
}

/**
 * The rows of a repeat group: a table that scrolls in its own box from sm
 * up; on phones one block per row, each value under its column's name, so
 * nothing is cut at the screen's edge.
 */
function RepeatRows({ field, rows }: { field: FieldDef; rows: unknown[] }) {
  const { t, i18n } = useTranslation();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const language = i18n.resolvedLanguage ?? 'en';
  const group = labelOf(field, language);
  const columns = orderedFields(field.children ?? []).filter((c) => c.headers !== false && c.type !== 'static');
  const cell = (row: unknown, column: FieldDef) => <ValueText field={column} value={(row as Record<string, unknown> | null)?.[column.name]} />;
  if (phone) {
    return (
      <Box component="ol" aria-label={group} sx={{ listStyle: 'none', p: 0, m: 0, mt: 0.5, display: 'grid', gap: 1 }}>
        {rows.map((row, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: stored rows have no identity.
          <Box component="li" key={index} sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1 }}>
            <Typography variant="caption" color="text.secondary" component="p" sx={{ mb: 0.5 }}>
              {t('tasks.form.row', { row: index + 1 })}
            </Typography>
            <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'fit-content(40%) minmax(0, 1fr)', columnGap: 1.5, rowGap: 0.25 }}>
              {columns.map((column) => (
                <Box key={column.name} sx={{ display: 'contents' }}>
                  <Typography component="dt" variant="body2" color="text.secondary">
                    {labelOf(column, language)}
                  </Typography>
                  <Typography component="dd" variant="body2" sx={{ m: 0, minWidth: 0, overflowWrap: 'anywhere' }}>
                    {cell(row, column)}
                  </Typography>
                </Box>
              ))}
            </Box>
          </Box>
        ))}
      </Box>
    );
  }
  return (
    // Focusable, so a keyboard can scroll a table wider than its box.
    <TableContainer sx={{ overflowX: 'auto', maxWidth: '100%' }} tabIndex={0} role="region" aria-label={group}>
      <Table size="small" aria-label={group} sx={{ '& th, & td': { whiteSpace: 'nowrap', overflowWrap: 'normal' } }}>
        <TableHead>
          <TableRow>
            {columns.map((c) => (
              <TableCell key={c.name}>{labelOf(c, language)}</TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: stored rows have no identity.
            <TableRow key={index}>
              {columns.map((c) => (
                <TableCell key={c.name}>{cell(row, c)}</TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
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
      <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'minmax(140px, 30%) minmax(0, 1fr)' }, columnGap: 2, rowGap: { xs: 0.25, sm: 1 } }}>
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
