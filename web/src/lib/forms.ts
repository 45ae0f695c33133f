import type { TFunction } from 'i18next';
import type { FieldError, FieldErrors, FieldValues, Path, Resolver, UseFormSetError } from 'react-hook-form';
import { showToast } from '../components/feedback/toastStore.js';
import i18n from '../i18n/index.js';
import { ApiError, type ApiErrorCode, errorMessage } from './api.js';

/**
 * The text of a field error. The shared schemas (core/auth.ts) carry i18n
 * keys as messages and are translated here; errors set from a server answer
 * (type 'server') arrive translated already.
 */
export function fieldErrorText(t: TFunction, error: FieldError | undefined): string | undefined {
  if (!error?.message) return undefined;
  return error.type === 'server' ? error.message : t(error.message);
}

/**
 * A resolver whose schema (and zod with it) loads on the first validation,
 * so a page in the first bundle does not carry zod: it arrives while the
 * user types.
 */
export function lazyResolver<TValues extends FieldValues, TOutput>(
  load: () => Promise<Resolver<TValues, unknown, TOutput>>,
): Resolver<TValues, unknown, TOutput> {
  let loading: Promise<Resolver<TValues, unknown, TOutput>> | null = null;
  return async (values, context, options) => {
    let resolver: Resolver<TValues, unknown, TOutput>;
    try {
      loading ??= load();
      resolver = await loading;
    } catch {
      loading = null;
      const message = i18n.t('sms.network');
      showToast(message);
      return { values: {}, errors: { root: { type: 'load', message } } as FieldErrors<TValues> };
    }
    return resolver(values, context, options);
  };
}

/** Starts loading a lazy resolver's code ahead of the first validation. */
export function preload(load: () => Promise<unknown>): void {
  void load().catch(() => undefined);
}

/**
 * Shows a failed submit where it belongs: the server's `details` under their
 * fields, a code that concerns one field (e.g. EMAIL_TAKEN) under that field,
 * anything else through `otherwise` (a toast by default). Returns whether a
 * field took the message.
 */
export function showServerError<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly Path<T>[],
  options: { byCode?: Partial<Record<ApiErrorCode, Path<T>>>; otherwise?: (message: string) => void } = {},
): boolean {
  const otherwise = options.otherwise ?? ((message: string) => showToast(message));
  if (!(error instanceof ApiError)) {
    otherwise(errorMessage(error));
    return false;
  }
  let placed = false;
  for (const detail of error.details) {
    const field = fields.find((f) => f === detail.path);
    if (!field) continue;
    setError(field, { type: 'server', message: detail.message }, { shouldFocus: !placed });
    placed = true;
  }
  if (placed) return true;
  const byCode = options.byCode?.[error.code];
  if (byCode) {
    setError(byCode, { type: 'server', message: error.message }, { shouldFocus: true });
    return true;
  }
  otherwise(error.message);
  return false;
}
