/**
 * The column list being edited, as pure functions: move, remove, add, compare
 * with what is saved, and what is wrong with it before it goes to the server
 * (an empty header). The server checks the same and more (a column the form
 * does not offer); its answer is placed on the rows by `serverProblems`.
 */
import type { ApiErrorDetail } from '../../lib/api.js';
import type { AvailableColumn, TapeColumn } from './api.js';

export type Lang = 'en' | 'es';
export type HeaderField = 'header' | 'header_en';

/** The header a reader of `lang` knows the column by (the other language's when theirs is empty). */
export function headerIn(column: Pick<TapeColumn, 'header' | 'header_en'>, lang: Lang): string {
  const es = column.header.trim();
  const en = column.header_en.trim();
  return lang === 'es' ? es || en : en || es;
}

/** The list with the column at `index` moved by `delta` places (kept inside the list). */
export function moveColumn(columns: readonly TapeColumn[], index: number, delta: number): TapeColumn[] {
  const to = Math.max(0, Math.min(columns.length - 1, index + delta));
  const next = [...columns];
  const [moved] = next.splice(index, 1);
  if (moved) next.splice(to, 0, moved);
  return next;
}

export const removeColumn = (columns: readonly TapeColumn[], index: number): TapeColumn[] => columns.filter((_c, i) => i !== index);

/** The column added at the end with the form's default headers. */
export const addColumn = (columns: readonly TapeColumn[], column: AvailableColumn): TapeColumn[] => [
  ...columns,
  { source: column.source, header: column.header, header_en: column.header_en },
];

export const setHeader = (columns: readonly TapeColumn[], index: number, field: HeaderField, value: string): TapeColumn[] =>
  columns.map((c, i) => (i === index ? { ...c, [field]: value } : c));

/** The same columns in the same order with the same headers. */
export const sameColumns = (a: readonly TapeColumn[], b: readonly TapeColumn[]): boolean =>
  a.length === b.length && a.every((c, i) => c.source === b[i]?.source && c.header === b[i]?.header && c.header_en === b[i]?.header_en);

/** The available columns not in the list yet, in form order. */
export const missingColumns = (columns: readonly TapeColumn[], available: readonly AvailableColumn[]): AvailableColumn[] => {
  const taken = new Set(columns.map((c) => c.source));
  return available.filter((a) => !taken.has(a.source));
};

/** The headers sent (trimmed, as the server keeps them). */
export const trimmed = (columns: readonly TapeColumn[]): TapeColumn[] => columns.map((c) => ({ ...c, header: c.header.trim(), header_en: c.header_en.trim() }));

/** A problem of one header of one column (an i18n key, or a message the server translated). */
export interface ColumnProblem {
  source: string;
  field: HeaderField;
  /** An i18n key when `translated` is false. */
  message: string;
  translated: boolean;
}

/** What the browser can tell before saving: every empty header. */
export function draftProblems(columns: readonly TapeColumn[]): ColumnProblem[] {
  return columns.flatMap((c) =>
    (['header', 'header_en'] as const).filter((field) => !c[field].trim()).map((field) => ({ source: c.source, field, message: 'validation.required', translated: false })),
  );
}

/** The server's refusal placed on the rows it names (`columns.2.header`); the rest stays for the page to show. */
export function serverProblems(details: readonly ApiErrorDetail[], sent: readonly TapeColumn[]): { placed: ColumnProblem[]; other: string[] } {
  const placed: ColumnProblem[] = [];
  const other: string[] = [];
  for (const detail of details) {
    const match = /^columns\.(\d+)\.(header|header_en)$/.exec(detail.path);
    const column = match ? sent[Number(match[1])] : undefined;
    if (match && column) placed.push({ source: column.source, field: match[2] as HeaderField, message: detail.message, translated: true });
    else other.push(detail.message);
  }
  return { placed, other };
}

/**
 * How a field of a repeat group is headed in the file: numbered per row
 * ("Name 1, Name 2, …"); a group inside a group numbers both ("Kind 1.1,
 * Kind 1.2, …"). Null for a column that is not in a repeat group.
 */
export function numberedExample(source: string, header: string): string | null {
  if (!source.startsWith('field:')) return null;
  const depth = source.slice(6).split('.').length - 1;
  if (depth < 1) return null;
  const first = Array.from({ length: depth }, () => 1);
  const second = first.map((n, i) => (i === depth - 1 ? 2 : n));
  return `${header} ${first.join('.')}, ${header} ${second.join('.')}, …`;
}
