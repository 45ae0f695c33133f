/**
 * A table written as a file, CSV (lib/csv.ts) or Excel (lib/xlsx.ts), row by
 * row to a stream, waiting whenever the stream is behind: an export of any
 * length holds a few rows and the stream's buffer, never the file. Every
 * cell goes through the formats' formula guard.
 */
import { once } from 'node:events';
import { PassThrough, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { csvStream } from './csv.js';
import { type Cell, xlsxWriter } from './xlsx.js';

export type { Cell } from './xlsx.js';
export type TableFormat = 'csv' | 'xlsx';

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export const contentTypeOf = (format: TableFormat) => (format === 'csv' ? 'text/csv; charset=utf-8' : XLSX_TYPE);

export interface TableWriter {
  /** Writes one row; resolves when the stream may take more. */
  row(cells: Cell[]): Promise<void>;
  /** Ends the file: resolves once the stream has taken its last byte. */
  end(): Promise<void>;
}

/** A writer of one table in `format` to `out` (the first row written is the header). */
export async function tableWriter(format: TableFormat, out: Writable, sheetName = 'Sheet1'): Promise<TableWriter> {
  if (format === 'csv') {
    const csv = csvStream();
    const done = pipeline(csv, out);
    // Seen here and by whoever waits: a failed stream stops the writer at its next row.
    let failure: unknown = null;
    done.catch((e) => {
      failure = e;
    });
    const failed = new Promise<never>((_, reject) => void done.catch(reject));
    failed.catch(() => {});
    return {
      row: async (cells) => {
        if (failure) throw failure;
        if (!csv.write(cells)) await Promise.race([once(csv, 'drain'), failed]);
      },
      end: async () => {
        csv.end();
        await done;
      },
    };
  }
  const sheet = await xlsxWriter(out, sheetName);
  let failure: unknown = null;
  out.once('error', (e) => {
    failure = e;
  });
  return {
    row: async (cells) => {
      if (failure) throw failure;
      await sheet.addRow(cells);
      if (out.writableNeedDrain) await once(out, 'drain');
    },
    end: () => sheet.finish(),
  };
}

/** A whole (small) table as the bytes of its file. */
export async function tableBytes(format: TableFormat, header: string[], rows: Iterable<Cell[]>, sheetName?: string): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  const writer = await tableWriter(format, out, sheetName);
  await writer.row(header);
  for (const row of rows) await writer.row(row);
  await writer.end();
  return Buffer.concat(chunks);
}
