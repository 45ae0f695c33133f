/**
 * The data tape's columns, as pure functions: which a protocol's form offers
 * (`availableColumns`: the case's own, then every field in form order, the
 * fields of repeat groups as groups of their own), how a chosen list is
 * flattened for a file once the data says how many rows each repeat group
 * holds (`flatten`: one numbered column per row, `members_1_name`), and the
 * cells of one application (`cellsOf`).
 */
import { CASE_COLUMNS, type CaseColumn, type TapeColumn } from '../../../core/api/datatape.js';
import { isPartyValue, partyText } from '../../../core/forms/data.js';
import type { FieldDef, FormDefinition } from '../../../core/forms/definition.js';
import { scopeFields } from '../../../core/forms/validator.js';
import { type Lang, translate } from '../../i18n.js';
import type { Cell } from '../../lib/tableFile.js';

export interface AvailableColumn extends TapeColumn {
  kind: 'case' | 'field';
  type: string | null;
  /** The repeat group (path) whose rows number this column, or null. */
  repeat: string | null;
}

/** Field types that hold no value of their own in a tape. */
const NO_VALUE = new Set(['static', 'stepper', 'step']);

const labelEs = (f: FieldDef) => f.label_report || f.label || f.name;
const labelEn = (f: FieldDef) => f.label_en || f.label || f.name;

/** The columns a protocol's main form offers: the case's own first, then its fields in form order. */
export function availableColumns(form: FormDefinition): AvailableColumn[] {
  const out: AvailableColumn[] = CASE_COLUMNS.map((c) => ({
    source: `case:${c}`,
    header: translate('es', `dataTapeFile.columns.${c}`),
    header_en: translate('en', `dataTapeFile.columns.${c}`),
    kind: 'case',
    type: null,
    repeat: null,
  }));
  const walk = (fields: FieldDef[], path: string[], group: { es: string; en: string } | null) => {
    for (const f of scopeFields(fields)) {
      if (NO_VALUE.has(f.type)) continue;
      const here = [...path, f.name];
      if (f.type === 'repeat') {
        const es = group ? `${group.es} – ${labelEs(f)}` : labelEs(f);
        const en = group ? `${group.en} – ${labelEn(f)}` : labelEn(f);
        walk(f.children ?? [], here, { es, en });
        continue;
      }
      out.push({
        source: `field:${here.join('.')}`,
        header: group ? `${group.es} – ${labelEs(f)}` : labelEs(f),
        header_en: group ? `${group.en} – ${labelEn(f)}` : labelEn(f),
        kind: 'field',
        type: f.type,
        repeat: path.length ? path.join('.') : null,
      });
    }
  };
  walk(form.fields, [], null);
  return out;
}

/** The default tape: every available column with its default headers. */
export const defaultColumns = (available: AvailableColumn[]): TapeColumn[] => available.map(({ source, header, header_en }) => ({ source, header, header_en }));

/** The repeat groups (paths, outermost first) a column list needs row counts for. */
export function repeatPaths(columns: TapeColumn[]): string[] {
  const paths = new Set<string>();
  for (const c of columns) {
    if (!c.source.startsWith('field:')) continue;
    const parts = c.source.slice(6).split('.');
    for (let i = 1; i < parts.length; i++) paths.add(parts.slice(0, i).join('.'));
  }
  return [...paths];
}

/** One column of the file: its header and where its value is. */
export interface FlatColumn {
  header: string;
  get: (row: ApplicationRow) => Cell;
}

/** An application as the job reads it. */
export interface ApplicationRow {
  id: number;
  serial: string | null;
  state: string;
  created_at: Date;
  doc_date: Date | null;
  updated_at: Date;
  closed_at: Date | null;
  applicant: string;
  owner_name: string | null;
  owner_email: string | null;
  data: Record<string, unknown>;
}

const CASE_VALUES: Record<CaseColumn, (r: ApplicationRow, lang: Lang | null) => Cell> = {
  number: (r) => r.serial,
  state: (r, lang) => (lang ? translate(lang, `states.${r.state}`) : r.state),
  createdAt: (r) => r.created_at,
  submittedAt: (r) => r.doc_date,
  updatedAt: (r) => r.updated_at,
  closedAt: (r) => r.closed_at,
  applicant: (r) => r.applicant,
  ownerName: (r) => r.owner_name,
  ownerEmail: (r) => r.owner_email,
};

const KEYS: Record<CaseColumn, string> = {
  number: 'case_number', state: 'case_state', createdAt: 'case_created_at', submittedAt: 'case_submitted_at', updatedAt: 'case_updated_at',
  closedAt: 'case_closed_at', applicant: 'case_applicant', ownerName: 'case_owner_name', ownerEmail: 'case_owner_email',
};

/** A form value as one cell: lists joined with "; ", files by their names, anything else as JSON text. */
export function cellOf(value: unknown): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (Array.isArray(value)) return value.map((v) => (v && typeof v === 'object' && 'name' in v ? String((v as { name: unknown }).name) : typeof v === 'object' ? JSON.stringify(v) : String(v))).join('; ');
  // A "party" field (issue 23): its name and email.
  if (isPartyValue(value)) return partyText(value);
  return JSON.stringify(value);
}

/** The value at a path of names and 0-based row indexes, or undefined. */
function valueAt(data: Record<string, unknown>, path: Array<string | number>): unknown {
  let node: unknown = data;
  for (const part of path) {
    if (node === null || typeof node !== 'object') return undefined;
    if (typeof part === 'number') {
      if (!Array.isArray(node)) return undefined;
      node = node[part];
    } else {
      if (Array.isArray(node) || !Object.hasOwn(node, part)) return undefined;
      node = (node as Record<string, unknown>)[part];
    }
  }
  return node;
}

/**
 * The file's columns: each case column once; each field column once, or,
 * inside repeat groups, once per row the data holds (`counts`, by group
 * path). Consecutive columns of one group are numbered together, row by
 * row: members_1_name, members_1_age, members_2_name, members_2_age.
 * `headers`: the language of the header row, or 'keys' for the flattened keys.
 */
export function flatten(columns: TapeColumn[], counts: Map<string, number>, headers: Lang | 'keys'): FlatColumn[] {
  const lang = headers === 'keys' ? null : headers;
  const headerOf = (c: TapeColumn) => (headers === 'en' ? c.header_en : c.header);
  const out: FlatColumn[] = [];
  let i = 0;
  while (i < columns.length) {
    const c = columns[i] as TapeColumn;
    if (c.source.startsWith('case:')) {
      const name = c.source.slice(5) as CaseColumn;
      const value = CASE_VALUES[name];
      out.push({ header: lang ? headerOf(c) : KEYS[name], get: (r) => value(r, lang) });
      i++;
      continue;
    }
    const parts = c.source.slice(6).split('.');
    if (parts.length === 1) {
      out.push({ header: lang ? headerOf(c) : (parts[0] as string), get: (r) => cellOf(r.data[parts[0] as string]) });
      i++;
      continue;
    }
    // The run of consecutive columns in the same group (same path but the last name).
    const group = parts.slice(0, -1).join('.');
    let end = i + 1;
    while (end < columns.length && (columns[end] as TapeColumn).source.startsWith(`field:${group}.`) && (columns[end] as TapeColumn).source.slice(6).split('.').length === parts.length) end++;
    const run = columns.slice(i, end);
    for (const index of rowIndexes(parts.slice(0, -1), counts)) {
      for (const col of run) {
        const leaf = col.source.slice(6).split('.').pop() as string;
        const names = parts.slice(0, -1);
        const path: Array<string | number> = names.flatMap((name, k) => [name, index[k] as number]);
        path.push(leaf);
        const key = names.map((name, k) => `${name}_${(index[k] as number) + 1}`).join('_');
        out.push({
          header: lang ? `${headerOf(col)} ${index.map((n) => n + 1).join('.')}` : `${key}_${leaf}`,
          get: (r) => cellOf(valueAt(r.data, path)),
        });
      }
    }
    i = end;
  }
  return out;
}

/** Every combination of 0-based row indexes of nested groups (outermost first), as many as the data holds. */
function rowIndexes(groups: string[], counts: Map<string, number>): number[][] {
  let combos: number[][] = [[]];
  for (let depth = 0; depth < groups.length; depth++) {
    const n = counts.get(groups.slice(0, depth + 1).join('.')) ?? 0;
    combos = combos.flatMap((prefix) => Array.from({ length: n }, (_, k) => [...prefix, k]));
  }
  return combos;
}

/** How many file columns a list becomes, without building them (to refuse a tape too wide early). */
export function flatWidth(columns: TapeColumn[], counts: Map<string, number>): number {
  let width = 0;
  for (const c of columns) {
    if (c.source.startsWith('case:')) {
      width++;
      continue;
    }
    const groups = c.source.slice(6).split('.').slice(0, -1);
    let n = 1;
    for (let depth = 0; depth < groups.length; depth++) n *= counts.get(groups.slice(0, depth + 1).join('.')) ?? 0;
    width += n;
  }
  return width;
}
