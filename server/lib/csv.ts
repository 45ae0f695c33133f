/**
 * CSV in and out (RFC 4180) through csv-parse and csv-stringify.
 * Reading (small files held in memory: the masters' import; the case import
 * streams through lib/tabular.ts): UTF-8 only (a BOM is dropped; bytes that
 * are not UTF-8 are refused rather than turned into garbage), quoted fields
 * with commas, quotes and line breaks, a cap on rows and columns.
 * Writing: every cell that a spreadsheet would run as a formula (starting
 * with =, +, -, @, tab or carriage return) is neutralised with a quote;
 * a BOM first, so spreadsheet programs read the file as UTF-8.
 */
import { CsvError as ParseError } from 'csv-parse';
import { parse } from 'csv-parse/sync';
import { type Options as StringifyOptions, type Stringifier, stringify as stringifyStream } from 'csv-stringify';
import { stringify } from 'csv-stringify/sync';

export class CsvError extends Error {
  constructor(
    readonly reason: 'encoding' | 'unterminated' | 'tooManyRows' | 'tooManyColumns' | 'empty',
    readonly line?: number,
  ) {
    super(`CSV ${reason}${line ? ` at line ${line}` : ''}`);
    this.name = 'CsvError';
  }
}

export interface CsvLimits {
  maxRows?: number;
  maxColumns?: number;
}

const decoder = new TextDecoder('utf-8', { fatal: true });

export function decodeCsv(bytes: Uint8Array): string {
  let text: string;
  try {
    text = decoder.decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    throw new CsvError('encoding');
  }
  // A NUL is no text (a UTF-16 file without its mark is full of them), and PostgreSQL text cannot hold one.
  if (text.includes('\u0000')) throw new CsvError('encoding');
  return text;
}

/** Parses CSV text into rows of cells; the delimiter is a comma or, when the first line has none, a semicolon. Blank lines are skipped. */
export function parseCsv(text: string, limits: CsvLimits = {}): string[][] {
  const maxRows = limits.maxRows ?? 100_000;
  const maxColumns = limits.maxColumns ?? 200;
  const src = text.replace(/^\uFEFF/, '');
  const firstLine = src.slice(0, src.search(/\r?\n|$/));
  const delimiter = !firstLine.includes(',') && firstLine.includes(';') ? ';' : ',';
  // The line the last record ended on: an unterminated quote opens the record after it.
  let lastLine = 0;
  let count = 0;
  let rows: string[][];
  try {
    rows = parse(src, {
      delimiter,
      record_delimiter: ['\r\n', '\n', '\r'],
      relax_column_count: true,
      // A quote inside an unquoted cell (5'10") is text, as in Excel.
      relax_quotes: true,
      skip_empty_lines: true,
      on_record: (record: string[], info) => {
        if (record.length > maxColumns) throw new CsvError('tooManyColumns', info.lines);
        if (++count > maxRows) throw new CsvError('tooManyRows', info.lines);
        lastLine = info.lines;
        return record;
      },
    });
  } catch (e) {
    if (e instanceof ParseError && e.code === 'CSV_QUOTE_NOT_CLOSED') throw new CsvError('unterminated', firstLineAfter(src, lastLine));
    throw e;
  }
  if (rows.length === 0) throw new CsvError('empty');
  return rows;
}

/** The first line past `line` with something on it (where the next record starts). */
function firstLineAfter(text: string, line: number): number {
  const lines = text.split(/\r\n|\n|\r/);
  let at = line;
  while (at < lines.length && lines[at] === '') at++;
  return at + 1;
}

/** Header row + rows -> objects keyed by the (trimmed) header. */
export function csvRecords(rows: string[][]): { header: string[]; records: Array<Record<string, string>> } {
  const header = rows[0].map((h) => h.trim());
  const records = rows.slice(1).map((cells) => Object.fromEntries(header.map((h, i) => [h, (cells[i] ?? '').trim()])));
  return { header, records };
}

const FORMULA = /^[=+\-@\t\r]/;

/** Text that a spreadsheet would run as a formula (=, +, -, @, tab, carriage return first) gets a leading quote. */
export const neutralise = (text: string) => (FORMULA.test(text) ? `'${text}` : text);

/**
 * How every exported CSV is written: CRLF rows, a BOM, every value's text
 * neutralised (numbers too: CSV has no types, and -1+1 is a formula), dates
 * as ISO 8601, booleans as true/false, a cell with a semicolon quoted (a
 * spreadsheet set to semicolons would split it otherwise).
 */
const CSV_OPTIONS: StringifyOptions = {
  bom: true,
  record_delimiter: 'windows',
  // A lone CR or LF in a cell is quoted too (csv-stringify quotes only the record delimiter once one is set).
  quote_record_delimiter: true,
  quoted_match: /;/,
  cast: {
    string: (v) => neutralise(v),
    number: (v) => neutralise(String(v)),
    bigint: (v) => neutralise(String(v)),
    boolean: (v) => (v ? 'true' : 'false'),
    date: (v) => v.toISOString(),
    object: (v) => neutralise(JSON.stringify(v)),
  },
};

/** A whole (small) table as CSV text. */
export function toCsv(header: string[], rows: unknown[][]): string {
  return stringify([header, ...rows], CSV_OPTIONS);
}

/** A CSV writer for a long table: write rows (arrays of cells) to it, pipe it where the bytes go. */
export function csvStream(): Stringifier {
  return stringifyStream(CSV_OPTIONS);
}
