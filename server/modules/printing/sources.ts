/**
 * What a template prints from a case: the sources a mapping may name (the
 * case's own fields and the value fields of the protocol's published form)
 * and their values for one case, as text in the reader's language (master
 * items and choices by name, yes/no, dates in the tenant's time zone). Pure:
 * the repository gathers the case, these shape it.
 */
import { CASE_SOURCES } from '../../../core/api/printing.js';
import { formatDate } from '../../../core/dates.js';
import { CHOICE_TYPES, type FieldDef, MULTI_CHOICE_TYPES } from '../../../core/forms/definition.js';
import { scopeFields } from '../../../core/forms/validator.js';
import { translate, type Lang } from '../../i18n.js';

/** The fields of a form that hold a value a template can print (no file, group, static text). */
export function printableFields(fields: FieldDef[]): FieldDef[] {
  return scopeFields(fields).filter((f) => !['static', 'repeat', 'file', 'stepper', 'step'].includes(f.type));
}

export function sourceList(formFields: FieldDef[]) {
  return [
    ...CASE_SOURCES.map((source) => ({
      source,
      label: translate('es', `printing.sources.${source.slice(5)}`),
      labelEn: translate('en', `printing.sources.${source.slice(5)}`),
      group: 'case' as const,
    })),
    ...printableFields(formFields).map((f) => ({ source: `form.${f.name}`, label: f.label || f.name, labelEn: f.label_en || f.label || f.name, group: 'form' as const })),
  ];
}

/** The sources of `mapping` that are neither a case field nor a field of the form. */
export function unknownSources(mapping: Record<string, string>, formFields: FieldDef[]): string[] {
  const known = new Set(sourceList(formFields).map((s) => s.source));
  return [...new Set(Object.values(mapping).filter((s) => !known.has(s)))];
}

export interface PrintCase {
  id: number;
  serial: string | null;
  state: string;
  docDate: Date | null;
  data: Record<string, unknown>;
  /** The case's own form (the fields it was filled with). */
  fields: FieldDef[];
  programName: string;
  timeZone: string;
  /** Master items' names by field and code (forms/options masterLabels). */
  masterNames: Record<string, Record<string, string>>;
}

export const fieldLabel = (f: FieldDef, lang: Lang) => (lang === 'en' ? f.label_en || f.label : f.label || f.label_en) || f.name;

/** One field's value as text in `lang`. */
export function fieldText(f: FieldDef, value: unknown, c: Pick<PrintCase, 'masterNames' | 'timeZone'>, lang: Lang): string {
  if (value === undefined || value === null || value === '') return '';
  const choice = (v: unknown) => {
    if (f.type === 'master_select') return c.masterNames[f.name]?.[String(v)] ?? String(v);
    const o = f.options?.find((x) => String(x.value) === String(v));
    return o ? (lang === 'en' ? o.label_en || o.label : o.label) : String(v);
  };
  if (f.type === 'checkbox' || f.type === 'switch') return translate(lang, value === true || value === 'true' ? 'printing.yes' : 'printing.no');
  if (CHOICE_TYPES.has(f.type)) return choice(value);
  if (MULTI_CHOICE_TYPES.has(f.type)) return (Array.isArray(value) ? value : [value]).map(choice).join(', ');
  if (f.type === 'date' && typeof value === 'string') return value;
  if (f.type === 'datetime' && typeof value === 'string') {
    const d = new Date(value);
    return Number.isNaN(d.getTime()) ? value : formatDate(d, c.timeZone);
  }
  if (Array.isArray(value)) return value.map((v) => (v && typeof v === 'object' ? JSON.stringify(v) : String(v))).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

const applicantName = (d: Record<string, unknown>) => `${typeof d.firstName === 'string' ? d.firstName : ''} ${typeof d.lastName === 'string' ? d.lastName : ''}`.trim();

/** The value of one source for the case, as text. */
export function sourceValue(source: string, c: PrintCase, lang: Lang, now = new Date()): string {
  switch (source) {
    case 'case.number': return c.serial ?? `#${c.id}`;
    case 'case.applicantName': return applicantName(c.data);
    case 'case.applicantDocument': return String(c.data.documentNumber ?? c.data.docnumber ?? '');
    case 'case.submittedDate': return c.docDate ? formatDate(c.docDate, c.timeZone) : '';
    case 'case.state': return translate(lang, `states.${c.state}`);
    case 'case.programName': return c.programName;
    case 'case.today': return formatDate(now, c.timeZone);
    default: break;
  }
  if (!source.startsWith('form.')) return '';
  const name = source.slice(5);
  const field = scopeFields(c.fields).find((f) => f.name === name);
  const value = Object.hasOwn(c.data, name) ? c.data[name] : undefined;
  return field ? fieldText(field, value, c, lang) : value === undefined || value === null ? '' : String(value);
}

/** pdfField -> text for a mapping. */
export function mappedValues(mapping: Record<string, string>, c: PrintCase, lang: Lang): Record<string, string> {
  const now = new Date();
  const out: Record<string, string> = Object.create(null);
  for (const [pdfField, source] of Object.entries(mapping)) out[pdfField] = sourceValue(source, c, lang, now);
  return out;
}
