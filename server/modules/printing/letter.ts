/**
 * Letters to PDF with pdfmake (docs/decisions.md "Print templates").
 *
 * pdfmake reads nothing from disk or the network here: its fonts are the
 * Roboto files of the package's own virtual file system, loaded once; both
 * access policies refuse every path and URL; the only image is the logo
 * bytes the caller passes. The body is the email templates' sanitised HTML
 * (a small allow-list of tags, no attributes but a link's address), turned
 * into pdfmake's text nodes by the small reader below: no markup or value
 * of a template ever becomes a pdfmake instruction (an image, a file, a
 * link to follow).
 */
import { createRequire } from 'node:module';

interface PdfMakeDocument {
  getBuffer(): Promise<Buffer>;
}
interface PdfMake {
  virtualfs: { writeFileSync(name: string, content: Buffer): void; existsSync(name: string): boolean };
  setFonts(fonts: Record<string, Record<string, string>>): void;
  setUrlAccessPolicy(policy: (url: string) => boolean): void;
  setLocalAccessPolicy(policy: (path: string) => boolean): void;
  createPdf(doc: Record<string, unknown>): PdfMakeDocument;
}

const require = createRequire(import.meta.url);
let ready: PdfMake | undefined;

/** pdfmake, with its fonts in its virtual file system and every file and URL refused. */
function pdfmake(): PdfMake {
  if (ready) return ready;
  const pm = require('pdfmake') as PdfMake;
  const vfs = require('pdfmake/build/vfs_fonts.js') as Record<string, string>;
  for (const [file, base64] of Object.entries(vfs)) pm.virtualfs.writeFileSync(file, Buffer.from(base64, 'base64'));
  pm.setFonts({ Roboto: { normal: 'Roboto-Regular.ttf', bold: 'Roboto-Medium.ttf', italics: 'Roboto-Italic.ttf', bolditalics: 'Roboto-MediumItalic.ttf' } });
  pm.setUrlAccessPolicy(() => false);
  pm.setLocalAccessPolicy(() => false);
  ready = pm;
  return pm;
}

// ---------------------------------------------------------------- HTML (the allow-list's tags) to pdfmake nodes

type Inline = { text: string; bold?: boolean; italics?: boolean; decoration?: 'underline'; color?: string };
type Block = Record<string, unknown>;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', '#39': "'" };
function decode(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+\d*|#39);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** pdfmake blocks from sanitised HTML: paragraphs, headings, lists, quotes; bold, italics, underline, links as text. */
export function htmlToBlocks(html: string): Block[] {
  const blocks: Block[] = [];
  let inline: Inline[] = [];
  const marks = { bold: 0, italics: 0, underline: 0, link: 0 };
  const lists: Array<{ ordered: boolean; items: Block[] }> = [];
  let quote = 0;
  let heading: 'h2' | 'h3' | null = null;

  const flush = () => {
    if (!inline.some((i) => i.text.trim())) {
      inline = [];
      return;
    }
    const list = lists.at(-1);
    if (list) list.items.push({ text: inline });
    else if (heading) blocks.push({ text: inline, style: heading });
    else blocks.push({ text: inline, style: quote ? 'quote' : 'paragraph' });
    inline = [];
  };

  const tokens = html.match(/<\/?[a-z0-9]+[^>]*>|[^<]+/gi) ?? [];
  for (const token of tokens) {
    if (token[0] !== '<') {
      const text = decode(token).replace(/\s+/g, ' ');
      if (!text) continue;
      const node: Inline = { text };
      if (marks.bold) node.bold = true;
      if (marks.italics) node.italics = true;
      if (marks.underline || marks.link) node.decoration = 'underline';
      if (marks.link) node.color = '#1a4f9c';
      inline.push(node);
      continue;
    }
    const closing = token[1] === '/';
    const tag = /^<\/?([a-z0-9]+)/i.exec(token)?.[1].toLowerCase() ?? '';
    const step = closing ? -1 : 1;
    switch (tag) {
      case 'strong': case 'b': marks.bold = Math.max(0, marks.bold + step); break;
      case 'em': case 'i': marks.italics = Math.max(0, marks.italics + step); break;
      case 'u': marks.underline = Math.max(0, marks.underline + step); break;
      case 'a': marks.link = Math.max(0, marks.link + step); break;
      case 'br': inline.push({ text: '\n' }); break;
      case 'p': case 'li': flush(); break;
      case 'h2': case 'h3': flush(); heading = closing ? null : tag; break;
      case 'blockquote': flush(); quote = Math.max(0, quote + step); break;
      case 'ul': case 'ol':
        flush();
        if (!closing) lists.push({ ordered: tag === 'ol', items: [] });
        else {
          const list = lists.pop();
          if (list && list.items.length) {
            const block = { [list.ordered ? 'ol' : 'ul']: list.items, style: 'list' };
            const parent = lists.at(-1);
            if (parent) parent.items.push(block);
            else blocks.push(block);
          }
        }
        break;
      default: break;
    }
  }
  flush();
  return blocks;
}

// ---------------------------------------------------------------- the document

export interface LetterInput {
  title: string;
  /** The tenant project's name beside the logo. */
  header: string;
  /** The logo's bytes (PNG or JPEG), or none. */
  logo?: { bytes: Buffer; mime: string } | null;
  /** pdfmake blocks (htmlToBlocks, or the complete application's tables). */
  content: Block[];
  /** "Page {{page}} of {{pages}}" in the reader's language. */
  pageLabel: (page: number, pages: number) => string;
  language: 'en' | 'es';
}

const LOGO_TYPES = new Set(['image/png', 'image/jpeg']);

export async function renderLetter(input: LetterInput): Promise<Buffer> {
  const logo = input.logo && LOGO_TYPES.has(input.logo.mime) ? `data:${input.logo.mime};base64,${input.logo.bytes.toString('base64')}` : null;
  const headerColumns: Block[] = [];
  if (logo) headerColumns.push({ image: 'logo', fit: [120, 40], width: 'auto' });
  headerColumns.push({ text: input.header, style: 'header', margin: [logo ? 12 : 0, 12, 0, 0] });
  const doc = {
    info: { title: input.title, creator: 'Casebook' },
    language: input.language,
    pageSize: 'LETTER',
    pageMargins: [56, 80, 56, 56],
    header: { columns: headerColumns, margin: [56, 24, 56, 0] },
    footer: (page: number, pages: number) => ({ text: input.pageLabel(page, pages), alignment: 'right', margin: [56, 16, 56, 0], fontSize: 8, color: '#555555' }),
    images: logo ? { logo } : {},
    content: [{ text: input.title, style: 'title' }, ...input.content],
    defaultStyle: { font: 'Roboto', fontSize: 10.5, lineHeight: 1.2 },
    styles: {
      header: { fontSize: 12, bold: true, color: '#333333' },
      title: { fontSize: 16, bold: true, margin: [0, 0, 0, 12] },
      h2: { fontSize: 13, bold: true, margin: [0, 10, 0, 4] },
      h3: { fontSize: 11.5, bold: true, margin: [0, 8, 0, 3] },
      paragraph: { margin: [0, 0, 0, 8] },
      quote: { margin: [16, 0, 0, 8], italics: true, color: '#444444' },
      list: { margin: [0, 0, 0, 8] },
      section: { fontSize: 12.5, bold: true, margin: [0, 14, 0, 6] },
      label: { bold: true, color: '#333333' },
      muted: { color: '#666666' },
    },
  };
  return pdfmake().createPdf(doc).getBuffer();
}
