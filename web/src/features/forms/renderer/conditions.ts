import { type FieldDef, type FormDefinition, FIELD_TYPES, VALUELESS_TYPES } from '../../../../../core/forms/definition.js';
import { checkCondition, compileCondition, type Scope } from '../../../../../core/forms/expr.js';

type Condition = (scope: Scope) => boolean;
const compiled = new Map<string, Condition | null>();
const always: Condition = () => true;

/**
 * A field's condition, compiled once per text. A definition being edited in
 * the builder may hold a condition that does not parse yet: it counts as
 * true (the field shows) rather than breaking the preview.
 */
export function condition(source: string | undefined): Condition {
  if (!source || source.trim() === '') return always;
  let fn = compiled.get(source);
  if (fn === undefined) {
    try {
      fn = compileCondition(source);
    } catch {
      fn = null;
    }
    compiled.set(source, fn);
  }
  return fn ?? always;
}

/**
 * The definition the validator may run: conditions that do not parse (a
 * definition still being edited) and fields of unknown types are left out,
 * so that validating never throws.
 */
export function safeFields(fields: FieldDef[]): FieldDef[] {
  return fields
    .filter((f) => (FIELD_TYPES as readonly string[]).includes(f.type))
    .map((f) => {
      const copy: FieldDef = { ...f };
      if (copy.visibleWhen !== undefined && checkCondition(copy.visibleWhen)) delete copy.visibleWhen;
      if (copy.showWhenTable !== undefined && checkCondition(copy.showWhenTable)) delete copy.showWhenTable;
      if (copy.children) copy.children = safeFields(copy.children);
      return copy;
    });
}

/** Fields of one scope (the form, or one row of a repeat group): steppers and steps only group. */
export function scopeValueFields(fields: FieldDef[]): FieldDef[] {
  return fields.flatMap((f) =>
    f.type === 'stepper' || f.type === 'step' ? scopeValueFields(f.children ?? []) : VALUELESS_TYPES.has(f.type) ? [] : [f],
  );
}

/** The value a new, untouched field holds. */
export function emptyValue(field: FieldDef): unknown {
  if (field.default !== undefined) return field.default;
  switch (field.type) {
    case 'checkbox':
    case 'switch':
      return false;
    case 'select_multiple':
    case 'select_multiple_external':
    case 'file':
    case 'repeat':
      return [];
    default:
      return '';
  }
}

/** The starting values of a scope, with the values given (a draft, a saved answer) on top. */
export function initialValues(fields: FieldDef[], given: Record<string, unknown> = {}): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const field of scopeValueFields(fields)) values[field.name] = emptyValue(field);
  return { ...values, ...given };
}

export type LayoutKind = FormDefinition['layout'];
