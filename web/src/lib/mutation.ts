/**
 * What a page adds to a feature's mutation hook: the hook refreshes the
 * cached data first, then calls these (a toast, closing a dialog, showing a
 * field's error).
 */
export interface MutationCallbacks<TData, TVariables> {
  onSuccess?: (data: TData, variables: TVariables) => unknown;
  onError?: (error: Error, variables: TVariables) => unknown;
}
