import { PassThrough, Writable } from 'node:stream';
import v8 from 'node:v8';
import vm from 'node:vm';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { parseCsv } from './csv.js';
import { type Cell, tableBytes, type TableFormat, tableWriter } from './tableFile.js';

// A full collection on demand, to measure what stays referenced.
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const HEADER = ['number', 'applicant', 'rent', 'eligible', 'note'];
const row = (i: number): Cell[] => [`2026-11-${String(i).padStart(6, '0')}`, `Nombre ${i} Núñez`, 500 + (i % 900) + 0.5, i % 3 === 0, i % 50 === 0 ? '=cmd|"/C calc"!A0' : `nota, "con" comillas ${i}`];

/** A stream that takes bytes and keeps only their count (and, when asked, the bytes). */
function sink(options: { keep?: boolean } = {}) {
  const chunks: Buffer[] = [];
  let bytes = 0;
  let held: Array<() => void> | null = null;
  const out = new Writable({
    highWaterMark: 64 * 1024,
    write(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      if (options.keep) chunks.push(chunk);
      if (held) held.push(done);
      else done();
    },
  });
  return {
    out,
    bytes: () => bytes,
    content: () => Buffer.concat(chunks),
    /** From now on no write completes until `release`. */
    stall: () => {
      held = [];
    },
    release: () => {
      const waiting = held ?? [];
      held = null;
      for (const done of waiting) done();
    },
  };
}

/** The rows of a workbook, read back with exceljs's streaming reader (as the import reads uploads). */
async function workbookRows(bytes: Buffer): Promise<unknown[][]> {
  const input = new PassThrough();
  input.end(bytes);
  const rows: unknown[][] = [];
  for await (const sheet of new ExcelJS.stream.xlsx.WorkbookReader(input, { worksheets: 'emit', sharedStrings: 'cache' })) {
    for await (const r of sheet as AsyncIterable<ExcelJS.Row>) rows.push((r.values as unknown[]).slice(1));
  }
  return rows;
}

describe.each(['csv', 'xlsx'] as TableFormat[])('%s, written row by row', (format) => {
  it('round-trips the rows with every formula neutralised', async () => {
    const bytes = await tableBytes(format, HEADER, [row(1), row(50), row(3)]);
    const rows = format === 'csv' ? parseCsv(bytes.toString('utf8')) : await workbookRows(bytes);
    const typed = (v: Cell) => (format === 'csv' ? String(v) : v);
    expect(rows).toEqual([
      HEADER,
      ['2026-11-000001', 'Nombre 1 Núñez', typed(501.5), typed(false), 'nota, "con" comillas 1'],
      ['2026-11-000050', 'Nombre 50 Núñez', typed(550.5), typed(false), '\'=cmd|"/C calc"!A0'],
      ['2026-11-000003', 'Nombre 3 Núñez', typed(503.5), typed(true), 'nota, "con" comillas 3'],
    ]);
  });

  it('waits while its stream is behind: a stalled stream stops the rows, releasing it lets them finish', { timeout: 60_000 }, async () => {
    const s = sink({ keep: true });
    const writer = await tableWriter(format, s.out, 'Stalled');
    s.stall();
    let written = 0;
    const total = 40_000;
    const writing = (async () => {
      await writer.row(HEADER);
      for (let i = 1; i <= total; i++) {
        await writer.row(row(i));
        written = i;
      }
      await writer.end();
    })();
    // While nothing gets through, the writer stops well short of the end and stays there.
    await new Promise((r) => setTimeout(r, 300));
    const stalledAt = written;
    await new Promise((r) => setTimeout(r, 300));
    expect(written).toBe(stalledAt);
    expect(stalledAt).toBeLessThan(total / 2);
    s.release();
    await writing;
    expect(written).toBe(total);
    const rows = format === 'csv' ? parseCsv(s.content().toString('utf8'), { maxRows: total + 1 }) : await workbookRows(s.content());
    expect(rows).toHaveLength(total + 1);
    expect(rows[total]?.[0]).toBe(`2026-11-0${total}`);
  });

  it('streams 100,000 rows holding no more than a few megabytes', { timeout: 120_000 }, async () => {
    const s = sink();
    // Buffers still referenced (waiting in the streams) after a full collection: garbage not yet collected does not count.
    const live = () => {
      gc();
      return process.memoryUsage().arrayBuffers;
    };
    const before = live();
    let peak = 0;
    const writer = await tableWriter(format, s.out);
    await writer.row(HEADER);
    for (let i = 1; i <= 100_000; i++) {
      await writer.row(row(i));
      if (i % 10_000 === 0) peak = Math.max(peak, live() - before);
    }
    await writer.end();
    // Far less than the file: the CSV is some 6 MB, the uncompressed sheet XML some 20 MB (without waiting, 28 MB piled up).
    expect(s.bytes()).toBeGreaterThan(1_000_000);
    expect(peak).toBeLessThan(10 * 1024 * 1024);
  });
});

it('a stream that fails stops the writer with its error', async () => {
  for (const format of ['csv', 'xlsx'] as TableFormat[]) {
    const out = new Writable({
      write(_chunk, _encoding, done) {
        done(new Error('disk full'));
      },
    });
    const writer = await tableWriter(format, out);
    const run = async () => {
      for (let i = 0; i < 200_000; i++) await writer.row(row(i));
      await writer.end();
    };
    await expect(run(), format).rejects.toThrow('disk full');
  }
});
