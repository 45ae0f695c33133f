/**
 * The values a form holds (a draft, a case's data, a task's form) as a
 * request body: a record of field name -> value, capped in size, depth,
 * fields per object and items per list. Form data is shallow (a repeat group
 * is a list of rows, a file field a list of references), so anything deeper
 * or wider than a form can produce is refused before it is stored or walked.
 */
import { z } from 'zod';

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
