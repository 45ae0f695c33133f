/**
 * Email templates' placeholders: the catalogue a template may name, the
 * check made at save (server) and while typing (browser), and the
 * substitution.
 *
 * The `mustache` package only PARSES. Its renderer looks names up on the
 * view object, walks dotted paths and calls any function it finds there
 * (`{{constructor}}` reaches Object's constructor, lambdas run code), and
 * sections, partials and set-delimiters make a template a small program.
 * Here a template is plain text and `{{name}}` variables from the catalogue,
 * nothing else; the substitution is ours, over the parsed tokens, from a
 * null-prototype map of strings. No code from a template is ever run
 * (docs/decisions.md: "Email templates: logic-less by construction").
 */
import Mustache from 'mustache';

/** Every placeholder a template may use. Labels: `templates.placeholders.<name>` in the i18n files. */
export const PLACEHOLDERS = [
  'recipientName',
  'caseNumber',
  'caseState',
  'applicantName',
  'applicantFirstName',
  'applicantLastName',
  'applicantEmail',
  'taskName',
  'dueDate',
  'responsibleName',
  'teamName',
  'reason',
  'comment',
  'mentionedBy',
  'recordLink',
  'programTitle',
  'supportPhone',
  'supportEmail',
  'taskList',
  'count',
  'fileName',
  // Issue 23: the party's role in the case (landlord, utility ...), in the mail's language.
  'partyRole',
] as const;
export type PlaceholderName = (typeof PLACEHOLDERS)[number];
const KNOWN: ReadonlySet<string> = new Set(PLACEHOLDERS);

export function isPlaceholder(name: string): name is PlaceholderName {
  return KNOWN.has(name);
}

/** What a template may not contain, each with an i18n key `templates.problems.<kind>`. */
export type TemplateProblemKind = 'section' | 'inverted' | 'partial' | 'unescaped' | 'comment' | 'delimiters' | 'unknown' | 'syntax';

export interface TemplateProblem {
  kind: TemplateProblemKind;
  /** The tag's name as written (empty for a syntax error). */
  name: string;
  /** 1-based line and column of the tag's first character. */
  line: number;
  column: number;
}

const KIND_OF_TAG: Record<string, TemplateProblemKind> = {
  '#': 'section',
  '^': 'inverted',
  '/': 'section',
  '>': 'partial',
  '&': 'unescaped',
  '{': 'unescaped',
  '!': 'comment',
  '=': 'delimiters',
};

/** The mustache tags, fixed: a global change of Mustache.tags elsewhere cannot change what we parse. */
const TAGS: [string, string] = ['{{', '}}'];

type Token = [type: string, value: string, start: number, end: number, ...rest: unknown[]];

function position(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

function parse(text: string): { tokens: Token[] } | { problem: TemplateProblem } {
  try {
    return { tokens: Mustache.parse(text, TAGS) as unknown as Token[] };
  } catch (error) {
    // mustache says where: "Unclosed tag at 12", "Unclosed section \"a\" at 6".
    const at = /at (\d+)\s*$/.exec(error instanceof Error ? error.message : '');
    return { problem: { kind: 'syntax', name: '', ...position(text, at ? Number(at[1]) : 0) } };
  }
}

/** Every refusal in `text`, in order. An empty list: the text is plain text and known `{{name}}`s. */
export function checkTemplate(text: string): TemplateProblem[] {
  const parsed = parse(text);
  if ('problem' in parsed) return [parsed.problem];
  const problems: TemplateProblem[] = [];
  const walk = (tokens: Token[]) => {
    for (const token of tokens) {
      const [type, value, start] = token;
      if (type === 'text') continue;
      if (type === 'name') {
        if (!isPlaceholder(value)) problems.push({ kind: 'unknown', name: value, ...position(text, start) });
        continue;
      }
      problems.push({ kind: KIND_OF_TAG[type] ?? 'syntax', name: value, ...position(text, start) });
      // A section's own tokens (index 4) are reported too.
      if ((type === '#' || type === '^') && Array.isArray(token[4])) walk(token[4] as Token[]);
    }
  };
  walk(parsed.tokens);
  return problems;
}

/** The placeholders a valid template names, each once. */
export function placeholdersOf(text: string): PlaceholderName[] {
  const parsed = parse(text);
  if ('problem' in parsed) return [];
  const names = parsed.tokens.filter((t) => t[0] === 'name' && isPlaceholder(t[1])).map((t) => t[1] as PlaceholderName);
  return [...new Set(names)];
}

export type PlaceholderValues = Partial<Record<PlaceholderName, string | null | undefined>>;

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;', '=': '&#61;' };
export const escapeHtml = (s: string) => s.replace(/[&<>"'`=]/g, (c) => HTML_ESCAPES[c]);

export class TemplateError extends Error {
  constructor(readonly problems: TemplateProblem[]) {
    super(`template refused: ${problems.map((p) => `${p.kind} ${p.name} at ${p.line}:${p.column}`).join(', ')}`);
    this.name = 'TemplateError';
  }
}

/**
 * `text` with its placeholders replaced: values HTML-escaped when `html`,
 * as they are otherwise (a subject, the plain-text part). A placeholder
 * without a value becomes empty. A template with any problem is refused
 * (TemplateError), never rendered in part.
 */
export function renderPlaceholders(text: string, values: PlaceholderValues, options: { html: boolean }): string {
  const problems = checkTemplate(text);
  if (problems.length) throw new TemplateError(problems);
  const parsed = parse(text);
  if ('problem' in parsed) throw new TemplateError([parsed.problem]);
  // Only own string values of known names: nothing is looked up on a prototype.
  const map: Record<string, string> = Object.create(null);
  for (const name of PLACEHOLDERS) {
    const v = Object.hasOwn(values, name) ? values[name] : undefined;
    if (typeof v === 'string') map[name] = v;
  }
  let out = '';
  for (const [type, value] of parsed.tokens) {
    if (type === 'text') out += value;
    else if (type === 'name') {
      const v = map[value] ?? '';
      // In HTML a value's line breaks (a list of tasks) stay line breaks.
      out += options.html ? escapeHtml(v).replace(/\r?\n/g, '<br>') : v;
    }
  }
  return out;
}

/** A subject: one line, placeholders unescaped, any line break a value brought turned into a space. */
export function renderSubject(text: string, values: PlaceholderValues): string {
  return renderPlaceholders(text, values, { html: false }).replace(/[\r\n]+/g, ' ');
}
