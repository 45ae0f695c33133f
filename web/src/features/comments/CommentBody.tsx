import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import type { SxProps, Theme } from '@mui/material/styles';

/** http(s) addresses in a comment; what follows the address (a space, a quote, an angle bracket) ends it. */
const URL_PATTERN = /\bhttps?:\/\/[^\s<>"']+/gi;
/** Punctuation that ends a sentence rather than the address ("see https://x.test/a."). */
const TRAILING = /[.,;:!?)\]}]+$/;

export type BodyPart = { kind: 'text'; text: string } | { kind: 'link'; href: string };

/** A comment's text cut into plain text and web addresses, in order; nothing in it is ever read as HTML. */
export function splitLinks(body: string): BodyPart[] {
  const parts: BodyPart[] = [];
  let last = 0;
  for (const match of body.matchAll(URL_PATTERN)) {
    const start = match.index;
    let href = match[0];
    const trailing = TRAILING.exec(href)?.[0] ?? '';
    href = href.slice(0, href.length - trailing.length);
    if (!href.replace(/^https?:\/\//i, '')) continue;
    if (start > last) parts.push({ kind: 'text', text: body.slice(last, start) });
    parts.push({ kind: 'link', href });
    last = start + href.length;
  }
  if (last < body.length) parts.push({ kind: 'text', text: body.slice(last) });
  return parts;
}

/**
 * A comment's text as the author typed it: line breaks kept, web addresses
 * made links that open in a new tab without access to this page. React
 * escapes every part, so markup typed in a comment shows as text.
 */
export function CommentBody({ body, sx }: { body: string; sx?: SxProps<Theme> }) {
  return (
    <Typography variant="body2" component="div" sx={[{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }, ...(Array.isArray(sx) ? sx : [sx])]}>
      {splitLinks(body).map((part, index) =>
        part.kind === 'link' ? (
          <Link key={index} href={part.href} target="_blank" rel="noopener noreferrer">
            {part.href}
          </Link>
        ) : (
          <span key={index}>{part.text}</span>
        ),
      )}
    </Typography>
  );
}
