/**
 * A small, safe expression language for form conditions (visibility,
 * showWhenTable, protocol transition guards). It is parsed into a tree and
 * interpreted: no eval, no Function, no access to prototypes or globals.
 *
 *   income > 0 && household.length >= 2
 *   role == 'coordinator' || status in ['PENDING', 'BLOCKED']
 *   !empty(third_party_email) && lower(city) == 'bogota'
 *
 * Names resolve to the form values (a dotted path walks own properties only);
 * `role` is the signed-in user's role code. Malformed text fails to parse
 * with the position of the error, so a form with a bad condition is refused
 * when it is saved rather than when someone fills it.
 */

/** What went wrong, as a key of the `expr` translations (English here for logs). */
const EXPR_MESSAGES = {
  number: "Malformed number '{{text}}'",
  unterminated: 'Unterminated string',
  character: "Unexpected character '{{text}}'",
  notText: 'The condition must be text',
  tooLong: 'The condition is longer than {{max}} characters',
  expectedEnd: "Expected '{{text}}' but the condition ended",
  expected: "Expected '{{text}}'",
  tooDeep: 'The condition is nested too deeply',
  name: "Malformed name '{{text}}'",
  notAllowed: "'{{text}}' is not allowed",
  unknownFunction: "Unknown function '{{text}}'",
  arguments: "'{{text}}' takes {{count}} argument(s)",
  endedEarly: 'The condition ended too early',
  unexpected: "Unexpected '{{text}}'",
} as const;
export type ExprErrorCode = keyof typeof EXPR_MESSAGES;

export class ExprError extends Error {
  /** The translation key (`expr.<code>`) and its parameters, for the user's language. */
  readonly key: `expr.${ExprErrorCode}`;
  constructor(
    readonly code: ExprErrorCode,
    readonly params: Record<string, string | number>,
    /** 0-based character offset in the source */
    readonly position: number,
  ) {
    super(`${EXPR_MESSAGES[code].replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(params[k] ?? ''))} at position ${position + 1}`);
    this.name = 'ExprError';
    this.key = `expr.${code}`;
  }
}

type Node =
  | { k: 'lit'; v: unknown }
  | { k: 'name'; path: string[]; pos: number }
  | { k: 'list'; items: Node[] }
  | { k: 'not'; e: Node }
  | { k: 'neg'; e: Node }
  | { k: 'bin'; op: string; l: Node; r: Node }
  | { k: 'call'; fn: string; args: Node[]; pos: number };

const FORBIDDEN = new Set(['__proto__', 'prototype', 'constructor', '__defineGetter__', '__defineSetter__', '__lookupGetter__', '__lookupSetter__']);
const MAX_LENGTH = 2_000;
const MAX_DEPTH = 50;

type Tok = { t: 'num' | 'str' | 'id' | 'op' | 'end'; v: string; pos: number };

function tokenize(src: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const start = i;
    if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(src[i + 1] ?? ''))) {
      while (i < src.length && /[0-9._]/.test(src[i])) i++;
      const text = src.slice(start, i).replaceAll('_', '');
      if (!/^(\d+\.?\d*|\.\d+)$/.test(text)) throw new ExprError('number', { text: src.slice(start, i) }, start);
      out.push({ t: 'num', v: text, pos: start });
      continue;
    }
    if (c === "'" || c === '"') {
      i++;
      let text = '';
      while (i < src.length && src[i] !== c) {
        if (src[i] === '\\' && i + 1 < src.length) i++;
        text += src[i++];
      }
      if (i >= src.length) throw new ExprError('unterminated', {}, start);
      i++;
      out.push({ t: 'str', v: text, pos: start });
      continue;
    }
    if (/[A-Za-z_$]/.test(c)) {
      while (i < src.length && /[A-Za-z0-9_$.]/.test(src[i])) i++;
      out.push({ t: 'id', v: src.slice(start, i), pos: start });
      continue;
    }
    const two = src.slice(i, i + 2);
    if (['==', '!=', '<=', '>=', '&&', '||'].includes(two)) {
      out.push({ t: 'op', v: two, pos: i });
      i += 2;
      continue;
    }
    if ('<>!+-*/%(),[]'.includes(c)) {
      out.push({ t: 'op', v: c, pos: i });
      i++;
      continue;
    }
    throw new ExprError('character', { text: c as string }, i);
  }
  out.push({ t: 'end', v: '', pos: src.length });
  return out;
}

const BINARY: Record<string, number> = {
  '||': 1, '&&': 2, '==': 3, '!=': 3, in: 3, '<': 4, '<=': 4, '>': 4, '>=': 4, '+': 5, '-': 5, '*': 6, '/': 6, '%': 6,
};
const FUNCTIONS: Record<string, { arity: [number, number]; fn: (...a: unknown[]) => unknown }> = {
  empty: { arity: [1, 1], fn: (x) => isEmpty(x) },
  len: { arity: [1, 1], fn: (x) => (typeof x === 'string' || Array.isArray(x) ? x.length : 0) },
  lower: { arity: [1, 1], fn: (x) => (typeof x === 'string' ? x.toLowerCase() : x) },
  upper: { arity: [1, 1], fn: (x) => (typeof x === 'string' ? x.toUpperCase() : x) },
  contains: { arity: [2, 2], fn: (a, b) => (Array.isArray(a) ? a.some((x) => equal(x, b)) : typeof a === 'string' && typeof b === 'string' ? a.includes(b) : false) },
  number: { arity: [1, 1], fn: (x) => toNumber(x) },
};

/** Parses an expression; throws ExprError with the position of the first problem. */
export function parseExpr(src: string): Node {
  if (typeof src !== 'string') throw new ExprError('notText', {}, 0);
  if (src.length > MAX_LENGTH) throw new ExprError('tooLong', { max: MAX_LENGTH }, MAX_LENGTH);
  const toks = tokenize(src);
  let p = 0;
  let depth = 0;
  const peek = () => toks[p];
  const next = () => toks[p++];
  const expectOp = (v: string) => {
    const t = next();
    if (t.t !== 'op' || t.v !== v) throw new ExprError(t.t === 'end' ? 'expectedEnd' : 'expected', { text: v }, t.pos);
  };
  const deeper = (pos: number) => {
    if (++depth > MAX_DEPTH) throw new ExprError('tooDeep', {}, pos);
  };

  function primary(): Node {
    const t = next();
    deeper(t.pos);
    try {
      if (t.t === 'num') return { k: 'lit', v: Number(t.v) };
      if (t.t === 'str') return { k: 'lit', v: t.v };
      if (t.t === 'id') {
        if (t.v === 'true') return { k: 'lit', v: true };
        if (t.v === 'false') return { k: 'lit', v: false };
        if (t.v === 'null') return { k: 'lit', v: null };
        const path = t.v.split('.');
        if (path.some((part) => part === '')) throw new ExprError('name', { text: t.v }, t.pos);
        const bad = path.find((part) => FORBIDDEN.has(part));
        if (bad) throw new ExprError('notAllowed', { text: bad }, t.pos + t.v.indexOf(bad));
        if (peek().t === 'op' && peek().v === '(') {
          if (path.length !== 1 || !Object.hasOwn(FUNCTIONS, t.v)) throw new ExprError('unknownFunction', { text: t.v }, t.pos);
          next();
          const args: Node[] = [];
          if (!(peek().t === 'op' && peek().v === ')')) {
            do args.push(expr(0));
            while (peek().t === 'op' && peek().v === ',' && next());
          }
          expectOp(')');
          const [min, max] = FUNCTIONS[t.v].arity;
          if (args.length < min || args.length > max) throw new ExprError('arguments', { text: t.v, count: min === max ? String(min) : `${min}–${max}` }, t.pos);
          return { k: 'call', fn: t.v, args, pos: t.pos };
        }
        return { k: 'name', path, pos: t.pos };
      }
      if (t.t === 'op' && t.v === '(') {
        const e = expr(0);
        expectOp(')');
        return e;
      }
      if (t.t === 'op' && t.v === '[') {
        const items: Node[] = [];
        if (!(peek().t === 'op' && peek().v === ']')) {
          do items.push(expr(0));
          while (peek().t === 'op' && peek().v === ',' && next());
        }
        expectOp(']');
        return { k: 'list', items };
      }
      if (t.t === 'op' && t.v === '!') return { k: 'not', e: primary() };
      if (t.t === 'op' && t.v === '-') return { k: 'neg', e: primary() };
      throw new ExprError(t.t === 'end' ? 'endedEarly' : 'unexpected', { text: String(t.v) }, t.pos);
    } finally {
      depth--;
    }
  }

  function expr(minPrec: number): Node {
    let left = primary();
    for (;;) {
      const t = peek();
      const op = t.t === 'op' || (t.t === 'id' && t.v === 'in') ? t.v : undefined;
      const prec = op !== undefined ? BINARY[op] : undefined;
      if (op === undefined || prec === undefined || prec <= minPrec) return left;
      next();
      const right = expr(prec);
      left = { k: 'bin', op, l: left, r: right };
    }
  }

  const tree = expr(0);
  const rest = peek();
  if (rest.t !== 'end') throw new ExprError('unexpected', { text: String(rest.v) }, rest.pos);
  return tree;
}

export interface Scope {
  values: Record<string, unknown>;
  role?: string;
}

/** Evaluates a parsed expression. Unknown names are null; type mismatches are false, never exceptions. */
export function evaluate(tree: Node, scope: Scope): unknown {
  switch (tree.k) {
    case 'lit':
      return tree.v;
    case 'list':
      return tree.items.map((i) => evaluate(i, scope));
    case 'name':
      return resolve(tree.path, scope);
    case 'not':
      return !truthy(evaluate(tree.e, scope));
    case 'neg':
      return -toNumber(evaluate(tree.e, scope));
    case 'call':
      return FUNCTIONS[tree.fn].fn(...tree.args.map((a) => evaluate(a, scope)));
    case 'bin': {
      if (tree.op === '&&') return truthy(evaluate(tree.l, scope)) && truthy(evaluate(tree.r, scope));
      if (tree.op === '||') return truthy(evaluate(tree.l, scope)) || truthy(evaluate(tree.r, scope));
      const l = evaluate(tree.l, scope);
      const r = evaluate(tree.r, scope);
      switch (tree.op) {
        case '==':
          return equal(l, r);
        case '!=':
          return !equal(l, r);
        case 'in':
          return Array.isArray(r) ? r.some((x) => equal(l, x)) : typeof r === 'string' && typeof l === 'string' ? r.includes(l) : false;
        case '<':
        case '<=':
        case '>':
        case '>=':
          return compare(tree.op, l, r);
        case '+':
          return typeof l === 'string' || typeof r === 'string' ? `${l ?? ''}${r ?? ''}` : toNumber(l) + toNumber(r);
        case '-':
          return toNumber(l) - toNumber(r);
        case '*':
          return toNumber(l) * toNumber(r);
        case '/':
          return toNumber(r) === 0 ? null : toNumber(l) / toNumber(r);
        case '%':
          return toNumber(r) === 0 ? null : toNumber(l) % toNumber(r);
      }
    }
  }
  return null;
}

/** Parses once, evaluates to a boolean. An empty condition is true. */
const always = () => true;
/** Compiled conditions by source: a form's few conditions are parsed once, not once per validated row. */
const compiled = new Map<string, (scope: Scope) => boolean>();

export function compileCondition(src: string | undefined | null): (scope: Scope) => boolean {
  if (src === undefined || src === null || src.trim() === '') return always;
  const known = compiled.get(src);
  if (known) return known;
  const tree = parseExpr(src);
  const fn = (scope: Scope) => truthy(evaluate(tree, scope));
  if (compiled.size >= 1000) compiled.clear();
  compiled.set(src, fn);
  return fn;
}

/** The error of a condition, or undefined when it parses. */
export function checkCondition(src: string): ExprError | undefined {
  try {
    parseExpr(src);
    return undefined;
  } catch (e) {
    if (e instanceof ExprError) return e;
    throw e;
  }
}

function resolve(path: string[], scope: Scope): unknown {
  if (path.length === 1 && path[0] === 'role') return scope.role ?? null;
  // `values.x` and `x` name the same field.
  const parts = path[0] === 'values' && path.length > 1 ? path.slice(1) : path;
  let node: unknown = scope.values;
  for (const part of parts) {
    if (Array.isArray(node) && part === 'length') return node.length;
    if (typeof node === 'string' && part === 'length') return node.length;
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, part)) return null;
    node = (node as Record<string, unknown>)[part];
  }
  return node === undefined ? null : node;
}

export function isEmpty(x: unknown): boolean {
  return x === null || x === undefined || x === '' || (Array.isArray(x) && x.length === 0) || (typeof x === 'string' && x.trim() === '');
}

function truthy(x: unknown): boolean {
  return Array.isArray(x) ? x.length > 0 : Boolean(x);
}

function toNumber(x: unknown): number {
  if (typeof x === 'number') return x;
  if (typeof x === 'boolean') return x ? 1 : 0;
  if (typeof x === 'string' && x.trim() !== '' && !Number.isNaN(Number(x))) return Number(x);
  return Number.NaN;
}

function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if ((a === null || a === undefined) && (b === null || b === undefined)) return true;
  // Form values often arrive as text: '3' equals 3.
  if (typeof a === 'number' && typeof b === 'string') return b.trim() !== '' && Number(b) === a;
  if (typeof a === 'string' && typeof b === 'number') return a.trim() !== '' && Number(a) === b;
  return false;
}

function compare(op: string, a: unknown, b: unknown): boolean {
  if (typeof a === 'string' && typeof b === 'string' && (Number.isNaN(Number(a)) || Number.isNaN(Number(b)))) {
    return op === '<' ? a < b : op === '<=' ? a <= b : op === '>' ? a > b : a >= b;
  }
  const x = toNumber(a);
  const y = toNumber(b);
  if (Number.isNaN(x) || Number.isNaN(y)) return false;
  return op === '<' ? x < y : op === '<=' ? x <= y : op === '>' ? x > y : x >= y;
}
