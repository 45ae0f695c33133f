/**
 * A translation parameter that is itself a message: `{ key, params }`,
 * translated first in the same language ("The condition in visibleWhen is
 * not valid: {{message}}" with the parse error as `message`). Core code
 * produces keys, never text, so both languages come out whole.
 */
export interface NestedMessage {
  key: string;
  params?: Record<string, unknown>;
}

const isNested = (value: unknown): value is NestedMessage =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as NestedMessage).key === 'string';

/** The parameters with every nested message translated by `translate`. */
export function resolveNested(
  params: Record<string, unknown> | undefined,
  translate: (key: string, params?: Record<string, unknown>) => string,
): Record<string, unknown> {
  if (!params) return {};
  return Object.fromEntries(
    Object.entries(params).map(([name, value]) => [name, isNested(value) ? translate(value.key, resolveNested(value.params, translate)) : value]),
  );
}
