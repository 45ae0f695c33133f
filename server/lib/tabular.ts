/**
 * Uploaded spreadsheets for the bulk case import (issue 17), read as a
 * stream: an upload is spooled to a file (with a size cap), its kind is
 * found from its content (a zip holding `xl/workbook.xml` is Excel; other
 * zips and binaries are refused; the rest is CSV text), and its rows are
 * read one at a time, never the whole file in memory.
 *
 * CSV: csv-parse over a streaming decoder. Valid UTF-8 is read as UTF-8 (a
 * BOM dropped), anything else as windows-1252, which is how Excel on Windows
 * saves "CSV" and which decodes every byte (no U+FFFD). UTF-16 is refused
 * ('encoding'): the import's encodings are UTF-8 and windows-1252.
 * Excel: exceljs's streaming reader, first worksheet only.
 * Cells stay the text that was written: nothing is cast or evaluated.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream, ReadStream } from 'node:fs';
import { mkdir, open, rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { CsvError, parse } from 'csv-parse';

export const TABLE_LIMITS = { maxBytes: 200 * 1024 * 1024, maxRows: 1_000_000, maxColumns: 200 } as const;

export type TableKind = 'csv' | 'xlsx';
export type TableEncoding = 'utf-8' | 'windows-1252';

export class TableError extends Error {
  constructor(
    readonly reason: 'tooLarge' | 'tooManyRows' | 'tooManyColumns' | 'encoding' | 'unterminated' | 'empty' | 'notTable' | 'badHeader',
    readonly line?: number,
    readonly limit?: number,
  ) {
    super(`table ${reason}${line ? ` at line ${line}` : ''}${limit ? ` (limit ${limit})` : ''}`);
    this.name = 'TableError';
  }
}

export interface TableRow {
  line: number;
  cells: string[];
}

export interface OpenedTable {
  kind: TableKind;
  encoding: TableEncoding | null;
  header: string[];
  rows(): AsyncIterable<TableRow>;
}

/** The limits as numbers (TABLE_LIMITS itself is `as const`, whose literal types would admit only the defaults). */
export type TableLimits = { [K in keyof typeof TABLE_LIMITS]: number };
type Limits = TableLimits;

/** Writes a stream (an upload) to a new temporary file under `dir` (created if missing), refusing (TableError 'tooLarge', limit = maxBytes) as soon as it passes maxBytes; the partial file is removed on any failure. Returns the file's path and size. */
export async function spoolToFile(
  source: NodeJS.ReadableStream | AsyncIterable<Uint8Array>,
  dir: string,
  maxBytes: number = TABLE_LIMITS.maxBytes,
): Promise<{ path: string; bytes: number }> {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `upload-${randomUUID()}.part`);
  let bytes = 0;
  // The file is opened (and exists) before the copy starts, and the stream is closed before it is
  // removed: a write stream that opens lazily could create the file after a failed upload removed it.
  const handle = await open(file, 'wx', 0o600);
  const sink = handle.createWriteStream();
  try {
    await pipeline(
      source as AsyncIterable<Uint8Array | string>,
      async function* capped(chunks: AsyncIterable<Uint8Array | string>) {
        for await (const chunk of chunks) {
          const data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
          bytes += data.byteLength;
          // Refused as soon as the cap is passed, not after the whole upload has been written.
          if (bytes > maxBytes) throw new TableError('tooLarge', undefined, maxBytes);
          yield data;
        }
      },
      sink,
    );
    return { path: file, bytes };
  } catch (error) {
    if (!sink.closed) await new Promise<void>((done) => sink.once('close', () => done()));
    await rm(file, { force: true });
    throw error;
  }
}

/** Opens a spooled file: sniffs the kind by content, reads the header (checked: no empty or repeated names, at most maxColumns), and returns an iterator over the data rows that can be consumed once per rows() call (each call reads the file again from the start). */
export async function openTable(file: string, limits: Partial<TableLimits> = {}): Promise<OpenedTable> {
  const lim: Limits = { ...TABLE_LIMITS, ...limits };
  const kind = await sniff(file);
  if (kind === 'xlsx') {
    const header = await readHeader(xlsxRecords(file), lim);
    return { kind, encoding: null, header: header.names, rows: () => dataRows(xlsxRecords(file), header.line, lim) };
  }
  const encoding = await scanEncoding(file);
  const delimiter = await sniffDelimiter(file, encoding);
  const records = () => csvRecords(file, encoding, delimiter);
  const header = await readHeader(records(), lim);
  return { kind, encoding, header: header.names, rows: () => dataRows(records(), header.line, lim) };
}

// ---------------------------------------------------------------- kind

const HEAD_BYTES = 64 * 1024;
const startsWith = (head: Buffer, ...bytes: number[]) => bytes.every((b, i) => head[i] === b);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

async function readAt(file: string, position: number, length: number): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, position);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

async function sniff(file: string): Promise<TableKind> {
  const head = await readAt(file, 0, HEAD_BYTES);
  if (head.length === 0) throw new TableError('empty');
  if (startsWith(head, 0x50, 0x4b, 0x03, 0x04)) {
    if ((await zipEntries(file)).includes('xl/workbook.xml')) return 'xlsx';
    throw new TableError('notTable');
  }
  // A UTF-16 or UTF-32 byte order mark: text, but not in an encoding the import reads.
  if (startsWith(head, 0xff, 0xfe) || startsWith(head, 0xfe, 0xff) || startsWith(head, 0, 0, 0xfe, 0xff)) throw new TableError('encoding', 1);
  const magic = [
    ascii('%PDF-'), [0x89, ...ascii('PNG')], [0xff, 0xd8, 0xff], ascii('GIF8'), [0xd0, 0xcf, 0x11, 0xe0], // PDF, PNG, JPEG, GIF, old Office (.xls)
    [0x1f, 0x8b], ascii('Rar!'), [0x37, 0x7a, 0xbc, 0xaf], [0x50, 0x4b, 0x05, 0x06], [0x50, 0x4b, 0x07, 0x08], // gzip, rar, 7z, empty or split zip
  ];
  if (magic.some((m) => startsWith(head, ...m))) throw new TableError('notTable');
  const nul = head.indexOf(0);
  if (nul >= 0) {
    // UTF-16 text without its mark has NULs on one side of each byte pair, and text with a stray NUL has few
    // control bytes: both are text in an encoding the import cannot take. Anything else is a binary file.
    if (looksLikeUtf16(head) || controlBytes(head) <= Math.max(2, head.length / 100)) throw new TableError('encoding', lineAt(head, nul));
    throw new TableError('notTable');
  }
  return 'csv';
}

function looksLikeUtf16(head: Buffer): boolean {
  const nuls = [0, 0];
  for (let i = 0; i < head.length; i++) if (head[i] === 0) nuls[i % 2]++;
  const pairs = Math.floor(head.length / 2) || 1;
  const [even, odd] = nuls as [number, number];
  return Math.max(even, odd) >= pairs * 0.3 && Math.min(even, odd) <= Math.max(even, odd) * 0.05;
}

/** Bytes below 0x20 other than tab, line feed, form feed and carriage return. */
function controlBytes(head: Buffer): number {
  let count = 0;
  for (const byte of head) if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0c && byte !== 0x0d) count++;
  return count;
}

/** 1-based line of a byte offset (LF counted; a UTF-16 LF is 0x0A beside a NUL). */
function lineAt(bytes: Buffer, offset: number): number {
  let line = 1;
  for (let i = bytes.indexOf(0x0a); i >= 0 && i < offset; i = bytes.indexOf(0x0a, i + 1)) line++;
  return line;
}

/** Names in a zip's central directory (read from the end of the file; the entries themselves are not read). */
async function zipEntries(file: string): Promise<string[]> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const tailLength = Math.min(size, 22 + 0xffff);
    const tail = Buffer.alloc(tailLength);
    await handle.read(tail, 0, tailLength, size - tailLength);
    const eocd = tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
    if (eocd < 0 || eocd + 22 > tail.length) throw new TableError('notTable');
    let count = tail.readUInt16LE(eocd + 10);
    let cdSize = tail.readUInt32LE(eocd + 12);
    let cdOffset = tail.readUInt32LE(eocd + 16);
    if (cdOffset === 0xffffffff || count === 0xffff) {
      // Zip64: the real figures are in the zip64 end record named by the locator just before.
      const locator = eocd - 20;
      if (locator < 0 || tail.readUInt32LE(locator) !== 0x07064b50) throw new TableError('notTable');
      const end64 = Buffer.alloc(56);
      await handle.read(end64, 0, 56, Number(tail.readBigUInt64LE(locator + 8)));
      if (end64.readUInt32LE(0) !== 0x06064b50) throw new TableError('notTable');
      count = Number(end64.readBigUInt64LE(32));
      cdSize = Number(end64.readBigUInt64LE(40));
      cdOffset = Number(end64.readBigUInt64LE(48));
    }
    // An Excel file has a few dozen entries; a directory of megabytes is something else.
    if (cdSize > 4 * 1024 * 1024 || cdOffset + cdSize > size) throw new TableError('notTable');
    const cd = Buffer.alloc(cdSize);
    await handle.read(cd, 0, cdSize, cdOffset);
    const names: string[] = [];
    for (let at = 0; names.length < count && at + 46 <= cd.length && cd.readUInt32LE(at) === 0x02014b50; ) {
      const nameLength = cd.readUInt16LE(at + 28);
      names.push(cd.toString('utf8', at + 46, at + 46 + nameLength));
      at += 46 + nameLength + cd.readUInt16LE(at + 30) + cd.readUInt16LE(at + 32);
    }
    return names;
  } finally {
    await handle.close();
  }
}

// ---------------------------------------------------------------- CSV

/** First pass: UTF-8 if every byte sequence is valid UTF-8, else windows-1252; a NUL anywhere is refused with its line. */
async function scanEncoding(file: string): Promise<TableEncoding> {
  let utf8: TextDecoder | null = new TextDecoder('utf-8', { fatal: true });
  let offset = 0;
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    const nul = chunk.indexOf(0);
    if (nul >= 0) throw new TableError('encoding', await countLines(file, offset + nul));
    if (utf8) {
      try {
        utf8.decode(chunk, { stream: true });
      } catch {
        utf8 = null;
      }
    }
    offset += chunk.length;
  }
  if (utf8) {
    try {
      utf8.decode(); // a multi-byte sequence cut off by the end of the file
    } catch {
      utf8 = null;
    }
  }
  return utf8 ? 'utf-8' : 'windows-1252';
}

async function countLines(file: string, end: number): Promise<number> {
  let line = 1;
  if (end === 0) return line;
  for await (const chunk of createReadStream(file, { end: end - 1 }) as AsyncIterable<Buffer>) {
    for (let i = chunk.indexOf(0x0a); i >= 0; i = chunk.indexOf(0x0a, i + 1)) line++;
  }
  return line;
}

/** Comma; semicolon when the first line has semicolons and no commas (as parseCsv decides); tab when it has only tabs. */
async function sniffDelimiter(file: string, encoding: TableEncoding): Promise<string> {
  const text = new TextDecoder(encoding).decode(await readAt(file, 0, HEAD_BYTES), { stream: true });
  // The header is the first line with something on it.
  const first = text.split(/\r\n|\r|\n/).find((l) => l.replace(/^\uFEFF/, '').trim() !== '') ?? '';
  if (first.includes(',')) return ',';
  if (first.includes(';')) return ';';
  if (first.includes('\t')) return '\t';
  return ',';
}

/** Bytes -> text in the file's encoding, chunk by chunk (a character split between chunks is held back). */
class Decode extends Transform {
  private readonly decoder: TextDecoder;
  constructor(encoding: TableEncoding) {
    // Strings out: csv-parse takes them as they are, with no second decoding.
    super({ readableObjectMode: true });
    // The default (ignoreBOM false) drops a UTF-8 BOM.
    this.decoder = new TextDecoder(encoding);
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
    const text = this.decoder.decode(chunk, { stream: true });
    done(null, text || undefined);
  }
  override _flush(done: TransformCallback) {
    const text = this.decoder.decode();
    done(null, text || undefined);
  }
}

// A record longer than this (characters) is a quote that never closed, not data: it caps memory on such a file.
const MAX_RECORD_CHARS = 8 * 1024 * 1024;
const LINE_BREAK = /\r\n|\r|\n/g;

interface RawRecord {
  line: number;
  cells: string[];
}

async function* csvRecords(file: string, encoding: TableEncoding, delimiter: string): AsyncGenerator<RawRecord> {
  const input = createReadStream(file);
  const parser = parse({
    delimiter,
    bom: true,
    // Rows may be shorter or longer than the header: the caller reports it.
    relax_column_count: true,
    // A quote inside an unquoted cell (5'10") is text, as in Excel.
    relax_quotes: true,
    // Empty lines come through (and are skipped below) so that every line belongs to a record and line numbers stay exact.
    skip_empty_lines: false,
    record_delimiter: ['\r\n', '\n', '\r'],
    max_record_size: MAX_RECORD_CHARS,
  });
  input.pipe(new Decode(encoding)).pipe(parser);
  input.on('error', (error) => parser.destroy(error));
  let line = 1;
  try {
    for await (const cells of parser as AsyncIterable<string[]>) {
      yield { line, cells };
      // The next record starts after this one's line breaks (inside quoted cells) and its own.
      for (const cell of cells) if (cell.includes('\n') || cell.includes('\r')) line += cell.match(LINE_BREAK)?.length ?? 0;
      line++;
    }
  } catch (error) {
    if (error instanceof CsvError && (error.code === 'CSV_QUOTE_NOT_CLOSED' || error.code === 'CSV_MAX_RECORD_SIZE')) {
      const quoteLine = await openQuoteLine(file, encoding, delimiter, line);
      throw quoteLine ? new TableError('unterminated', quoteLine) : new TableError('notTable', line);
    }
    throw error;
  } finally {
    input.destroy();
    parser.destroy();
  }
}

/**
 * The line where the quote that never closed began, in the record that starts
 * at `recordLine` (csv-parse reports the end of the file); null when no quote
 * is open there (a line too long without one). Only on the error path.
 */
async function openQuoteLine(file: string, encoding: TableEncoding, delimiter: string, recordLine: number): Promise<number | null> {
  const decoder = new TextDecoder(encoding);
  let line = 1;
  let inRecord = recordLine === 1;
  let fieldStart = true;
  let quoted = false;
  let quoteEnded = false; // a quote seen inside a quoted cell: the end, or the first half of ""
  let quoteLine = 0;
  let lastCr = false;
  let scanned = 0;
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    const text = decoder.decode(chunk, { stream: true });
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      const newline = c === '\n' ? !lastCr : c === '\r';
      lastCr = c === '\r';
      if (!inRecord) {
        if (newline && ++line === recordLine) inRecord = true;
        continue;
      }
      if (++scanned > MAX_RECORD_CHARS + HEAD_BYTES) return quoted ? quoteLine : null;
      if (quoted) {
        if (quoteEnded) {
          quoteEnded = false;
          if (c === '"') continue; // "" is a quote inside the cell
          quoted = false;
        } else {
          if (c === '"') quoteEnded = true;
          if (newline) line++;
          continue;
        }
      }
      if (newline) line++;
      if (c === '"' && fieldStart) {
        quoted = true;
        quoteLine = line;
      }
      fieldStart = c === delimiter || c === '\n' || c === '\r';
    }
  }
  return quoted && !quoteEnded ? quoteLine : null;
}

// ---------------------------------------------------------------- Excel

type ExcelValue = unknown;
const EXCEL_EPOCH_DAYS = 25569; // 1970-01-01 as an Excel serial (1900 system)

/** Excel's own test for a date format: date or time letters outside quotes and brackets. */
const isDateFormat = (format: string | undefined) => !!format && /[ymdhsb]/i.test(format.replace(/\[[^\]]*]/g, '').replace(/"[^"]*"/g, ''));

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

function dateText(date: Date): string {
  if (Number.isNaN(date.getTime())) return '';
  // Excel stores seconds as a fraction of a day: round away the float noise before deciding it is midnight.
  const d = new Date(Math.round(date.getTime() / 1000) * 1000);
  const day = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  if (d.getUTCHours() === 0 && d.getUTCMinutes() === 0 && d.getUTCSeconds() === 0) return day;
  return `${day}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/** A number as plain decimal text, as Excel shows it: 15 significant digits, no exponent. */
export function numberText(value: number): string {
  if (!Number.isFinite(value)) return '';
  // Excel keeps 15 significant digits; 0.1+0.2 is stored as 0.30000000000000004 and shown as 0.3.
  const n = Number(value.toPrecision(15));
  const text = String(n);
  const exp = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!exp) return text;
  const [, sign, lead, rest = '', power] = exp as unknown as [string, string, string, string | undefined, string];
  const digits = lead + rest;
  const point = 1 + Number(power);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

function cellText(value: ExcelValue, numFmt: string | undefined, date1904: boolean): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    // A formula's cached result comes as a bare number even when its cell is formatted as a date.
    if (isDateFormat(numFmt)) return dateText(new Date(Math.round((value - EXCEL_EPOCH_DAYS + (date1904 ? 1462 : 0)) * 86_400_000)));
    return numberText(value);
  }
  if (value instanceof Date) return dateText(value);
  if (typeof value === 'object') {
    const v = value as { richText?: Array<{ text?: string }>; text?: ExcelValue; result?: ExcelValue; error?: string; formula?: string; sharedFormula?: string };
    if (Array.isArray(v.richText)) return v.richText.map((run) => run.text ?? '').join('');
    if ('error' in v) return '';
    // Formula cells give their cached result, never the formula, and are never evaluated.
    if ('formula' in v || 'sharedFormula' in v || 'result' in v) return cellText(v.result, numFmt, date1904);
    if ('text' in v) return cellText(v.text, numFmt, date1904); // a hyperlink
  }
  return '';
}

interface ExcelRow {
  number: number;
  values: ExcelValue[] | Record<number, ExcelValue>;
  getCell(column: number): { numFmt?: string };
}

async function* xlsxRecords(file: string): AsyncGenerator<RawRecord> {
  // Loaded on first use: exceljs is large and only Excel uploads need it.
  const { default: ExcelJS } = await import('exceljs');
  const input = createReadStream(file);
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(input, {
    sharedStrings: 'cache',
    // Dates are numbers with a date format: the styles say which.
    styles: 'cache',
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'ignore',
  });
  const sheets = reader[Symbol.asyncIterator]();
  let deferred = false;
  try {
    let found = false;
    for (let next = await sheets.next(); !next.done; next = await sheets.next()) {
      const sheet = next.value as unknown as AsyncIterable<ExcelRow> & { id?: number | string; iterator?: unknown };
      const model = (reader as unknown as { model?: { sheets?: Array<{ id?: number | string }> } }).model;
      const firstId = model?.sheets?.[0]?.id;
      if (found || (firstId !== undefined && String(sheet.id) !== String(firstId))) {
        // Not read: close the temporary copy exceljs may have opened for it.
        if (sheet.iterator instanceof ReadStream) sheet.iterator.destroy();
        continue;
      }
      found = true;
      deferred = sheet.iterator instanceof ReadStream;
      const date1904 = !!(reader as unknown as { properties?: { model?: { date1904?: boolean } } }).properties?.model?.date1904;
      for await (const row of sheet) {
        const values = Array.isArray(row.values) ? row.values : [];
        const cells: string[] = [];
        for (let column = 1; column < values.length; column++) {
          const value = values[column];
          cells.push(value === undefined || value === null ? '' : cellText(value, row.getCell(column).numFmt, date1904));
        }
        yield { line: row.number, cells };
      }
      deferred = false;
    }
    if (!found) throw new TableError('notTable');
  } catch (error) {
    if (error instanceof TableError || (error as NodeJS.ErrnoException).syscall) throw error;
    // A zip with a workbook in it that exceljs cannot read (damaged, or not what its name says).
    throw Object.assign(new TableError('notTable'), { cause: error });
  } finally {
    // exceljs copies worksheets that precede the shared strings in the zip to temporary files and deletes each
    // once the iteration moves past it: when stopped early, walk on (skipping the rest) so none is left behind.
    if (deferred) {
      try {
        for (let next = await sheets.next(); !next.done; next = await sheets.next()) {
          const rest = next.value as unknown as { iterator?: unknown };
          if (rest.iterator instanceof ReadStream) rest.iterator.destroy();
        }
      } catch {
        // Cleaning up after an error already being reported.
      }
    }
    input.destroy();
  }
}

// ---------------------------------------------------------------- rows

const isBlank = (cells: string[]) => cells.every((c) => c.trim() === '');

/** Trailing empty cells (a spreadsheet's formatted but empty columns) are not cells that count. */
function trimTrailing(cells: string[]): string[] {
  let end = cells.length;
  while (end > 0 && cells[end - 1] === '') end--;
  return end === cells.length ? cells : cells.slice(0, end);
}

async function readHeader(records: AsyncGenerator<RawRecord>, lim: Limits): Promise<{ names: string[]; line: number }> {
  try {
    for await (const record of records) {
      if (isBlank(record.cells)) continue;
      const names = trimTrailing(record.cells.map((c) => c.trim()));
      if (names.length > lim.maxColumns) throw new TableError('tooManyColumns', record.line, lim.maxColumns);
      const seen = new Set<string>();
      for (const name of names) {
        if (name === '' || seen.has(name)) throw new TableError('badHeader', record.line);
        seen.add(name);
      }
      return { names, line: record.line };
    }
    throw new TableError('empty');
  } finally {
    await records.return(undefined);
  }
}

// Longest synchronous stretch of rows before the iteration lets other requests run.
const SLICE_MS = 20;

async function* dataRows(records: AsyncGenerator<RawRecord>, headerLine: number, lim: Limits): AsyncGenerator<TableRow> {
  let count = 0;
  let sliceStart = performance.now();
  for await (const record of records) {
    if (record.line <= headerLine || isBlank(record.cells)) continue;
    let cells = record.cells;
    if (cells.length > lim.maxColumns) {
      cells = trimTrailing(cells);
      if (cells.length > lim.maxColumns) throw new TableError('tooManyColumns', record.line, lim.maxColumns);
    }
    if (++count > lim.maxRows) throw new TableError('tooManyRows', record.line, lim.maxRows);
    yield { line: record.line, cells };
    if ((count & 0xff) === 0 && performance.now() - sliceStart > SLICE_MS) {
      await nextTurn();
      sliceStart = performance.now();
    }
  }
}
