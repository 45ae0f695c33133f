/**
 * The values a form holds (a draft, a case's data, a task's form) as a
 * request body: a record of field name -> value, capped in size, depth,
 * fields per object and items per list. Form data is shallow (a repeat group
 * is a list of rows, a file field a list of references), so anything deeper
 * or wider than a form can produce is refused before it is stored or walked.
 */
import { z } from 'zod';
import { PARTY_ROLES, type PartyRole } from '../parties.js';
import type { FieldDef } from './definition.js';

export const FORM_DATA_LIMITS = {
  /** Characters of the JSON text. */
  size: 500_000,
  /** Objects and lists inside one another, the data itself counting as one. */
  depth: 8,
  /** Fields in one object (a form has at most 500). */
  keys: 1_000,
  /** Items in one list (a repeat group has at most 10,000 rows). */
  items: 10_000,
} as const;

export interface FormDataProblem {
  path: Array<string | number>;
  message: string;
  params: Record<string, unknown>;
}

/** The first place where `data` goes past a limit other than size; walked without recursion. */
export function formDataProblem(data: unknown): FormDataProblem | undefined {
  const stack: Array<{ value: unknown; path: Array<string | number> }> = [{ value: data, path: [] }];
  while (stack.length > 0) {
    const { value, path } = stack.pop() as { value: unknown; path: Array<string | number> };
    if (!value || typeof value !== 'object') continue;
    if (path.length >= FORM_DATA_LIMITS.depth) return { path, message: 'validation.tooDeep', params: { max: FORM_DATA_LIMITS.depth } };
    if (Array.isArray(value)) {
      if (value.length > FORM_DATA_LIMITS.items) return { path, message: 'validation.tooManyItems', params: { max: FORM_DATA_LIMITS.items } };
      value.forEach((v, i) => stack.push({ value: v, path: [...path, i] }));
      continue;
    }
    const keys = Object.keys(value);
    if (keys.length > FORM_DATA_LIMITS.keys) return { path, message: 'validation.tooManyKeys', params: { max: FORM_DATA_LIMITS.keys } };
    for (const k of keys) stack.push({ value: (value as Record<string, unknown>)[k], path: [...path, k] });
  }
  return undefined;
}

export const formDataSchema = z.record(z.string().max(63), z.unknown()).superRefine((data, ctx) => {
  const problem = formDataProblem(data);
  if (problem) {
    ctx.addIssue({ code: 'custom', path: problem.path, message: problem.message, params: problem.params });
    return;
  }
  if (JSON.stringify(data).length > FORM_DATA_LIMITS.size) ctx.addIssue({ code: 'custom', message: 'cases.errors.tooLarge' });
});

// ---------------------------------------------------------------- "party" fields (issue 23)

/** What a "party" field holds once validated: another party of the case. */
export interface PartyValue {
  role: PartyRole;
  name: string;
  email: string;
  phone: string | null;
}

/** A party field left blank: nothing typed in its name, email or phone. */
export function isEmptyPartyValue(value: unknown): boolean {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  return ['name', 'email', 'phone'].every((k) => v[k] === undefined || v[k] === null || (typeof v[k] === 'string' && (v[k] as string).trim() === ''));
}

/** Whether a stored value is a party's (the shape the validator keeps). */
export function isPartyValue(value: unknown): value is PartyValue {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  return typeof v.name === 'string' && typeof v.email === 'string' && typeof v.role === 'string' && (PARTY_ROLES as readonly string[]).includes(v.role);
}

/** A party as one line of text (a data tape's cell, a list): `Name <email>`. */
export const partyText = (p: PartyValue) => `${p.name} <${p.email}>`;

/**
 * The parties a form's values name, with the field each came from: the
 * top-level "party" fields (steppers and steps flattened) and those of
 * repeat groups' rows (`group.2.landlord`). Only values the validator kept.
 */
export function partyAnswers(fields: readonly FieldDef[], data: Record<string, unknown>): Array<PartyValue & { field: string }> {
  const out: Array<PartyValue & { field: string }> = [];
  const walk = (scope: readonly FieldDef[], values: Record<string, unknown>, prefix: string) => {
    for (const f of scope) {
      if (f.type === 'stepper' || f.type === 'step') {
        walk(f.children ?? [], values, prefix);
        continue;
      }
      const value = values[f.name];
      if (f.type === 'party' && isPartyValue(value)) out.push({ field: `${prefix}${f.name}`, role: value.role, name: value.name, email: value.email, phone: value.phone ?? null });
      if (f.type === 'repeat' && Array.isArray(value)) {
        value.forEach((row, i) => {
          if (row && typeof row === 'object' && !Array.isArray(row)) walk(f.children ?? [], row as Record<string, unknown>, `${prefix}${f.name}.${i}.`);
        });
      }
    }
  };
  walk(fields, data, '');
  return out;
}
