import { CASE_COLUMNS, type SearchOperator, type SearchRow } from '../../../../../core/cases/search.js';
import type { SearchField } from '../api.js';

/** How a column's value is typed in a row of the advanced search. */
export type ValueKind = 'text' | 'number' | 'date' | 'boolean' | 'choice' | 'state';

export interface ColumnChoice {
  /** `serial`, `state`... or `data.<field>` for a form field. */
  id: string;
  label: string;
  group: 'case' | 'form';
  ops: readonly SearchOperator[];
  kind: ValueKind;
  /** For `choice`: the form's options, labelled in the page's language. */
  options?: Array<{ value: string; label: string }>;
}

const TEXT_OPS: SearchOperator[] = ['eq', 'ne', 'contains', 'startsWith', 'in', 'empty'];
const NUMBER_OPS: SearchOperator[] = ['eq', 'ne', 'gt', 'lt', 'between', 'in', 'empty'];
const DATE_OPS: SearchOperator[] = ['eq', 'gt', 'lt', 'between', 'empty'];
const CHOICE_OPS: SearchOperator[] = ['eq', 'ne', 'in', 'empty'];

const CASE_KINDS: Record<keyof typeof CASE_COLUMNS, ValueKind> = {
  serial: 'text',
  state: 'state',
  docDate: 'date',
  createdAt: 'date',
  ownerName: 'text',
  possibleDuplicated: 'boolean',
};

/** The case columns of the search, labelled by `label(column)`. */
export function caseColumns(label: (column: keyof typeof CASE_COLUMNS) => string): ColumnChoice[] {
  return (Object.keys(CASE_COLUMNS) as Array<keyof typeof CASE_COLUMNS>).map((column) => ({
    id: column,
    label: label(column),
    group: 'case',
    ops: CASE_COLUMNS[column],
    kind: CASE_KINDS[column],
  }));
}

const english = (language: string) => language.startsWith('en');
const fieldLabel = (field: Pick<SearchField, 'name' | 'label' | 'label_en'>, language: string) =>
  (english(language) ? field.label_en || field.label : field.label || field.label_en) || field.name;

/** A form field as a column of the search: operators and value input follow its type. */
export function fieldColumn(field: SearchField, language: string): ColumnChoice {
  const base = { id: `data.${field.name}`, label: fieldLabel(field, language), group: 'form' as const };
  switch (field.type) {
    case 'number':
    case 'currency':
      return { ...base, ops: NUMBER_OPS, kind: 'number' };
    case 'date':
    case 'datetime':
      return { ...base, ops: DATE_OPS, kind: 'date' };
    case 'checkbox':
    case 'switch':
      return { ...base, ops: ['eq', 'empty'], kind: 'boolean' };
    case 'select_multiple':
    case 'select_multiple_external':
      // Several values in one: a value is found inside the list.
      return { ...base, ops: ['contains', 'empty'], kind: 'text' };
    case 'select':
    case 'radio':
      if (field.options?.length) {
        const options = field.options.map((o) => ({ value: String(o.value), label: (english(language) ? o.label_en || o.label : o.label || o.label_en) || String(o.value) }));
        return { ...base, ops: CHOICE_OPS, kind: 'choice', options };
      }
      return { ...base, ops: CHOICE_OPS, kind: 'text' };
    case 'master_select':
      // The master's items when the server sent them (short lists), else the code typed as text.
      if (field.options?.length) return { ...base, ops: CHOICE_OPS, kind: 'choice', options: field.options.map((o) => ({ value: String(o.value), label: o.label || String(o.value) })) };
      return { ...base, ops: CHOICE_OPS, kind: 'text' };
    default:
      return { ...base, ops: TEXT_OPS, kind: 'text' };
  }
}

/** The fields of the chosen protocol, or of every protocol (each name once) when none is chosen. */
export function formColumns(protocols: ReadonlyArray<{ id: number; fields: SearchField[] }>, protocolId: string, language: string): ColumnChoice[] {
  const chosen = protocolId ? protocols.filter((p) => String(p.id) === protocolId) : protocols;
  const seen = new Set<string>();
  const out: ColumnChoice[] = [];
  for (const protocol of chosen) {
    for (const field of protocol.fields) {
      if (seen.has(field.name)) continue;
      seen.add(field.name);
      out.push(fieldColumn(field, language));
    }
  }
  return out;
}

/** One row as the editor holds it: every value as typed. */
export interface RowDraft {
  key: number;
  column: string;
  op: SearchOperator | '';
  value: string;
  /** The upper bound of `between`. */
  value2: string;
  /** The choices of `in` on a column with options. */
  values: string[];
}

let nextKey = 1;
export const newRowKey = () => nextKey++;

export const emptyRow = (): RowDraft => ({ key: newRowKey(), column: '', op: '', value: '', value2: '', values: [] });

export function draftOf(row: SearchRow): RowDraft {
  const draft = { ...emptyRow(), column: row.column, op: row.op };
  const value = row.value;
  if (Array.isArray(value)) {
    if (row.op === 'between') return { ...draft, value: String(value[0] ?? ''), value2: String(value[1] ?? '') };
    return { ...draft, values: value.map(String), value: value.map(String).join(', ') };
  }
  return value === undefined ? draft : { ...draft, value: String(value) };
}

/** A draft as the row the server takes (checked afterwards with the shared schema). */
export function rowOf(draft: RowDraft, column: ColumnChoice | undefined): { column: string; op: string; value?: SearchRow['value'] } {
  const { op } = draft;
  if (op === 'empty') return { column: draft.column, op };
  if (op === 'between') return { column: draft.column, op, value: [draft.value.trim(), draft.value2.trim()].filter((v) => v !== '') };
  if (op === 'in') {
    const list = column?.kind === 'choice' || column?.kind === 'state' ? draft.values : draft.value.split(',').map((v) => v.trim()).filter(Boolean);
    return { column: draft.column, op, value: list };
  }
  return { column: draft.column, op, value: draft.value.trim() };
}
