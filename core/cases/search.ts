/**
 * The advanced search of the case list (spec: rows of column, operator and
 * value) over case columns and any field of the case's form. The browser
 * builds the rows and puts them in the URL; the server checks them with the
 * same schema and turns them into SQL, so an unknown column or operator is a
 * 400, never a query.
 */
import { z } from 'zod';
import { CASE_STATES } from '../workflow/states.js';

export const SEARCH_OPERATORS = ['eq', 'ne', 'contains', 'startsWith', 'gt', 'lt', 'between', 'in', 'empty'] as const;
export type SearchOperator = (typeof SEARCH_OPERATORS)[number];

/** Case columns and the operators that make sense for each. */
export const CASE_COLUMNS = {
  serial: ['eq', 'ne', 'contains', 'startsWith', 'in', 'empty'],
  state: ['eq', 'ne', 'in'],
  docDate: ['eq', 'gt', 'lt', 'between', 'empty'],
  createdAt: ['gt', 'lt', 'between'],
  ownerName: ['eq', 'ne', 'contains', 'startsWith'],
  possibleDuplicated: ['eq'],
} as const satisfies Record<string, readonly SearchOperator[]>;
export type CaseColumn = keyof typeof CASE_COLUMNS;

/** What a value of each case column is: the SQL compares it as such, so it is parsed as such first. */
export const CASE_COLUMN_KINDS = {
  serial: 'text',
  state: 'state',
  docDate: 'date',
  createdAt: 'date',
  ownerName: 'text',
  possibleDuplicated: 'boolean',
} as const satisfies Record<CaseColumn, 'text' | 'state' | 'date' | 'boolean'>;

/** `yyyy-mm-dd` naming a day of the calendar (not 2026-02-30, not year 0, which PostgreSQL refuses). */
export function isDateText(value: unknown): value is string {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const [y, m, d] = value.split('-').map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return y >= 1 && date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

const kindProblem: Record<(typeof CASE_COLUMN_KINDS)[CaseColumn], (v: unknown) => string | undefined> = {
  text: (v) => (typeof v === 'boolean' ? 'cases.search.badValue' : undefined),
  state: (v) => ((CASE_STATES as readonly unknown[]).includes(v) ? undefined : 'validation.chooseOption'),
  date: (v) => (isDateText(v) ? undefined : 'cases.search.notADate'),
  boolean: (v) => (v === true || v === false || v === 'true' || v === 'false' ? undefined : 'cases.search.notYesNo'),
};

const FIELD = /^data\.[A-Za-z_][A-Za-z0-9_]{0,62}$/;
// PostgreSQL text cannot hold NUL: the rows come decoded from JSON, after the request's own check.
const text = z.string().max(200).refine((v) => !v.includes('\u0000'), { message: 'validation.nul' });
const scalar = z.union([text, z.number().finite(), z.boolean()]);

export const searchRowSchema = z
  .object({
    column: z.string().max(70),
    op: z.enum(SEARCH_OPERATORS, { error: 'cases.search.badOperator' }),
    value: z.union([scalar, z.array(scalar).max(50)]).optional(),
  })
  .superRefine((row, ctx) => {
    const isField = FIELD.test(row.column);
    if (!isField && !Object.hasOwn(CASE_COLUMNS, row.column)) {
      ctx.addIssue({ code: 'custom', path: ['column'], message: 'cases.search.badColumn' });
      return;
    }
    if (!isField && !(CASE_COLUMNS[row.column as CaseColumn] as readonly string[]).includes(row.op)) {
      ctx.addIssue({ code: 'custom', path: ['op'], message: 'cases.search.badOperator' });
      return;
    }
    const needsList = row.op === 'in' || row.op === 'between';
    if (row.op === 'empty') return;
    if (row.value === undefined || (typeof row.value === 'string' && row.value.trim() === '')) ctx.addIssue({ code: 'custom', path: ['value'], message: 'validation.required' });
    else if (needsList !== Array.isArray(row.value)) ctx.addIssue({ code: 'custom', path: ['value'], message: 'cases.search.badValue' });
    else if (row.op === 'between' && (row.value as unknown[]).length !== 2) ctx.addIssue({ code: 'custom', path: ['value'], message: 'cases.search.badValue' });
    else if (!isField) {
      // Each value parsed for its column's type, so that no query is sent that PostgreSQL would refuse.
      const check = kindProblem[CASE_COLUMN_KINDS[row.column as CaseColumn]];
      const values = Array.isArray(row.value) ? row.value : [row.value];
      const problem = values.map(check).find(Boolean);
      if (problem) ctx.addIssue({ code: 'custom', path: ['value'], message: problem });
    }
  });
export type SearchRow = z.infer<typeof searchRowSchema>;

export const searchRowsSchema = z.array(searchRowSchema).max(20);

/**
 * The `filters` parameter as the list, the export and a saved search take it:
 * the JSON text stays as it is, and its rows are checked with the schema
 * above. A problem with a value is reported at `<row>.<column>`
 * (`filters.0.docDate`), naming the field.
 */
export const searchFiltersParam = z
  .string()
  .max(20_000)
  .superRefine((text, ctx) => {
    const decoded = decodeSearch(text);
    if (!Array.isArray(decoded)) {
      ctx.addIssue({ code: 'custom', message: 'cases.search.unreadable' });
      return;
    }
    const parsed = searchRowsSchema.safeParse(decoded);
    if (parsed.success) return;
    for (const issue of parsed.error.issues) {
      const [index, part] = issue.path;
      const column = typeof index === 'number' ? (decoded[index] as { column?: unknown } | undefined)?.column : undefined;
      const path = part === 'value' && typeof column === 'string' ? [index, column] : issue.path;
      ctx.addIssue({ code: 'custom', path: path as Array<string | number>, message: issue.message, params: (issue as { params?: Record<string, unknown> }).params });
    }
  });

/** Rows <-> the `filters` URL parameter, so a search can be bookmarked and shared. */
export function encodeSearch(rows: SearchRow[]): string {
  return JSON.stringify(rows.map((r) => (r.value === undefined ? [r.column, r.op] : [r.column, r.op, r.value])));
}

export function decodeSearch(text: string): unknown {
  try {
    const parsed = JSON.parse(text);
    if (!Array.isArray(parsed)) return parsed;
    return parsed.map((r) => (Array.isArray(r) ? { column: r[0], op: r[1], ...(r.length > 2 ? { value: r[2] } : {}) } : r));
  } catch {
    return 'not json';
  }
}
