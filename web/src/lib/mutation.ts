/**
 * What a page adds to a feature's mutation hook. `onSuccess` runs first (a
 * toast, resetting a form), then the hook refreshes the cached data it
 * changed, then `onRefreshed` (closing a dialog, leaving the page) sees the
 * fresh data. `onError` shows the failure (field errors, a toast).
 */
export interface MutationCallbacks<TData, TVariables> {
  onSuccess?: (data: TData, variables: TVariables) => unknown;
  onRefreshed?: (data: TData, variables: TVariables) => unknown;
  onError?: (error: Error, variables: TVariables) => unknown;
}

/** A hook's onSuccess: the page's callback, the refresh of the cache, then the page's `onRefreshed`. */
export function refreshAfter<TData, TVariables>(
  callbacks: MutationCallbacks<TData, TVariables>,
  refresh: (data: TData, variables: TVariables) => unknown,
) {
  return async (data: TData, variables: TVariables) => {
    await callbacks.onSuccess?.(data, variables);
    await refresh(data, variables);
    await callbacks.onRefreshed?.(data, variables);
  };
}
