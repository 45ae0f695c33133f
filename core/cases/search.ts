/**
 * The advanced search of the case list (spec: rows of column, operator and
 * value) over case columns and any field of the case's form. The browser
 * builds the rows and puts them in the URL; the server checks them with the
 * same schema and turns them into SQL, so an unknown column or operator is a
 * 400, never a query.
 */
import { z } from 'zod';

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

const FIELD = /^data\.[A-Za-z_][A-Za-z0-9_]{0,62}$/;
const scalar = z.union([z.string().max(200), z.number().finite(), z.boolean()]);

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
    }
    const needsList = row.op === 'in' || row.op === 'between';
    if (row.op === 'empty') return;
    if (row.value === undefined || (typeof row.value === 'string' && row.value.trim() === '')) ctx.addIssue({ code: 'custom', path: ['value'], message: 'validation.required' });
    else if (needsList !== Array.isArray(row.value)) ctx.addIssue({ code: 'custom', path: ['value'], message: 'cases.search.badValue' });
    else if (row.op === 'between' && (row.value as unknown[]).length !== 2) ctx.addIssue({ code: 'custom', path: ['value'], message: 'cases.search.badValue' });
  });
export type SearchRow = z.infer<typeof searchRowSchema>;

export const searchRowsSchema = z.array(searchRowSchema).max(20);

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
