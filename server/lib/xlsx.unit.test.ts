import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { crc32, inflateRawSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { columnName, toXlsx } from './xlsx.js';

/** Reads a zip through its central directory, checking every CRC. */
function unzip(bytes: Buffer): Map<string, string> {
  const end = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = bytes.readUInt16LE(end + 10);
  let at = bytes.readUInt32LE(end + 16);
  const files = new Map<string, string>();
  for (let i = 0; i < count; i++) {
    expect(bytes.readUInt32LE(at)).toBe(0x02014b50);
    const crc = bytes.readUInt32LE(at + 16);
    const packedSize = bytes.readUInt32LE(at + 20);
    const nameLength = bytes.readUInt16LE(at + 28);
    const localAt = bytes.readUInt32LE(at + 42);
    const name = bytes.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    const dataAt = localAt + 30 + bytes.readUInt16LE(localAt + 26) + bytes.readUInt16LE(localAt + 28);
    const raw = inflateRawSync(bytes.subarray(dataAt, dataAt + packedSize));
    expect(crc32(raw), name).toBe(crc);
    files.set(name, raw.toString('utf8'));
    at += 46 + nameLength;
  }
  return files;
}

describe('toXlsx', () => {
  test('column names run A..Z, AA..', () => {
    expect([0, 25, 26, 27, 51, 52, 701, 702].map(columnName)).toEqual(['A', 'Z', 'AA', 'AB', 'AZ', 'BA', 'ZZ', 'AAA']);
  });

  test('a workbook with the parts Excel needs; numbers, booleans and text typed; formulas neutralised; XML escaped', () => {
    const book = toXlsx(['number', 'rent', 'eligible', 'note'], [
      ['2026-11-000001', 700, true, '=HYPERLINK("http://x","y")'],
      ['2026-11-000002', -12.5, false, 'Tom & Jerry <b> "quoted"\u0001'],
      ['2026-11-000003', null, undefined, '@SUM(A1)'],
    ], 'Cases: all');
    const files = unzip(book);
    expect([...files.keys()]).toEqual(['[Content_Types].xml', '_rels/.rels', 'xl/workbook.xml', 'xl/_rels/workbook.xml.rels', 'xl/worksheets/sheet1.xml']);
    expect(files.get('xl/workbook.xml')).toContain('<sheet name="Cases  all"');
    const sheet = files.get('xl/worksheets/sheet1.xml') as string;
    expect(sheet).toContain('<c r="A1" t="inlineStr"><is><t xml:space="preserve">number</t></is></c>');
    expect(sheet).toContain('<c r="B2"><v>700</v></c>');
    expect(sheet).toContain('<c r="C2" t="b"><v>1</v></c>');
    expect(sheet).toContain('<c r="B3"><v>-12.5</v></c>');
    expect(sheet).toContain('<t xml:space="preserve">\'=HYPERLINK(&quot;http://x&quot;,&quot;y&quot;)</t>');
    expect(sheet).toContain('<t xml:space="preserve">Tom &amp; Jerry &lt;b&gt; &quot;quoted&quot;</t>');
    expect(sheet).toContain('<t xml:space="preserve">\'@SUM(A1)</t>');
    // Empty cells are left out, not written as empty strings.
    expect(sheet).toContain('<row r="4"><c r="A4" t="inlineStr"><is><t xml:space="preserve">2026-11-000003</t></is></c><c r="D4"');
  });

  test('Info-ZIP reads the archive without an error', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'xlsx-'));
    const file = path.join(dir, 'book.xlsx');
    writeFileSync(file, toXlsx(['a'], Array.from({ length: 2000 }, (_, i) => [`row ${i}`])));
    expect(execFileSync('unzip', ['-t', file], { encoding: 'utf8' })).toContain('No errors detected');
  });
});
