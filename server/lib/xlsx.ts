/**
 * One-sheet Excel workbooks written as a stream by exceljs's streaming
 * writer (`stream.xlsx.WorkbookWriter`): each row is committed to the zip as
 * it is added, so a workbook of any length takes memory for a few rows, not
 * for the sheet (docs/decisions.md measures it). Strings are written inline
 * (no shared-strings table, which would grow with the file) and neutralised
 * like CSV cells (lib/csv.ts `neutralise`), so a value that a spreadsheet
 * would run as a formula when re-typed or pasted stays text; numbers and
 * booleans keep their types; dates are ISO 8601 text.
 */
import type { Writable } from 'node:stream';
import { neutralise } from './csv.js';

export type Cell = string | number | boolean | Date | null | undefined;

export interface SheetWriter {
  /** Adds one row; resolves at once, or once the zip has taken in what came before when too much waits for it. */
  addRow(cells: Cell[]): Promise<void>;
  /** Ends the workbook: resolves once its last byte has been written to the stream. */
  finish(): Promise<void>;
}

/** Excel's limit for the text of one cell. */
const MAX_CELL_TEXT = 32_767;

function cellValue(value: Cell): string | number | boolean | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'boolean') return value;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  return neutralise(String(value)).slice(0, MAX_CELL_TEXT);
}

/** A sheet name Excel accepts: none of \ / ? * [ ] :, at most 31 characters. */
export const sheetNameOf = (name: string) => name.replace(/[\\/?*[\]:]/g, ' ').slice(0, 31).trim() || 'Sheet1';

/**
 * How much sheet XML may wait in front of the zip's compressor. exceljs pipes
 * the sheet into its zip entry without waiting (its StreamBuf ignores what
 * write() answers), so rows made faster than they are deflated pile up there:
 * 200,000 rows held 160 MB before this wait (docs/decisions.md).
 */
const MAX_BACKLOG = 4 * 1024 * 1024;

/** The zip entry's input that exceljs writes the sheet into (archiver's PassThrough), when it can be found. */
type EntryInput = { _writableState?: { length: number }; once(event: 'drain' | 'close', listener: () => void): unknown; off(event: 'drain' | 'close', listener: () => void): unknown };
const entryInputOf = (sheet: unknown) => (sheet as { stream?: { pipes?: EntryInput[] } }).stream?.pipes?.[0];

/** Resolves when the entry's input has drained, or when it or the output is gone (their error reaches the caller through `out`). */
function drainedOrGone(input: EntryInput, out: Writable): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      input.off('drain', done);
      input.off('close', done);
      out.off('error', done);
      out.off('close', done);
      resolve();
    };
    input.once('drain', done);
    input.once('close', done);
    out.once('error', done);
    out.once('close', done);
  });
}

/** A workbook whose one sheet is written row by row to `out`. */
export async function xlsxWriter(out: Writable, sheetName = 'Sheet1'): Promise<SheetWriter> {
  // Loaded on first use: exceljs is large and only Excel files need it.
  const { default: ExcelJS } = await import('exceljs');
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  const sheet = book.addWorksheet(sheetNameOf(sheetName));
  let input: EntryInput | undefined;
  return {
    addRow: async (cells) => {
      sheet.addRow(cells.map(cellValue)).commit();
      input ??= entryInputOf(sheet);
      if ((input?._writableState?.length ?? 0) > MAX_BACKLOG) await drainedOrGone(input as EntryInput, out);
    },
    finish: async () => {
      sheet.commit();
      await book.commit();
    },
  };
}
