/**
 * One function turns a form definition into a validator, used by the browser
 * (messages as the user types, through react-hook-form's zod resolver) and by
 * the server (the gate: a task cannot be accepted with an invalid form).
 * Hidden fields (their `visibleWhen` is false) are neither validated nor kept.
 * Messages are the spec's, as i18n keys with parameters, translated by the
 * `translate` function each side passes in.
 */
import { z } from 'zod';
import { type FieldDef, type FormDefinition, isSafePattern, VALUELESS_TYPES } from './definition.js';
import { PARTY_ROLES } from '../parties.js';
import { isEmptyPartyValue, type PartyValue } from './data.js';
import { compileCondition, isEmpty } from './expr.js';

export interface ValidationIssue {
  /** Dotted path: `email`, `household.2.age` */
  path: string;
  key: string;
  params?: Record<string, unknown>;
}

export interface ValidatorContext {
  /** The user's role code, for conditions that use `role`. */
  role?: string;
  /** Allowed values of option fields whose options are not in the definition (masters, external lists). */
  options?: Record<string, Array<string | number>>;
  /** Turns a key and its parameters into the text shown; without it messages stay keys. */
  translate?: (key: string, params?: Record<string, unknown>) => string;
}

export type ValidationResult = { success: true; data: Record<string, unknown> } | { success: false; issues: ValidationIssue[] };

type Values = Record<string, unknown>;

const PHONE_DIGITS = 10; // a cellphone: 3 plus 7
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;
const ZIP = /^\d{5}(-\d{4})?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The file reference a file field holds (the upload itself lives in the files module). */
export interface FileRef {
  id: string;
  name: string;
  size?: number;
}

export function fileExtension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/** Validates values against a definition. Pure: same input, same answer, on both sides. */
export function validateForm(def: Pick<FormDefinition, 'fields'>, input: unknown, ctx: ValidatorContext = {}): ValidationResult {
  const issues: ValidationIssue[] = [];
  const values: Values = input && typeof input === 'object' && !Array.isArray(input) ? (input as Values) : {};
  const data = validateScope(def.fields, values, values, '', ctx, issues);
  return issues.length ? { success: false, issues } : { success: true, data };
}

/** The same validator as a zod schema, for react-hook-form and for route bodies. */
export function formValuesSchema(def: Pick<FormDefinition, 'fields'>, ctx: ValidatorContext = {}) {
  return z.record(z.string(), z.unknown()).transform((values, zctx) => {
    const result = validateForm(def, values, ctx);
    if (result.success) return result.data;
    for (const issue of result.issues) {
      zctx.addIssue({
        code: 'custom',
        path: issue.path.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)),
        message: ctx.translate ? ctx.translate(issue.key, issue.params) : issue.key,
        params: issue.params,
      });
    }
    return z.NEVER;
  });
}

/** Fields of one scope (the form, or one row of a repeat group), steppers and steps flattened. */
export function scopeFields(fields: FieldDef[]): FieldDef[] {
  return fields.flatMap((f) => (f.type === 'stepper' || f.type === 'step' ? scopeFields(f.children ?? []) : [f]));
}

function validateScope(fields: FieldDef[], values: Values, root: Values, prefix: string, ctx: ValidatorContext, issues: ValidationIssue[]): Values {
  const out: Values = {};
  for (const field of fields) {
    // A hidden container hides everything in it.
    if (!isVisible(field, values, root, ctx)) continue;
    if (field.type === 'stepper' || field.type === 'step') {
      Object.assign(out, validateScope(field.children ?? [], values, root, prefix, ctx, issues));
      continue;
    }
    if (VALUELESS_TYPES.has(field.type)) continue;
    const path = prefix ? `${prefix}.${field.name}` : field.name;
    const raw = Object.hasOwn(values, field.name) ? values[field.name] : undefined;
    const result = validateField(field, raw, root, path, ctx, issues);
    if (result !== undefined) out[field.name] = result;
  }
  return out;
}

function isVisible(field: FieldDef, scopeValues: Values, root: Values, ctx: ValidatorContext): boolean {
  if (!field.visibleWhen) return true;
  // Inside a repeat row, names resolve in the row first, then in the whole form.
  const values = scopeValues === root ? root : { ...root, ...scopeValues };
  return compileCondition(field.visibleWhen)({ values, role: ctx.role });
}

function validateField(field: FieldDef, raw: unknown, root: Values, path: string, ctx: ValidatorContext, issues: ValidationIssue[]): unknown {
  const fail = (key: string, params?: Record<string, unknown>) => failAt(path, key, params);
  const failAt = (at: string, key: string, params?: Record<string, unknown>) => {
    issues.push(params ? { path: at, key, params } : { path: at, key });
    return undefined;
  };
  const empty = isEmpty(raw) || (field.type === 'checkbox' && raw === false) || (field.type === 'party' && isEmptyPartyValue(raw));
  if (empty) {
    if (field.type === 'repeat' && (field.minRows ?? 0) > 0) return fail('validation.minRows', { min: field.minRows });
    if (field.required) {
      const choice = ['select', 'select_multiple', 'radio', 'master_select', 'select_multiple_external'].includes(field.type);
      return fail(choice ? 'validation.chooseOption' : 'validation.required');
    }
    if (field.type === 'checkbox' || field.type === 'switch') return raw === false ? false : undefined;
    return field.type === 'repeat' && Array.isArray(raw) ? [] : undefined;
  }

  switch (field.type) {
    case 'text':
    case 'textarea': {
      if (typeof raw !== 'string' && typeof raw !== 'number') return fail('validation.invalidValue');
      const text = String(raw);
      if (field.minLength !== undefined && text.length < field.minLength) return fail('validation.minLength', { min: field.minLength });
      if (field.maxLength !== undefined && text.length > field.maxLength) return fail('validation.maxLength', { max: field.maxLength });
      const pattern = field.pattern ? compiledPattern(field.pattern) : null;
      if (pattern && !pattern.test(text)) return fail('validation.pattern');
      return text;
    }
    case 'number':
    case 'currency': {
      const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : Number.NaN;
      if (!Number.isFinite(n)) return fail('validation.number');
      if (field.type === 'currency' && Math.round(n * 100) !== n * 100) return fail('validation.currency');
      if (field.min !== undefined && n < field.min) return fail('validation.min', { min: field.min });
      if (field.max !== undefined && n > field.max) return fail('validation.max', { max: field.max });
      return n;
    }
    case 'email': {
      const text = typeof raw === 'string' ? raw.trim() : '';
      if (text.length > 254 || !EMAIL.test(text)) return fail('validation.invalidEmail');
      return text;
    }
    case 'phone': {
      const digits = typeof raw === 'string' || typeof raw === 'number' ? String(raw).replace(/[\s().-]/g, '') : '';
      if (!/^\d+$/.test(digits) || digits.length !== PHONE_DIGITS) return fail('validation.invalidPhone');
      return digits;
    }
    case 'zip': {
      const text = typeof raw === 'string' || typeof raw === 'number' ? String(raw).trim() : '';
      if (!ZIP.test(text)) return fail('validation.invalidZip');
      return text;
    }
    case 'date': {
      if (typeof raw !== 'string' || !DATE.test(raw) || !realDate(raw)) return fail('validation.invalidDate');
      return raw;
    }
    case 'datetime': {
      if (typeof raw !== 'string' || raw.length > 40 || Number.isNaN(Date.parse(raw))) return fail('validation.invalidDate');
      return new Date(raw).toISOString();
    }
    case 'select':
    case 'radio':
    case 'master_select': {
      if (typeof raw !== 'string' && typeof raw !== 'number') return fail('validation.chooseOption');
      if (!allowedSet(field, ctx).has(String(raw))) return fail('validation.chooseOption');
      return raw;
    }
    case 'select_multiple':
    case 'select_multiple_external': {
      if (!Array.isArray(raw) || raw.some((v) => typeof v !== 'string' && typeof v !== 'number')) return fail('validation.chooseOption');
      const known = allowedSet(field, ctx);
      // External lists are checked only when the server has them at hand.
      if ((field.type === 'select_multiple' || ctx.options?.[field.name]) && raw.some((v) => !known.has(String(v)))) return fail('validation.chooseOption');
      return [...new Set(raw)];
    }
    case 'checkbox':
    case 'switch':
      if (typeof raw !== 'boolean') return fail('validation.invalidValue');
      return raw;
    case 'file': {
      const files = Array.isArray(raw) ? raw : [raw];
      for (const f of files) {
        if (!f || typeof f !== 'object' || typeof (f as FileRef).id !== 'string' || typeof (f as FileRef).name !== 'string') return fail('validation.invalidValue');
        if (!(field.accept ?? []).includes(fileExtension((f as FileRef).name))) return fail('validation.fileExtension');
        const size = (f as FileRef).size;
        if (field.maxSizeMb && typeof size === 'number' && size > field.maxSizeMb * 1024 * 1024) return fail('validation.fileSize', { max: field.maxSizeMb });
      }
      return files.map((f) => ({ id: (f as FileRef).id, name: (f as FileRef).name, ...(typeof (f as FileRef).size === 'number' ? { size: (f as FileRef).size } : {}) }));
    }
    case 'party': {
      // Another party of the case: their role (fixed by the field, or chosen), name, email and, optionally, phone.
      if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return fail('validation.invalidValue');
      const v = raw as Record<string, unknown>;
      const role = field.partyRole ?? v.role;
      if (typeof role !== 'string' || !(PARTY_ROLES as readonly string[]).includes(role) || (field.partyRole && v.role !== undefined && v.role !== null && v.role !== '' && v.role !== field.partyRole)) {
        return failAt(`${path}.role`, 'validation.chooseOption');
      }
      const name = typeof v.name === 'string' ? v.name.trim() : '';
      if (!name) return failAt(`${path}.name`, 'validation.required');
      if (name.length > 200) return failAt(`${path}.name`, 'validation.maxLength', { max: 200 });
      const email = typeof v.email === 'string' ? v.email.trim() : '';
      if (email.length > 254 || !EMAIL.test(email)) return failAt(`${path}.email`, 'validation.invalidEmail');
      let phone: string | null = null;
      if (!isEmpty(v.phone)) {
        const digits = typeof v.phone === 'string' || typeof v.phone === 'number' ? String(v.phone).replace(/[\s().+-]/g, '') : '';
        if (!/^\d+$/.test(digits) || digits.length !== PHONE_DIGITS) return failAt(`${path}.phone`, 'validation.invalidPhone');
        phone = digits;
      }
      const value: PartyValue = { role: role as PartyValue['role'], name, email, phone };
      return value;
    }
    case 'repeat': {
      if (!Array.isArray(raw)) return fail('validation.invalidValue');
      if (field.minRows !== undefined && raw.length < field.minRows) return fail('validation.minRows', { min: field.minRows });
      if (field.maxRows !== undefined && raw.length > field.maxRows) return fail('validation.maxRows', { max: field.maxRows });
      return raw.map((row, i) => {
        const rowValues = row && typeof row === 'object' && !Array.isArray(row) ? (row as Values) : {};
        return validateScope(field.children ?? [], rowValues, root, `${path}.${i}`, ctx, issues);
      });
    }
    default:
      return undefined;
  }
}

function allowed(field: FieldDef, ctx: ValidatorContext): Array<string | number> {
  return ctx.options?.[field.name] ?? (field.options ?? []).map((o) => o.value);
}

/** A field's pattern checked and compiled once (null when it is not safe to run), not once per validated row. */
const patterns = new Map<string, RegExp | null>();
function compiledPattern(source: string): RegExp | null {
  let re = patterns.get(source);
  if (re === undefined) {
    re = isSafePattern(source) ? new RegExp(source, 'u') : null;
    if (patterns.size >= 1000) patterns.clear();
    patterns.set(source, re);
  }
  return re;
}

/** The allowed values as a set of strings, kept per list: a bulk import checks 100,000 rows against one list of 1,100 cities. */
const allowedSets = new WeakMap<object, Set<string>>();
function allowedSet(field: FieldDef, ctx: ValidatorContext): Set<string> {
  const key: object | undefined = ctx.options?.[field.name] ?? field.options;
  const cached = key ? allowedSets.get(key) : undefined;
  if (cached) return cached;
  const set = new Set(allowed(field, ctx).map(String));
  if (key) allowedSets.set(key, set);
  return set;
}

function realDate(text: string): boolean {
  const [y, m, d] = text.split('-').map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}
