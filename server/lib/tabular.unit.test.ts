import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import { numberText, openTable, spoolToFile, TABLE_LIMITS, TableError, type TableRow } from './tabular.js';
import { zip } from '../../tests/support/zip.js';
import { tableBytes } from './tableFile.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'casebook-tabular-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function file(content: string | Uint8Array): string {
  const p = path.join(dir, `f${++n}`);
  writeFileSync(p, content);
  return p;
}

async function all(rows: AsyncIterable<TableRow>): Promise<TableRow[]> {
  const out: TableRow[] = [];
  for await (const row of rows) out.push(row);
  return out;
}

async function read(p: string, limits?: Parameters<typeof openTable>[1]) {
  const table = await openTable(p, limits);
  return { ...table, data: await all(table.rows()) };
}

/** The TableError a promise rejects with (fails when it resolves or throws something else). */
async function refusal(promise: Promise<unknown>): Promise<TableError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TableError);
  return error as TableError;
}

async function xlsxFile(build: (wb: ExcelJS.Workbook) => void): Promise<string> {
  const wb = new ExcelJS.Workbook();
  build(wb);
  const p = path.join(dir, `f${++n}.bin`);
  await wb.xlsx.writeFile(p);
  return p;
}

describe('CSV', () => {
  it('drops a UTF-8 BOM and reads UTF-8', async () => {
    const t = await read(file('\uFEFFname,city\r\nJosé,Bogotá\r\n'));
    expect(t).toMatchObject({ kind: 'csv', encoding: 'utf-8', header: ['name', 'city'] });
    expect(t.data).toEqual([{ line: 2, cells: ['José', 'Bogotá'] }]);
  });

  it('reads a file that is not UTF-8 as windows-1252 (Excel on Windows), never as U+FFFD', async () => {
    const bytes = Buffer.concat([Buffer.from('nombre;ciudad;valor\nJosé Núñez;Bogotá;', 'latin1'), Buffer.from([0x80, 0x35, 0x0a])]);
    const t = await read(file(bytes));
    expect(t.encoding).toBe('windows-1252');
    expect(t.header).toEqual(['nombre', 'ciudad', 'valor']);
    expect(t.data).toEqual([{ line: 2, cells: ['José Núñez', 'Bogotá', '€5'] }]);
  });

  it('refuses UTF-16 without a BOM, and a NUL later on, with the line', async () => {
    expect(await refusal(openTable(file(Buffer.from('name,city\nAna,Cali\n', 'utf16le'))))).toMatchObject({ reason: 'encoding', line: 1 });
    expect(await refusal(openTable(file('a,b\n1,2\n3,x\u0000y\n')))).toMatchObject({ reason: 'encoding', line: 3 });
    // Past the first 64 KiB the first pass finds it.
    const long = `a,b\n${'1,2\n'.repeat(20_000)}3,\u0000\n`;
    expect(await refusal(openTable(file(long)))).toMatchObject({ reason: 'encoding', line: 20_002 });
  });

  it('refuses UTF-16 with a BOM (the import reads UTF-8 and windows-1252)', async () => {
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a\tb\r\n1\t2\r\n', 'utf16le')]);
    expect(await refusal(openTable(file(bytes)))).toMatchObject({ reason: 'encoding', line: 1 });
  });

  it('reads semicolon and tab files, and commas win over both', async () => {
    expect((await read(file('a;b\n1,5;2\n'))).data).toEqual([{ line: 2, cells: ['1,5', '2'] }]);
    expect((await read(file('a\tb\n1;x\t2,y\n'))).data).toEqual([{ line: 2, cells: ['1;x', '2,y'] }]);
    expect((await read(file('a,b;c\n1,2;3\n'))).header).toEqual(['a', 'b;c']);
  });

  it('reads quoted cells with delimiters, quotes and line breaks, and keeps later line numbers exact', async () => {
    const text = 'id,note\n1,"two\nlines"\n2,"three\r\nline\r\nnote"\r\n\n3,"He said ""hi"", ok"\n4,last';
    expect((await read(file(text))).data).toEqual([
      { line: 2, cells: ['1', 'two\nlines'] },
      { line: 4, cells: ['2', 'three\r\nline\r\nnote'] },
      { line: 8, cells: ['3', 'He said "hi", ok'] },
      { line: 9, cells: ['4', 'last'] },
    ]);
  });

  it('keeps cells that look like formulas or numbers as the text written', async () => {
    const t = await read(file('a,b,c,d,e\n=1+2,+34 600,@x,-5,"=HYPERLINK(""http://x"")"\n'));
    expect(t.data[0]?.cells).toEqual(['=1+2', '+34 600', '@x', '-5', '=HYPERLINK("http://x")']);
  });

  it('skips empty lines and rows whose cells are all empty; rows keep their own length', async () => {
    const t = await read(file('\n a , b \n\n,\n1\n  ,  \n1,2,3\r\n\r\n'));
    expect(t.header).toEqual(['a', 'b']);
    expect(t.data).toEqual([
      { line: 5, cells: ['1'] },
      { line: 7, cells: ['1', '2', '3'] },
    ]);
  });

  it('refuses an unterminated quote with the line where the quoted cell began', async () => {
    expect(await refusal(read(file('a,b\n1,"ok\nstill"\n2,"open\n3,4\n5,6\n')))).toMatchObject({ reason: 'unterminated', line: 4 });
    // The record starts on line 2; its unterminated cell on line 3, after a closed multi-line one.
    expect(await refusal(read(file('a,b,c\n1,"x\ny","open\nz\n')))).toMatchObject({ reason: 'unterminated', line: 3 });
    expect(await refusal(openTable(file('"a,b\n1,2\n')))).toMatchObject({ reason: 'unterminated', line: 1 });
  });

  it('reads a header only as zero rows, and refuses an empty file', async () => {
    expect(await read(file('a,b\r\n'))).toMatchObject({ header: ['a', 'b'], data: [] });
    expect(await refusal(openTable(file('')))).toMatchObject({ reason: 'empty' });
    expect(await refusal(openTable(file('\n \r\n,,\n')))).toMatchObject({ reason: 'empty' });
  });

  it('refuses empty and repeated header names, but not trailing empty cells', async () => {
    expect(await refusal(openTable(file('a,,b\n1,2,3\n')))).toMatchObject({ reason: 'badHeader', line: 1 });
    expect(await refusal(openTable(file('a,b, a\n1,2,3\n')))).toMatchObject({ reason: 'badHeader', line: 1 });
    expect((await read(file('a,b,,\n1,2,,\n'))).header).toEqual(['a', 'b']);
  });

  it('refuses more columns than the limit in the header or a row, with the line', async () => {
    expect(await refusal(openTable(file('a,b,c,d\n'), { maxColumns: 3 }))).toMatchObject({ reason: 'tooManyColumns', line: 1 });
    expect(await refusal(read(file('a,b,c\n1,2,3\n\n1,2,3,4\n'), { maxColumns: 3 }))).toMatchObject({ reason: 'tooManyColumns', line: 4 });
    // Empty cells at the end do not count.
    expect((await read(file('a,b,c\n1,2,3,,,,\n'), { maxColumns: 3 })).data).toEqual([{ line: 2, cells: ['1', '2', '3'] }]);
  });

  it('refuses more rows than the limit when the next row is met', async () => {
    const t = await openTable(file('a\n1\n2\n\n3\n'), { maxRows: 2 });
    const seen: number[] = [];
    const error = await refusal(
      (async () => {
        for await (const row of t.rows()) seen.push(row.line);
      })(),
    );
    expect(error).toMatchObject({ reason: 'tooManyRows', line: 5, limit: 2 });
    expect(seen).toEqual([2, 3]);
    expect((await read(file('a\n1\n2\n'), { maxRows: 2 })).data).toHaveLength(2);
  });

  it('reads the file again on each rows() call', async () => {
    const t = await openTable(file('a\n1\n2\n'));
    expect(await all(t.rows())).toEqual(await all(t.rows()));
  });
});

describe('kind by content', () => {
  it('refuses PDFs, images, binaries and zips that are not workbooks', async () => {
    let seed = 7;
    const random = Buffer.from(Array.from({ length: 4096 }, () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) & 0xff));
    for (const bytes of [
      Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n', 'latin1'),
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]),
      Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x10, 0x4a, 0x46, 0x49, 0x46]),
      random,
      zip([['notes.txt', 'a,b\n1,2\n']]),
      zip([['[Content_Types].xml', '<Types/>'], ['word/document.xml', '<w:document/>']]),
    ]) {
      expect(await refusal(openTable(file(bytes)))).toMatchObject({ reason: 'notTable' });
    }
  });

  it('takes a file named anything as what its content is', async () => {
    const p = path.join(dir, 'upload.csv');
    writeFileSync(p, await tableBytes('xlsx', ['a'], [['x']]));
    expect((await openTable(p)).kind).toBe('xlsx');
  });
});

describe('Excel', () => {
  it('reads numbers, dates, booleans, rich text, links, formulas (their cached result) and errors as text', async () => {
    const p = await xlsxFile((wb) => {
      const ws = wb.addWorksheet('Casos');
      ws.addRow(['text', 'int', 'decimal', 'date', 'datetime', 'bool', 'rich', 'link', 'formula', 'textFormula', 'noResult', 'error']);
      ws.addRow([
        '=1+2',
        42,
        0.1 + 0.2,
        new Date(Date.UTC(2024, 0, 15)),
        new Date(Date.UTC(2024, 0, 15, 13, 45, 30)),
        true,
        { richText: [{ text: 'Ho' }, { text: 'la', font: { bold: true } }] },
        { text: 'site', hyperlink: 'https://example.org' },
        { formula: 'B2*2', result: 84 },
        { formula: 'A2&"x"', result: 'abc' },
        { formula: 'B2+1' },
        { error: '#N/A' },
      ]);
      ws.addRow([]);
      ws.addRow(['+34 600', 1e-7, 12345678901234, false, '-5']);
      ws.addRow([null, null, 'C5']);
    });
    const t = await read(p);
    expect(t).toMatchObject({ kind: 'xlsx', encoding: null });
    expect(t.header).toEqual(['text', 'int', 'decimal', 'date', 'datetime', 'bool', 'rich', 'link', 'formula', 'textFormula', 'noResult', 'error']);
    expect(t.data).toEqual([
      { line: 2, cells: ['=1+2', '42', '0.3', '2024-01-15', '2024-01-15T13:45:30', 'true', 'Hola', 'site', '84', 'abc', '', ''] },
      { line: 4, cells: ['+34 600', '0.0000001', '12345678901234', 'false', '-5'] },
      { line: 5, cells: ['', '', 'C5'] },
    ]);
  });

  it('gives a date-formatted formula result as a date', async () => {
    const p = await xlsxFile((wb) => {
      const ws = wb.addWorksheet('S');
      ws.addRow(['due']);
      ws.getCell('A2').value = { formula: 'TODAY()', result: 45_306 } as ExcelJS.CellFormulaValue;
      ws.getCell('A2').numFmt = 'yyyy-mm-dd';
    });
    expect((await read(p)).data).toEqual([{ line: 2, cells: ['2024-01-15'] }]);
  });

  it('reads the first worksheet only', async () => {
    const p = await xlsxFile((wb) => {
      wb.addWorksheet('First').addRows([['a'], ['1']]);
      wb.addWorksheet('Second').addRows([['b'], ['2']]);
    });
    expect(await read(p)).toMatchObject({ header: ['a'], data: [{ line: 2, cells: ['1'] }] });
  });

  it('applies the header checks and the limits to sheets', async () => {
    const repeated = await xlsxFile((wb) => void wb.addWorksheet('S').addRows([['a', 'a'], ['1', '2']]));
    expect(await refusal(openTable(repeated))).toMatchObject({ reason: 'badHeader', line: 1 });
    const wide = await xlsxFile((wb) => void wb.addWorksheet('S').addRows([['a'], [], ['1', '2']]));
    expect(await refusal(read(wide, { maxColumns: 1 }))).toMatchObject({ reason: 'tooManyColumns', line: 3 });
    const long = await xlsxFile((wb) => void wb.addWorksheet('S').addRows([['a'], ['1'], ['2']]));
    expect(await refusal(read(long, { maxRows: 1 }))).toMatchObject({ reason: 'tooManyRows', line: 3, limit: 1 });
    const empty = await xlsxFile((wb) => void wb.addWorksheet('S'));
    expect(await refusal(openTable(empty))).toMatchObject({ reason: 'empty' });
  });

  it('reads workbooks whose sheet precedes its strings (kept aside by exceljs) and leaves no temporary file when stopped early', async () => {
    const ours = () => readdirSync(os.tmpdir()).filter((f) => f.startsWith(`tmp-${process.pid}-`));
    const before = ours().length;
    // server/lib/xlsx.ts writes the sheet as its rows come, before the workbook's other parts: exceljs copies it aside first.
    const p = file(await tableBytes('xlsx', ['code', 'name'], [['A1', 'Ana'], [2, true], ['=SUM(1)', null]]));
    const t = await read(p);
    expect(t.header).toEqual(['code', 'name']);
    expect(t.data).toEqual([
      { line: 2, cells: ['A1', 'Ana'] },
      { line: 3, cells: ['2', 'true'] },
      // The writer neutralises what a spreadsheet would run: the quote is part of the text written.
      { line: 4, cells: ["'=SUM(1)"] },
    ]);
    for await (const row of (await openTable(p)).rows()) if (row) break;
    expect(ours().length).toBe(before);
  });

  it('refuses a damaged workbook as not a table', async () => {
    const good = readFileSync(await xlsxFile((wb) => void wb.addWorksheet('S').addRows([['a'], ['1']])));
    // The zip's directory stays (so it is taken for a workbook), the entries' data is overwritten.
    const broken = Buffer.from(good);
    broken.fill(0x41, 200, broken.length - 2000);
    expect(await refusal(read(file(broken)))).toMatchObject({ reason: 'notTable' });
  });
});

describe('spoolToFile', () => {
  it('writes a stream to a new file in a directory it creates', async () => {
    const target = path.join(dir, 'spool', 'nested');
    const spooled = await spoolToFile(Readable.from([Buffer.from('a,b\n'), Buffer.from('1,2\n')]), target);
    expect(spooled.bytes).toBe(8);
    expect(readFileSync(spooled.path, 'utf8')).toBe('a,b\n1,2\n');
    expect(path.dirname(spooled.path)).toBe(target);
  });

  it('refuses past maxBytes and leaves no file behind', async () => {
    const target = path.join(dir, 'spool-refused');
    async function* chunks() {
      for (let i = 0; i < 100; i++) yield new Uint8Array(1024);
    }
    expect(await refusal(spoolToFile(chunks(), target, 10_000))).toMatchObject({ reason: 'tooLarge', limit: 10_000 });
    expect(readdirSync(target)).toEqual([]);
    expect(TABLE_LIMITS.maxBytes).toBe(200 * 1024 * 1024);
  });

  it('removes the partial file when the upload fails', async () => {
    const target = path.join(dir, 'spool-failed');
    async function* chunks() {
      yield new Uint8Array(10);
      throw new Error('connection reset');
    }
    await expect(spoolToFile(chunks(), target)).rejects.toThrow('connection reset');
    expect(existsSync(target) ? readdirSync(target) : []).toEqual([]);
  });
});

describe('numberText', () => {
  it('writes plain decimals as Excel shows them', () => {
    expect([42, -5, 0.5, 1e21, 1.5e-10, -2.5e-7, 123456789012345680000, 0.1 + 0.2, 100].map(numberText)).toEqual([
      '42', '-5', '0.5', '1000000000000000000000', '0.00000000015', '-0.00000025', '123456789012346000000', '0.3', '100',
    ]);
  });
});
