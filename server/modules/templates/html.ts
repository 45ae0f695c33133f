/**
 * A template body's HTML as it is stored and sent: an allow-list of tags
 * (what the editor makes) and of link schemes, nothing else; and the
 * plain-text part generated from it.
 */
import { convert } from 'html-to-text';
import sanitizeHtml from 'sanitize-html';

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: ['p', 'br', 'strong', 'em', 'u', 'a', 'ul', 'ol', 'li', 'h2', 'h3', 'blockquote'],
  // No style, class, id or on* attribute anywhere; links keep only their address.
  allowedAttributes: { a: ['href'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: {},
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  // script, style, textarea ...: dropped with their content.
  disallowedTagsMode: 'discard',
  transformTags: {
    b: 'strong',
    i: 'em',
    h1: 'h2',
    h4: 'h3',
    a: (tagName, attribs) => {
      const href = (attribs.href ?? '').trim();
      const keep = /^(https?:|mailto:)/i.test(href) || /^\{\{\s*\w+\s*\}\}$/.test(href);
      const kept: sanitizeHtml.Attributes = keep ? { href } : {};
      return { tagName, attribs: kept };
    },
  },
};

export function sanitizeBody(html: string): string {
  return sanitizeHtml(html, SANITIZE);
}

/** The plain-text part: headings kept as written (not upper-cased: that would change `{{caseNumber}}`), no wrapping. */
export function htmlToText(html: string): string {
  return convert(html, {
    wordwrap: false,
    selectors: [
      { selector: 'h2', options: { uppercase: false } },
      { selector: 'h3', options: { uppercase: false } },
      { selector: 'a', options: { hideLinkHrefIfSameAsText: true } },
    ],
  }).trim();
}
