/**
 * Returned for correction (issue 18), the rules both sides share: which
 * fields of an application's form staff may ask to correct (its top-level
 * value fields: a repeat group counts as one, a text block as none), their
 * labels, and which fields a resubmission changed. The browser offers and
 * shows these; the server refuses anything else with the same answer.
 */
import { type FieldDef, orderedFields, VALUELESS_TYPES } from '../forms/definition.js';

/** The fields a correction may name, in the order the form shows them (steps flattened). */
export function correctableFields(fields: readonly FieldDef[]): FieldDef[] {
  return orderedFields([...fields]).flatMap((f) =>
    f.type === 'stepper' || f.type === 'step' ? correctableFields(f.children ?? []) : VALUELESS_TYPES.has(f.type) ? [] : [f],
  );
}

/** A field's label in a language: `label_en` in English, `label` (Spanish) otherwise, each falling back to the other, then the name. */
export function fieldLabel(field: Pick<FieldDef, 'name' | 'label' | 'label_en'>, language: string): string {
  const english = language.startsWith('en');
  return (english ? field.label_en || field.label : field.label || field.label_en) || field.name;
}

const isBlank = (v: unknown) => v === undefined || v === null || v === '' || v === false || (Array.isArray(v) && v.length === 0);

/** The value with object keys sorted at every depth, so that equal values have equal JSON. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/** Whether two stored values are the same; empty values ('', null, false, [] or missing) count as one. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (isBlank(a) && isBlank(b)) return true;
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

/** The names of the fields `given` changes from `saved` (a name `given` does not hold is unchanged), sorted. */
export function changedNames(saved: Record<string, unknown>, given: Record<string, unknown>): string[] {
  return Object.keys(given)
    .filter((k) => !sameValue(saved[k], given[k]))
    .sort();
}
