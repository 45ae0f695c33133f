/**
 * CSV in and out (RFC 4180). Reading: UTF-8 only (a BOM is dropped; bytes
 * that are not UTF-8 are refused rather than turned into garbage), quoted
 * fields with commas, quotes and line breaks, a cap on rows and columns.
 * Writing: every cell that a spreadsheet would run as a formula (starting
 * with =, +, -, @, tab or carriage return) is neutralised with a quote.
 */

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

/** Parses CSV text into rows of cells; the delimiter is a comma or, when the first line has none, a semicolon. */
export function parseCsv(text: string, limits: CsvLimits = {}): string[][] {
  const maxRows = limits.maxRows ?? 100_000;
  const maxColumns = limits.maxColumns ?? 200;
  const src = text.replace(/^\uFEFF/, '');
  const firstLine = src.slice(0, src.search(/\r?\n|$/));
  const delimiter = !firstLine.includes(',') && firstLine.includes(';') ? ';' : ',';
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let i = 0;
  let line = 1;
  let quoted = false;
  let quoteStartLine = 0;
  const endCell = () => {
    row.push(cell);
    cell = '';
    if (row.length > maxColumns) throw new CsvError('tooManyColumns', line);
  };
  const endRow = () => {
    endCell();
    if (!(row.length === 1 && row[0] === '')) {
      rows.push(row);
      if (rows.length > maxRows) throw new CsvError('tooManyRows', line);
    }
    row = [];
  };
  while (i < src.length) {
    const c = src[i];
    if (quoted) {
      if (c === '"') {
        if (src[i + 1] === '"') {
          cell += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        continue;
      }
      if (c === '\n') line++;
      cell += c;
      i++;
      continue;
    }
    if (c === '"' && cell === '') {
      quoted = true;
      quoteStartLine = line;
      i++;
    } else if (c === delimiter) {
      endCell();
      i++;
    } else if (c === '\r' && src[i + 1] === '\n') {
      endRow();
      line++;
      i += 2;
    } else if (c === '\n' || c === '\r') {
      endRow();
      line++;
      i++;
    } else {
      cell += c;
      i++;
    }
  }
  if (quoted) throw new CsvError('unterminated', quoteStartLine);
  if (cell !== '' || row.length > 0) endRow();
  if (rows.length === 0) throw new CsvError('empty');
  return rows;
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

/** A cell as written to CSV or a spreadsheet: never a formula, quoted when needed. */
export function csvCell(value: unknown): string {
  const text = neutralise(value === null || value === undefined ? '' : value instanceof Date ? value.toISOString() : String(value));
  return /[",\r\n;]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function toCsv(header: string[], rows: unknown[][]): string {
  // The BOM makes spreadsheet programs read the file as UTF-8.
  return `\uFEFF${[header, ...rows].map((r) => r.map(csvCell).join(',')).join('\r\n')}\r\n`;
}
