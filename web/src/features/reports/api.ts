/**
 * The reports feature's server data (core/api/reports.ts is the contract):
 * each report's pivot and rows, the downloads, the saved reports and the
 * staff home's dashboard. Pages and components import from here.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  caseCommentRowSchema,
  caseRowSchema,
  Dashboard,
  Pivot,
  ReportKind,
  SavedReport,
  SavedReportInput,
  taskRowSchema,
  userActionRowSchema,
} from '../../../../core/api/reports.js';
import type { Wire } from '../../../../core/api/wire.js';
import type { ListPage } from '../../components/table/listParams.js';
import { apiDownload, apiFetch, saveBlob } from '../../lib/api.js';
import { type MutationCallbacks, refreshAfter } from '../../lib/mutation.js';

export type PivotAnswer = Wire<Pivot>;
export type TaskRow = Wire<z.infer<typeof taskRowSchema>>;
export type CaseRow = Wire<z.infer<typeof caseRowSchema>>;
export type CaseCommentRow = Wire<z.infer<typeof caseCommentRowSchema>>;
export type UserActionRow = Wire<z.infer<typeof userActionRowSchema>>;
export type SavedReportItem = Wire<SavedReport>;
export type DashboardAnswer = Wire<Dashboard>;

/** The paged views of the reports and the path each is read from. */
export const ROWS_PATHS = {
  taskRows: '/api/reports/task-details/rows',
  caseRows: '/api/reports/tracking-by-case/rows',
  caseComments: '/api/reports/tracking-by-case/comments',
  userActions: '/api/reports/tracking-by-user/rows',
} as const;
export type RowsSource = keyof typeof ROWS_PATHS;

const SAVED_PATH = '/api/reports/saved';

export const reportKeys = {
  all: ['reports'] as const,
  pivot: (kind: ReportKind, queryString: string) => [...reportKeys.all, 'pivot', kind, queryString] as const,
  rows: (source: RowsSource, queryString: string) => [...reportKeys.all, 'rows', source, queryString] as const,
  saved: (kind: ReportKind) => [...reportKeys.all, 'saved', kind] as const,
  dashboard: () => [...reportKeys.all, 'dashboard'] as const,
};

/**
 * One report's pivot for the filters and layout of `queryString`. The
 * previous answer stays on screen while a new layout loads; a refusal (a
 * layout too large, an inverted period) is shown by the page, not a toast.
 */
export function useReportPivot(kind: ReportKind, queryString: string, enabled = true) {
  return useQuery({
    queryKey: reportKeys.pivot(kind, queryString),
    queryFn: ({ signal }) => apiFetch<PivotAnswer>(`/api/reports/${kind}/pivot?${queryString}`, { signal }),
    enabled,
    placeholderData: keepPreviousData,
    meta: { silentError: true },
  });
}

/**
 * One page of a report's rows (`queryString` holds the filters, paging and
 * sort). The previous page stays on screen while the next loads, but only
 * rows of the same source: another report's rows have other fields, which
 * the new columns cannot render.
 */
export function useReportRows<T>(source: RowsSource, queryString: string, enabled = true) {
  return useQuery({
    queryKey: reportKeys.rows(source, queryString),
    queryFn: ({ signal }) => apiFetch<ListPage<T>>(`${ROWS_PATHS[source]}?${queryString}`, { signal }),
    enabled,
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[2] === source ? previous : undefined),
    meta: { silentError: true },
  });
}

/**
 * Downloads one view of a report (GET /api/reports/<report>/export, streamed
 * by the server) and saves it. Errors are the caller's to show: the spec
 * asks to say "download again".
 */
export function useDownloadReport(callbacks: MutationCallbacks<void, { kind: ReportKind; queryString: string; format: 'csv' | 'xlsx' }> = {}) {
  return useMutation({
    mutationFn: async ({ kind, queryString, format }: { kind: ReportKind; queryString: string; format: 'csv' | 'xlsx' }) => {
      const file = await apiDownload(`/api/reports/${kind}/export?${queryString}`);
      saveBlob(file.blob, file.filename ?? `${kind}.${format}`);
    },
    meta: { silentError: true },
    onSuccess: callbacks.onSuccess,
    onError: callbacks.onError,
  });
}

/** The saved reports of one report the reader may open: their own and those shared with their teams. */
export function useSavedReports(kind: ReportKind, enabled = true) {
  return useQuery({
    queryKey: reportKeys.saved(kind),
    queryFn: ({ signal }) => apiFetch<{ items: SavedReportItem[] }>(`${SAVED_PATH}?report=${encodeURIComponent(kind)}`, { signal }),
    enabled,
  });
}

function useInvalidateSaved() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: [...reportKeys.all, 'saved'] });
}

/** Saves the screen's filters and layout under a name, shared with a team or not. Errors are the caller's to show. */
export function useSaveReport(callbacks: MutationCallbacks<SavedReportItem, SavedReportInput> = {}) {
  const refresh = useInvalidateSaved();
  return useMutation({
    mutationFn: (body: SavedReportInput) => apiFetch<SavedReportItem>(SAVED_PATH, { method: 'POST', json: body }),
    meta: { silentError: true },
    onSuccess: refreshAfter(callbacks, () => refresh()),
    onError: callbacks.onError,
  });
}

/** Deletes a saved report (its owner only; the server checks). */
export function useDeleteSavedReport(callbacks: MutationCallbacks<void, SavedReportItem> = {}) {
  const refresh = useInvalidateSaved();
  return useMutation({
    mutationFn: (saved: SavedReportItem) => apiFetch<void>(`${SAVED_PATH}/${saved.id}`, { method: 'DELETE' }),
    onSuccess: refreshAfter(callbacks, () => refresh()),
    onError: callbacks.onError,
  });
}

/** The staff home's figures (GET /api/reports/dashboard), over what the reader may see. */
export function useDashboard(enabled = true) {
  return useQuery({
    queryKey: reportKeys.dashboard(),
    queryFn: ({ signal }) => apiFetch<DashboardAnswer>('/api/reports/dashboard', { signal }),
    enabled,
    staleTime: 30_000,
    meta: { silentError: true },
  });
}

/**
 * A person's name the reports already answered (a pivot by person, the
 * tracking by user's rows), for the person filter of an address that holds
 * only their id (a drill-down, a saved report). Undefined when none did.
 */
export function useKnownUserName(userId: string): string | undefined {
  const client = useQueryClient();
  if (!userId) return undefined;
  for (const [, data] of client.getQueriesData<PivotAnswer | ListPage<UserActionRow>>({ queryKey: reportKeys.all })) {
    if (!data) continue;
    if ('rowKeys' in data) {
      const keys = [...(PEOPLE.includes(data.rows) ? data.rowKeys : []), ...(data.columns && PEOPLE.includes(data.columns) ? data.columnKeys : [])];
      const found = keys.find((k) => k.key === userId && k.label);
      if (found?.label) return found.label;
    } else if (Array.isArray(data.items)) {
      const found = data.items.find((row) => String((row as Partial<UserActionRow>).usuario_id) === userId);
      if (found?.nombre) return found.nombre;
    }
  }
  return undefined;
}

const PEOPLE: readonly string[] = ['user', 'responsible'];
