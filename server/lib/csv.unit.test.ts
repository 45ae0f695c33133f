import { describe, expect, it } from 'vitest';
import { CsvError, csvCell, csvRecords, decodeCsv, parseCsv, toCsv } from './csv.js';

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
  it.each(['=SUM(A1)', '+1', '-1+1', '@cmd', '\tx', '\rx'])('neutralises the formula %j', (value) => {
    const cell = csvCell(value);
    expect(cell.replace(/^"/, '')).toMatch(/^'/);
  });

  it('quotes what needs it and round-trips', () => {
    const text = toCsv(['a', 'b'], [['x, y', 'say "hi"'], [null, 3]]);
    expect(text.startsWith('\uFEFF')).toBe(true);
    expect(parseCsv(text)).toEqual([['a', 'b'], ['x, y', 'say "hi"'], ['', '3']]);
  });
});
