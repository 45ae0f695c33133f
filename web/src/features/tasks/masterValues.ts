import { type FieldDef, scopeFieldsDeep } from '../../../../core/forms/definition.js';

/** Values anywhere under the key `name` (a repeat group's rows included). */
function valuesNamed(values: unknown, name: string): Array<string | number> {
  if (Array.isArray(values)) return values.flatMap((v) => valuesNamed(v, name));
  if (!values || typeof values !== 'object') return [];
  return Object.entries(values).flatMap(([key, value]) =>
    key === name && (typeof value === 'string' || typeof value === 'number') ? [value] : valuesNamed(value, name),
  );
}

/**
 * A master select's options are not in the definition: its chosen value is
 * taken on trust here, and the server's gate checks it against the master.
 */
export function masterValues(fields: FieldDef[], values: Record<string, unknown>): Record<string, Array<string | number>> {
  return Object.fromEntries(scopeFieldsDeep(fields).filter((f) => f.type === 'master_select').map((f) => [f.name, valuesNamed(values, f.name)]));
}
