import type { FastifySchema } from 'fastify';
import { z } from 'zod';

/**
 * Bad input for every route, derived from its zod schemas: the route walker
 * (server/plugins/conventions.api.test.ts) sends each of these and wants a
 * 4xx with an error code, never a 500. A route added later gets them without
 * anyone writing a line.
 */
export const NUL = 'a\u0000b';
/** Past Number.MAX_SAFE_INTEGER (2^53 - 1); JSON carries it as written. */
export const HUGE_NUMBER_TEXT = '9007199254740993';
export const HUGE_NUMBER_PARAM = '99999999999999999999';
export const MEGABYTE_STRING = 'x'.repeat(1_000_000);
/**
 * The longest query value worth sending: Node refuses a request head over
 * 16 KiB (431) before the app sees it, so a 1 MB query never arrives.
 */
export const LONG_QUERY_STRING = 'x'.repeat(32 * 1024);
export const DEEP_LEVELS = 5_000;

export type JsonSchemaLike = JsonSchema;
type JsonSchema = Record<string, unknown> & {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: JsonSchema | boolean;
  items?: JsonSchema;
  prefixItems?: JsonSchema[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  format?: string;
  minimum?: number;
  minLength?: number;
  pattern?: string;
  default?: unknown;
};

/** A request schema part as JSON Schema (input side), or undefined when the route has none. */
export function toJson(schema: unknown): JsonSchema | undefined {
  if (!schema || !(schema instanceof z.ZodType)) return undefined;
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', cycles: 'ref', reused: 'inline' }) as JsonSchema;
}

/** Property names of an object schema (query or params), with their JSON Schema. */
export function propertiesOf(schema: JsonSchema | undefined): Array<[string, JsonSchema]> {
  if (!schema) return [];
  const root = resolve(schema, schema);
  return Object.entries(root.properties ?? {});
}

function resolve(root: JsonSchema, s: JsonSchema): JsonSchema {
  let node = s;
  for (let i = 0; i < 10 && node.$ref; i++) {
    const name = node.$ref.replace(/^#\/\$defs\//, '');
    node = (node.$ref === '#' ? root : root.$defs?.[name]) ?? {};
  }
  const choice = node.anyOf ?? node.oneOf;
  if (choice?.length) {
    const options = choice.map((c) => resolve(root, c));
    return options.find((o) => o.type !== 'null') ?? options[0];
  }
  if (node.allOf?.length) return resolve(root, node.allOf[0]);
  return node;
}

const typeOf = (s: JsonSchema) => (Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type);

/** Objects that stand for "anything" (z.unknown): a list there is no wrong type. */
const FREE = new WeakSet<object>();

/** Values that pass the checks a JSON Schema does not show (regexes and refinements), by property name. */
const BY_NAME: Record<string, unknown> = {
  email: 'walker@example.test',
  timeZone: 'America/Bogota',
  host: 'options.example.org',
  password: 'Walker12345',
  passwordConfirm: 'Walker12345',
};

/**
 * A plausible value for `schema`: every property filled (so each leaf can be
 * spoiled in turn), one item per list, the first choice of each enum.
 */
export function sampleOf(root: JsonSchema, schema: JsonSchema, depth = 0, name = ''): unknown {
  if (Object.hasOwn(BY_NAME, name)) return BY_NAME[name];
  const s = resolve(root, schema);
  if (s.const !== undefined) return s.const;
  if (s.enum?.length) return s.enum[0];
  if (depth > 8) return null;
  switch (typeOf(s)) {
    case 'string': {
      if (s.format === 'email') return 'walker@example.test';
      if (s.format === 'date') return '2026-01-02';
      if (s.format === 'date-time') return '2026-01-02T03:04:05Z';
      if (s.pattern === '^\\d{4}-\\d{2}-\\d{2}$') return '2026-01-02';
      return 'w'.repeat(Math.max(s.minLength ?? 0, 5));
    }
    case 'integer':
    case 'number':
      return Math.max(typeof s.minimum === 'number' ? s.minimum : 1, 1);
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array':
      if (s.prefixItems) return s.prefixItems.map((i) => sampleOf(root, i, depth + 1));
      return s.items ? [sampleOf(root, s.items, depth + 1)] : [];
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(s.properties ?? {})) out[k] = sampleOf(root, v, depth + 1, k);
      if (!s.properties && s.additionalProperties && typeof s.additionalProperties === 'object') out.field = sampleOf(root, s.additionalProperties, depth + 1);
      return out;
    }
    default: {
      // Anything (z.unknown, a transform): a small object, so there is a key and a string to spoil.
      const free = { field: 'value' };
      FREE.add(free);
      return free;
    }
  }
}

export type Path = Array<string | number>;

/** Paths to every string, number and object the schema asks for in `value` (the root object included, as []). */
export function leavesOf(value: unknown, path: Path = [], out = { strings: [] as Path[], numbers: [] as Path[], objects: [] as Path[] }) {
  if (typeof value === 'string') out.strings.push(path);
  else if (typeof value === 'number') out.numbers.push(path);
  else if (Array.isArray(value)) value.forEach((v, i) => leavesOf(v, [...path, i], out));
  else if (value && typeof value === 'object') {
    if (!FREE.has(value)) out.objects.push(path);
    for (const [k, v] of Object.entries(value)) leavesOf(v, [...path, k], out);
  }
  return out;
}

/** A copy of `value` with the thing at `path` replaced (by raw JSON text, so numbers past 2^53 stay as written). */
export function jsonWith(value: unknown, path: Path, rawJson: string): string {
  const marker = `__walker_marker_${Math.random().toString(36).slice(2)}__`;
  const copy = structuredClone(value);
  if (path.length === 0) return rawJson;
  let node = copy as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path.at(-1) as string] = marker;
  return JSON.stringify(copy).replace(JSON.stringify(marker), () => rawJson);
}

/** `{"a":{"a":...}}` nested `levels` deep. */
export function deepJson(levels: number): string {
  return `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
}

/** A multipart body with one file part (field `file`), as a browser uploads it. */
export function multipartWith(filename: string, content: string): { payload: Buffer; headers: Record<string, string> } {
  const boundary = 'walker-boundary-7d3f';
  const body = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n${content}\r\n--${boundary}--\r\n`;
  return { payload: Buffer.from(body), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** `:name` segments of a route's URL. */
export const paramNames = (url: string) => [...url.matchAll(/:(\w+)/g)].map((m) => m[1]);

/** The required parameters of a query schema with plausible values, as strings. */
export function requiredQuery(schema: JsonSchema | undefined): Record<string, string> {
  if (!schema) return {};
  const root = resolve(schema, schema);
  const required = new Set((root.required as string[] | undefined) ?? []);
  return Object.fromEntries(propertiesOf(schema).filter(([name]) => required.has(name)).map(([name, s]) => [name, String(sampleOf(schema, s, 1, name))]));
}

export interface RouteSchemas {
  params?: JsonSchema;
  querystring?: JsonSchema;
  body?: JsonSchema;
}

export function schemasOf(schema: FastifySchema | undefined): RouteSchemas {
  const s = (schema ?? {}) as Record<string, unknown>;
  return { params: toJson(s.params), querystring: toJson(s.querystring), body: toJson(s.body) };
}
