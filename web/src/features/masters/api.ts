import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { masterImportSchema, masterItemSchema, masterSchema } from '../../../../core/api/masters.js';
import type { Wire } from '../../../../core/api/wire.js';
import { type ListParams, useListPage } from '../../components/table/listParams.js';
import { apiDownload, apiFetch, saveBlob } from '../../lib/api.js';
import { type MutationCallbacks, refreshAfter } from '../../lib/mutation.js';

/** One master (GET /api/masters): a `system` one is seeded with every tenant (its code stays, it cannot be deleted). */
export type Master = Wire<z.infer<typeof masterSchema>>;

/** One item of a master (GET /api/masters/:code/items). */
export type MasterItem = Wire<z.infer<typeof masterItemSchema>>;

/** What a CSV import did, or would do on a dry run. */
export type ImportResult = Wire<z.infer<typeof masterImportSchema>>;

const MASTERS_PATH = '/api/masters';
const masterPath = (code: string) => `${MASTERS_PATH}/${encodeURIComponent(code)}`;
const itemsPath = (code: string) => `${masterPath(code)}/items`;

/**
 * The masters and the items of each master refresh apart: a change to a
 * master refreshes every master list, a change to items the lists of that
 * master's items (and the masters, whose item counts change).
 */
export const masterKeys = {
  all: ['masters'] as const,
  masters: () => [...masterKeys.all, 'master'] as const,
  lists: () => [...masterKeys.masters(), 'list'] as const,
  detail: (code: string) => [...masterKeys.masters(), 'detail', code] as const,
  parentOptions: () => [...masterKeys.masters(), 'parent-options'] as const,
  picker: () => [...masterKeys.masters(), 'picker'] as const,
  items: (code: string) => [...masterKeys.all, 'items', code] as const,
  itemLists: (code: string) => [...masterKeys.items(code), 'list'] as const,
  itemPicker: (code: string, search: string) => [...masterKeys.items(code), 'picker', search] as const,
};

export function useMasterQuery(code: string) {
  return useQuery({
    queryKey: masterKeys.detail(code),
    queryFn: ({ signal }) => apiFetch<Master>(masterPath(code), { signal }),
  });
}

/** The parent of a master, to label a filter; a user allowed the child only gets an error, silently. */
export function useParentMaster(parentCode: string | null) {
  return useQuery({
    queryKey: masterKeys.detail(parentCode ?? ''),
    queryFn: ({ signal }) => apiFetch<Master>(masterPath(parentCode ?? ''), { signal }),
    enabled: !!parentCode,
    retry: false,
    meta: { silentError: true },
  });
}

export function useMasterList(params: ListParams) {
  return useListPage<Master>(masterKeys.lists(), MASTERS_PATH, params);
}

/** The first 100 masters by name, for the parent choice of a master. */
export function useParentMasterOptions() {
  return useQuery({
    queryKey: masterKeys.parentOptions(),
    queryFn: ({ signal }) => apiFetch<{ items: Master[] }>(`${MASTERS_PATH}?limit=100&sortBy=name`, { signal }),
  });
}

/** The first 100 masters by name, for the form builder's master select. */
export function useMasterPicker() {
  return useQuery({
    queryKey: masterKeys.picker(),
    queryFn: ({ signal }) => apiFetch<{ items: Array<Pick<Master, 'code' | 'name' | 'parentCode'>> }>(`${MASTERS_PATH}?limit=100&sortBy=name`, { signal }),
    staleTime: 60_000,
  });
}

export function useMasterItemList(code: string, params: ListParams, filter: { parent?: string; active?: string }) {
  return useListPage<MasterItem>(masterKeys.itemLists(code), itemsPath(code), params, filter);
}

/** Items of a parent master matching `search`, for a picker (a parent may hold thousands). */
export function useMasterItemPicker(code: string, search: string) {
  return useQuery({
    queryKey: masterKeys.itemPicker(code, search),
    queryFn: ({ signal }) =>
      apiFetch<{ items: MasterItem[] }>(`${itemsPath(code)}?${new URLSearchParams({ limit: '50', sortBy: 'name', ...(search ? { search } : {}) })}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** Every list that shows masters, or the items of one master (their counts change too). */
export function useInvalidateMasters() {
  const queryClient = useQueryClient();
  return (code?: string) =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: masterKeys.masters() }),
      code ? queryClient.invalidateQueries({ queryKey: masterKeys.items(code) }) : undefined,
    ]);
}

export interface MasterBody {
  code: string;
  name: string;
  description: string;
  public: boolean;
  parentCode: string | null;
}

/** Creates a master, or updates `master`. Errors are the caller's to show (field errors). */
export function useSaveMaster(master: Master | null, callbacks: MutationCallbacks<Master, MasterBody> = {}) {
  const invalidate = useInvalidateMasters();
  return useMutation({
    mutationFn: (body: MasterBody) =>
      master ? apiFetch<Master>(masterPath(master.code), { method: 'PUT', json: body }) : apiFetch<Master>(MASTERS_PATH, { method: 'POST', json: body }),
    meta: { silentError: true },
    onSuccess: refreshAfter(callbacks, () => invalidate()),
    onError: callbacks.onError,
  });
}

export function useDeleteMaster(callbacks: MutationCallbacks<void, Master> = {}) {
  const invalidate = useInvalidateMasters();
  return useMutation({
    mutationFn: (master: Master) => apiFetch<void>(masterPath(master.code), { method: 'DELETE' }),
    onSuccess: refreshAfter(callbacks, () => invalidate()),
    onError: callbacks.onError,
  });
}

export interface MasterItemBody {
  code: string;
  name: string;
  /** The English name; '' for none. */
  nameEn: string;
  parentCode: string | null;
  active: boolean;
  extra: Record<string, unknown>;
}

/** Creates an item of `master`, or updates `item`. Errors are the caller's to show (field errors). */
export function useSaveMasterItem(master: Master, item: MasterItem | null, callbacks: MutationCallbacks<MasterItem, MasterItemBody> = {}) {
  const invalidate = useInvalidateMasters();
  return useMutation({
    mutationFn: (body: MasterItemBody) =>
      item
        ? apiFetch<MasterItem>(`${itemsPath(master.code)}/${item.id}`, { method: 'PUT', json: body })
        : apiFetch<MasterItem>(itemsPath(master.code), { method: 'POST', json: body }),
    meta: { silentError: true },
    onSuccess: refreshAfter(callbacks, () => invalidate(master.code)),
    onError: callbacks.onError,
  });
}

export function useDeleteMasterItem(master: Master, callbacks: MutationCallbacks<void, MasterItem> = {}) {
  const invalidate = useInvalidateMasters();
  return useMutation({
    mutationFn: (item: MasterItem) => apiFetch<void>(`${itemsPath(master.code)}/${item.id}`, { method: 'DELETE' }),
    onSuccess: refreshAfter(callbacks, () => invalidate(master.code)),
    onError: callbacks.onError,
  });
}

/** Downloads a master's items as the CSV the server names. */
export function useExportMasterItems(master: Master) {
  return useMutation({
    mutationFn: () => apiDownload(`${masterPath(master.code)}/export`),
    onSuccess: ({ blob, filename }) => saveBlob(blob, filename ?? `${master.code}.csv`),
  });
}

/**
 * A CSV import of a master's items: a dry run only reports what would change;
 * a real run writes the good rows and refreshes the master's lists.
 */
export function useImportMasterItems(master: Master, dryRun: boolean, callbacks: MutationCallbacks<ImportResult, File> = {}) {
  const invalidate = useInvalidateMasters();
  return useMutation({
    mutationFn: (file: File) =>
      apiFetch<ImportResult>(`${masterPath(master.code)}/import?dryRun=${dryRun}`, {
        method: 'POST',
        body: file,
        headers: { 'content-type': 'text/csv' },
      }),
    meta: { silentError: true },
    onSuccess: dryRun ? callbacks.onSuccess : refreshAfter(callbacks, () => invalidate(master.code)),
    onError: callbacks.onError,
  });
}

/** The page of a master's items: the spec's fixed routes for its own masters, /main/{code} for the others. */
export function masterPagePath(code: string): string {
  return `/main/${encodeURIComponent(code)}`;
}
