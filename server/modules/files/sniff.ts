/**
 * What a file really is, from its first bytes, and whether that agrees with
 * its extension. A .pdf that is HTML, or an .exe renamed to .jpg, is refused.
 */
export interface Sniffed {
  mime: string;
}

const startsWith = (b: Buffer, sig: number[], offset = 0) => sig.every((byte, i) => b[offset + i] === byte);
const ascii = (b: Buffer, text: string, offset = 0) => b.subarray(offset, offset + text.length).toString('latin1') === text;

const KINDS: Record<string, { mime: string; test: (b: Buffer) => boolean }> = {
  pdf: { mime: 'application/pdf', test: (b) => ascii(b, '%PDF-') },
  png: { mime: 'image/png', test: (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  jpg: { mime: 'image/jpeg', test: (b) => startsWith(b, [0xff, 0xd8, 0xff]) },
  jpeg: { mime: 'image/jpeg', test: (b) => startsWith(b, [0xff, 0xd8, 0xff]) },
  gif: { mime: 'image/gif', test: (b) => ascii(b, 'GIF87a') || ascii(b, 'GIF89a') },
  webp: { mime: 'image/webp', test: (b) => ascii(b, 'RIFF') && ascii(b, 'WEBP', 8) },
  docx: { mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', test: (b) => isZip(b) },
  xlsx: { mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', test: (b) => isZip(b) },
  doc: { mime: 'application/msword', test: (b) => isOle(b) },
  xls: { mime: 'application/vnd.ms-excel', test: (b) => isOle(b) },
  csv: { mime: 'text/csv', test: (b) => isText(b) },
  txt: { mime: 'text/plain', test: (b) => isText(b) },
};

/** Extensions the product stores at all; a form field may accept fewer. */
export const STORABLE_EXTENSIONS = Object.keys(KINDS);

function isZip(b: Buffer) {
  return startsWith(b, [0x50, 0x4b, 0x03, 0x04]);
}
function isOle(b: Buffer) {
  return startsWith(b, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
}
function isText(b: Buffer) {
  if (b.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(b);
  } catch {
    return false;
  }
  // Markup served as text could still be sniffed by an old browser: refuse it.
  return !/^\s*<(?:!doctype|html|script|svg)/i.test(b.subarray(0, 512).toString('utf8'));
}

export function sniff(bytes: Buffer, extension: string): Sniffed | undefined {
  if (bytes.length === 0 || !Object.hasOwn(KINDS, extension)) return undefined;
  const kind = KINDS[extension];
  return kind.test(bytes) ? { mime: kind.mime } : undefined;
}
