import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, test } from 'vitest';
import { tableBytes } from './tableFile.js';
import { sheetNameOf } from './xlsx.js';

const dir = mkdtempSync(path.join(tmpdir(), 'xlsx-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The workbook read back by exceljs (as Excel would open it): the sheet's name and its rows' values. */
async function readBack(bytes: Buffer): Promise<{ name: string; rows: unknown[][] }> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes as never);
  const sheet = book.worksheets[0] as ExcelJS.Worksheet;
  const rows: unknown[][] = [];
  sheet.eachRow({ includeEmpty: true }, (row) => {
    rows.push((row.values as unknown[]).slice(1));
  });
  return { name: sheet.name, rows };
}

describe('Excel files (exceljs streaming writer)', () => {
  test('a workbook Excel reads: numbers and booleans typed, formulas neutralised, text escaped, empty cells left empty', async () => {
    const book = await tableBytes('xlsx', ['number', 'rent', 'eligible', 'note', 'when'], [
      ['2026-11-000001', 700, true, '=HYPERLINK("http://x","y")', new Date('2026-11-24T10:00:00Z')],
      ['2026-11-000002', -12.5, false, 'Tom & Jerry <b> "quoted"\u0001', null],
      ['2026-11-000003', null, undefined, '@SUM(A1)', undefined],
      ['2026-11-000004', Number.NaN, null, '-1+1', null],
    ], 'Cases: all');
    expect(book.subarray(0, 2).toString()).toBe('PK');
    const { name, rows } = await readBack(book);
    expect(name).toBe('Cases  all');
    expect(rows).toEqual([
      ['number', 'rent', 'eligible', 'note', 'when'],
      ['2026-11-000001', 700, true, '\'=HYPERLINK("http://x","y")', '2026-11-24T10:00:00.000Z'],
      // A character XML cannot hold is dropped; &, < and quotes come back as written.
      ['2026-11-000002', -12.5, false, 'Tom & Jerry <b> "quoted"'],
      ['2026-11-000003', undefined, undefined, "'@SUM(A1)"],
      ['2026-11-000004', undefined, undefined, "'-1+1"],
    ]);
  });

  test('cuts a cell at Excel’s 32,767 characters and names sheets as Excel allows', async () => {
    const { rows } = await readBack(await tableBytes('xlsx', ['long'], [['x'.repeat(40_000)]]));
    expect((rows[1]?.[0] as string).length).toBe(32_767);
    expect(sheetNameOf('a/b\\c?d*e[f]g:h')).toBe('a b c d e f g h');
    expect(sheetNameOf('x'.repeat(40))).toHaveLength(31);
    expect(sheetNameOf('::')).toBe('Sheet1');
  });

  test('Info-ZIP reads the archive without an error', async () => {
    const file = path.join(dir, 'book.xlsx');
    writeFileSync(file, await tableBytes('xlsx', ['a'], Array.from({ length: 2000 }, (_, i) => [`row ${i}`])));
    expect(execFileSync('unzip', ['-t', file], { encoding: 'utf8' })).toContain('No errors detected');
  });
});
