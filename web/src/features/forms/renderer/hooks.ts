import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { type FieldError, type FieldValues, get, useController, useFormContext, useFormState, type UseFormReturn, useWatch } from 'react-hook-form';
import type { FieldDef } from '../../../../../core/forms/definition.js';
import { useFieldText } from '../labels.js';
import { type ScopeValue, scopeOf, useRenderer, useScope } from './context.js';

function rootOf(scope: ScopeValue): ScopeValue {
  let node = scope;
  while (node.parent) node = node.parent;
  return node;
}

/**
 * The values a condition sees: the form's, with the current row's on top
 * (the row's own names shadow the form's even when empty), as the shared
 * validator does.
 */
export function useConditionValues(): Record<string, unknown> {
  const scope = useScope();
  const root = rootOf(scope);
  const own = useWatch({ control: scope.control }) as Record<string, unknown>;
  const all = useWatch({ control: root.control }) as Record<string, unknown>;
  if (scope === root) return own;
  const shadow = Object.fromEntries([...scope.fields.keys()].map((name) => [name, undefined]));
  return { ...all, ...shadow, ...own };
}

/** The value of `name` in the nearest scope that declares it (a row, else the form). */
export function useScopedValue(name: string | undefined): unknown {
  const scope = useScope();
  const holder = scopeOf(scope, name ?? '');
  return useWatch({ control: holder.control, name: name ?? '__none__', disabled: !name });
}

/** The message of a field's error (messages arrive translated: from the validator, the server or the widget). */
export function errorText(error: unknown): string | undefined {
  const message = (error as FieldError | undefined)?.message;
  return typeof message === 'string' && message ? message : undefined;
}

/**
 * A field of the current scope bound to react-hook-form, with its texts.
 * A field that has shown a message is checked again at each change, so the
 * message goes as soon as the value is right: it never waits for the blur
 * that a click on Next or Save causes, when the layout moving under the
 * pointer would swallow that click.
 */
export function useFieldBinding(field: FieldDef, name: string) {
  const scope = useScope();
  const renderer = useRenderer();
  const text = useFieldText();
  // The nearest form is the scope's own (the row dialog's, else the renderer's).
  const { trigger } = useFormContext();
  const { field: controlled, fieldState } = useController({ control: scope.control, name });
  // A touched field is checked at each change already (mode onTouched); one shown a message by Next, a submit or the server
  // may not have been left yet: from its first message on, it is checked at each change too.
  const shownError = useRef(false);
  if (fieldState.error) shownError.current = true;
  const recheck = shownError.current && !fieldState.isTouched;
  const { onChange } = controlled;
  const binding = useMemo(
    () => ({
      ...controlled,
      onChange: (...args: unknown[]) => {
        onChange(...args);
        if (recheck) void trigger(name);
      },
    }),
    [controlled, onChange, recheck, trigger, name],
  );
  return {
    binding,
    error: errorText(fieldState.error),
    label: text.label(field),
    help: text.help(field),
    required: !!field.required,
    disabled: renderer.readOnly,
    text,
  };
}

/** Errors anywhere under `name` (a repeat group's rows). */
export function useErrorsUnder(name: string): unknown {
  const scope = useScope();
  const { errors } = useFormState({ control: scope.control, name });
  return get(errors, name);
}

/** The paths of every message in a react-hook-form errors tree (`household.2.age`). */
export function errorPaths(errors: unknown, prefix = ''): string[] {
  if (!errors || typeof errors !== 'object') return [];
  if (typeof (errors as FieldError).message === 'string' && (errors as FieldError).type !== undefined) return prefix ? [prefix] : [];
  return Object.entries(errors as Record<string, unknown>).flatMap(([key, value]) =>
    key === 'ref' || key === 'root' ? [] : errorPaths(value, prefix ? `${prefix}.${key}` : key),
  );
}

/**
 * Messages are translated when the validator runs: when the page's language
 * changes, the fields showing one are checked again so they speak it too.
 */
export function useRetranslateErrors(form: UseFormReturn<FieldValues>): void {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language;
  const errors = form.formState.errors;
  const errorsRef = useRef(errors);
  errorsRef.current = errors;
  const first = useRef(true);
  const { trigger } = form;
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const paths = errorPaths(errorsRef.current);
    if (paths.length) void trigger(paths);
  }, [language, trigger]);
}
