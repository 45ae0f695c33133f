import { describe, expect, it } from 'vitest';
import { CsvError, csvRecords, csvStream, decodeCsv, parseCsv, toCsv } from './csv.js';

describe('parseCsv', () => {
  it('reads quotes, embedded commas, quotes and line breaks', () => {
    expect(parseCsv('code,name\r\n1,"Bogotá, D.C."\r\n2,"He said ""hi"""\n3,"two\nlines"\n')).toEqual([
      ['code', 'name'], ['1', 'Bogotá, D.C.'], ['2', 'He said "hi"'], ['3', 'two\nlines'],
    ]);
  });

  it('drops a BOM and blank lines, and reads semicolon files', () => {
    expect(parseCsv('\uFEFFa;b\n\n1;2\n')).toEqual([['a', 'b'], ['1', '2']]);
  });

  it('refuses an unterminated quote with its line, an empty file, and too much', () => {
    expect(() => parseCsv('a,b\n1,"open\n2,3')).toThrow(new CsvError('unterminated', 2));
    expect(() => parseCsv('')).toThrow(CsvError);
    expect(() => parseCsv('a\n1\n2\n3', { maxRows: 2 })).toThrow(/tooManyRows/);
    expect(() => parseCsv('a,b,c', { maxColumns: 2 })).toThrow(/tooManyColumns/);
  });

  it('refuses bytes that are not UTF-8 instead of guessing', () => {
    const latin1 = new Uint8Array([0x63, 0x6f, 0x64, 0x65, 0x0a, 0x42, 0x6f, 0x67, 0x6f, 0x74, 0xe1]); // "Bogotá" in Latin-1
    expect(() => decodeCsv(latin1)).toThrow(/encoding/);
    expect(decodeCsv(new TextEncoder().encode('\uFEFFcódigo'))).toBe('código');
  });

  it('refuses a NUL, which is no text (UTF-16 without its mark) and which PostgreSQL cannot store', () => {
    expect(() => decodeCsv(new TextEncoder().encode('code,name\nA,a\u0000b\n'))).toThrow(/encoding/);
    const utf16 = new Uint8Array([...'code'].flatMap((c) => [c.charCodeAt(0), 0]));
    expect(() => decodeCsv(utf16)).toThrow(/encoding/);
  });

  it('maps rows to records by header', () => {
    expect(csvRecords(parseCsv(' code , name\n1,Uno\n2'))).toEqual({ header: ['code', 'name'], records: [{ code: '1', name: 'Uno' }, { code: '2', name: '' }] });
  });
});

describe('writing', () => {
  it.each(['=SUM(A1)', '+1', '-1+1', '@cmd', '\tx', '\rx', '=HYPERLINK("http://x","y")'])('neutralises the formula %j', (value) => {
    const [, [cell]] = parseCsv(toCsv(['a'], [[value]]));
    expect(cell).toBe(`'${value}`);
  });

  it('neutralises the text of numbers too (CSV has no types), and writes dates, booleans and empties plainly', () => {
    const text = toCsv(['n', 'm', 'when', 'yes', 'no', 'none', 'missing'], [[-12.5, 700, new Date('2026-11-24T10:00:00Z'), true, false, null, undefined]]);
    expect(parseCsv(text)[1]).toEqual(["'-12.5", '700', '2026-11-24T10:00:00.000Z', 'true', 'false', '', '']);
  });

  it('quotes what needs it (commas, quotes, line breaks, semicolons), writes CRLF rows after a BOM, and round-trips', () => {
    const rows = [['x, y', 'say "hi"', 'two\nlines', 'a;b'], [null, 3, 'Bogotá', '']];
    const text = toCsv(['a', 'b', 'c', 'd'], rows);
    expect(text.startsWith('\uFEFFa,b,c,d\r\n')).toBe(true);
    expect(text).toContain('"x, y","say ""hi""","two\nlines","a;b"\r\n');
    expect(parseCsv(text)).toEqual([['a', 'b', 'c', 'd'], ['x, y', 'say "hi"', 'two\nlines', 'a;b'], ['', '3', 'Bogotá', '']]);
  });

  it('streams rows with the same rules: one BOM, each row as it comes', async () => {
    const csv = csvStream();
    const chunks: string[] = [];
    csv.on('data', (chunk: Buffer | string) => chunks.push(String(chunk)));
    const ended = new Promise((resolve) => csv.on('end', resolve));
    csv.write(['number', 'note']);
    for (let i = 0; i < 3; i++) csv.write([`2026-11-00000${i}`, i === 1 ? '@evil' : 'ok']);
    csv.end();
    await ended;
    const text = chunks.join('');
    expect(text.match(/\uFEFF/g)).toHaveLength(1);
    expect(parseCsv(text)).toEqual([['number', 'note'], ['2026-11-000000', 'ok'], ['2026-11-000001', "'@evil"], ['2026-11-000002', 'ok']]);
  });
});
