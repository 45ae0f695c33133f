import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { bulkResultSchema, caseCountSchema, caseExportSchema, caseItemSchema, caseListSchema, savedSearchSchema } from '../../../../../core/api/cases.js';
import type { Wire } from '../../../../../core/api/wire.js';
import { apiDownload, apiFetch, saveBlob } from '../../../lib/api.js';
import { type MutationCallbacks, refreshAfter } from '../../../lib/mutation.js';
import { ADMIN_CASES_PATH, CASES_PATH, type CaseListPath, caseKeys, useInvalidateCases } from './keys.js';

/** One case of the lists (GET /api/cases), from the server's schema; dates arrive as ISO strings. */
export type CaseItem = Wire<z.infer<typeof caseItemSchema>>;

const SAVED_SEARCHES_PATH = '/api/cases/saved-searches';
const SEARCH_FIELDS_PATH = '/api/cases/search-fields';
const EXPORTS_PATH = '/api/cases/exports';
const IMPORTS_PATH = '/api/cases/imports';
/** How often a running export is asked for its progress. */
const POLL_MS = 700;
/** How often a running import is asked for its progress (its rate and time left change every second). */
const IMPORT_POLL_MS = 1000;

/** The server's limits on one import file (its refusal names the one passed). */
export const IMPORT_MAX_ROWS = 1_000_000;
export const IMPORT_MAX_MB = 200;

/** The types the server reads an import from (it tells CSV from Excel by the content). */
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const IMPORT_TYPES = ['text/csv', 'application/csv', XLSX_TYPE, 'application/octet-stream'];

/**
 * The content type an import file is sent with: its own when the server
 * takes it, Excel's for a .xlsx (some systems give none), else CSV (Windows
 * calls a .csv "application/vnd.ms-excel").
 */
export function importContentType(file: File): string {
  if (IMPORT_TYPES.includes(file.type)) return file.type;
  if (/\.xlsx$/i.test(file.name)) return XLSX_TYPE;
  return 'text/csv';
}

/**
 * The parameters GET /api/cases filters by (besides paging and sorting). The
 * page's address holds them under the same names, so the address, a saved
 * search and an export all carry one query.
 */
export const FILTER_KEYS = ['search', 'state', 'protocolId', 'ownerId', 'teamId', 'from', 'to', 'possibleDuplicated', 'filters'] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];
export const SORT_KEYS = ['sortBy', 'descending'] as const;
/** Columns the server sorts by. */
export const SORTABLE = ['doc_date', 'serial', 'state', 'created_at', 'updated_at'] as const;

/** A query as an object: `state` is a list when several states are chosen. */
export type CaseQuery = Partial<Record<FilterKey | (typeof SORT_KEYS)[number], string | string[]>>;

/** A page of cases; `capped` says the total is a floor (more match than the server counted). */
export type CasePage = Wire<z.infer<typeof caseListSchema>>;

/** How many cases match, counted by the server up to a cap (`capped`: more match). */
export type CaseCount = Wire<z.infer<typeof caseCountSchema>>;

/**
 * One page of cases for a query string built from the address. The page is
 * not counted (`count=false`): its total only says how far it reaches and
 * whether more follow; useCaseCount asks for the count once per filter.
 */
export function useCaseList(queryString: string, path: CaseListPath = CASES_PATH) {
  return useQuery({
    queryKey: caseKeys.list(path, queryString),
    queryFn: ({ signal }) => apiFetch<CasePage>(`${path}?${queryString}&count=false`, { signal }),
    placeholderData: keepPreviousData,
    // The page shows the error itself, with what the server said about the search.
    meta: { silentError: true },
  });
}

/** How many cases the filters (no paging or sorting) match: asked once per filter, not once per page. */
export function useCaseCount(filterString: string, path: CaseListPath = CASES_PATH) {
  return useQuery({
    queryKey: caseKeys.count(path, filterString),
    queryFn: ({ signal }) => apiFetch<CaseCount>(`${path}/count?${filterString}`, { signal }),
    // The list reports a bad search; the count only stays unknown.
    meta: { silentError: true },
    retry: false,
  });
}

/**
 * What the table shows as its total. The count when it is exact; the page's
 * reach when the page is the last one (also past the count's cap); otherwise
 * a floor ("of more than"), the larger of the count and the page's reach.
 */
export function caseTotal(page: CasePage | undefined, count: CaseCount | undefined): { total: number; floor: boolean } {
  if (count && !count.capped) return { total: count.total, floor: false };
  if (page && !page.capped) return { total: page.total, floor: false };
  return { total: Math.max(count?.total ?? 0, page?.total ?? 0), floor: true };
}

/** A field of a protocol's main form, as the advanced search offers it. */
export interface SearchField {
  name: string;
  type: string;
  label: string;
  label_en?: string;
  options?: Array<{ value: string | number; label: string; label_en?: string }>;
}

export interface SearchProtocol {
  id: number;
  name: string;
  fields: SearchField[];
}

/** The published protocols and their main forms' fields (for filters, the advanced search and imports). */
export function useSearchFields(path: CaseListPath = CASES_PATH) {
  const url = path === CASES_PATH ? SEARCH_FIELDS_PATH : `${path}/search-fields`;
  return useQuery({
    queryKey: caseKeys.searchFields(path),
    queryFn: ({ signal }) => apiFetch<{ protocols: SearchProtocol[] }>(url, { signal }),
    staleTime: 60_000,
  });
}

export type SavedSearch = Wire<z.infer<typeof savedSearchSchema>>;

export function useSavedSearches(enabled = true) {
  return useQuery({
    queryKey: caseKeys.savedSearches(),
    queryFn: ({ signal }) => apiFetch<SavedSearch[]>(SAVED_SEARCHES_PATH, { signal }),
    enabled,
  });
}

/** Saves the current query under a name (the server keeps one search per name). Errors are the caller's to show. */
export function useSaveSearch(callbacks: MutationCallbacks<SavedSearch, { name: string; query: CaseQuery }> = {}) {
  const refresh = useInvalidateSavedSearches();
  return useMutation({
    mutationFn: (search: { name: string; query: CaseQuery }) => apiFetch<SavedSearch>(SAVED_SEARCHES_PATH, { method: 'POST', json: search }),
    meta: { silentError: true },
    onSuccess: refreshAfter(callbacks, () => refresh()),
    onError: callbacks.onError,
  });
}

export function useDeleteSavedSearch(callbacks: MutationCallbacks<void, SavedSearch> = {}) {
  const refresh = useInvalidateSavedSearches();
  return useMutation({
    mutationFn: (search: SavedSearch) => apiFetch<void>(`${SAVED_SEARCHES_PATH}/${search.id}`, { method: 'DELETE' }),
    onSuccess: refreshAfter(callbacks, () => refresh()),
    onError: callbacks.onError,
  });
}

function useInvalidateSavedSearches() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: caseKeys.savedSearches() });
}

/** A background export of the current result (POST /api/cases/exports, then GET .../:id until done); `error` is in the caller's language. */
export type ExportJob = Wire<z.infer<typeof caseExportSchema>>;

export type ExportFormat = 'csv' | 'xlsx';

/** One problem of a CSV row: `line` is the file's line (the header is line 1). */
export interface RowError {
  line: number;
  field: string | null;
  message: string;
}

/** How an import treats bad rows: import the valid ones (the rest come back as a file), or nothing unless every row is valid. */
export type ImportMode = 'valid_rows' | 'all_or_nothing';
export const IMPORT_MODES: readonly ImportMode[] = ['valid_rows', 'all_or_nothing'];

/**
 * Where an import stands: uploaded (not run yet), running, done, interrupted
 * (stopped before the end; running it again resumes), or rejected (all or
 * nothing found bad rows and imported nothing).
 */
export type ImportStatus = 'uploaded' | 'running' | 'done' | 'interrupted' | 'rejected';

/** An import as the tenant's list shows it (GET /api/cases/imports): no columns, sample or errors. */
export interface ImportSummary {
  id: number;
  protocolId: number;
  protocolName: string;
  fileName: string;
  kind: 'csv' | 'xlsx';
  mode: ImportMode;
  status: ImportStatus;
  total: number;
  processed: number;
  created: number;
  skipped: number;
  failed: number;
  /** Who uploaded it; only they may run it (`mine`). */
  userName: string;
  mine: boolean;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  /** While it runs: how fast, and how long it should still take. */
  rowsPerSecond: number | null;
  secondsLeft: number | null;
}

/** An uploaded CSV or Excel file and, once run, its progress and report (GET /api/cases/imports/:id). */
export interface ImportJob extends ImportSummary {
  header: string[];
  errors: RowError[];
  /** What a column may fill: the main form's fields (a repeat group's first row as `group.field`). */
  fields: Array<{ name: string; label: string; required: boolean }>;
  /** The first rows, to recognise the columns. */
  sample: Array<Record<string, string>>;
}

/** An import has ended (and may have rejected rows to give back). */
export const importEnded = (status: ImportStatus) => status === 'done' || status === 'rejected' || status === 'interrupted';

/** The rejected rows of an ended import can be downloaded as a file. */
export const hasRejectedRows = (job: Pick<ImportSummary, 'status' | 'failed'>) => job.failed > 0 && importEnded(job.status);

export interface ImportMapping {
  /** File column -> form field; unmapped columns are ignored. */
  mapping: Record<string, string>;
  /** The column whose value identifies a row across imports. */
  refColumn: string;
  mode: ImportMode;
}

export interface DryRunResult {
  valid: number;
  alreadyImported: number;
  errors: RowError[];
}

/** What a bulk action did, case by case. */
export type BulkResult = Wire<z.infer<typeof bulkResultSchema>>;

/** Starts a background export of a query's result; its progress is useCaseExportJob. Errors are the caller's to show. */
export function useStartCaseExport() {
  return useMutation({
    mutationFn: (request: { format: ExportFormat; query: CaseQuery }) => apiFetch<Pick<ExportJob, 'id'>>(EXPORTS_PATH, { method: 'POST', json: request }),
    meta: { silentError: true },
  });
}

/** A running export, asked again until it is done or failed. Errors are the caller's to show. */
export function useCaseExportJob(id: string | undefined) {
  return useQuery({
    queryKey: caseKeys.export(id),
    queryFn: ({ signal }) => apiFetch<ExportJob>(`${EXPORTS_PATH}/${id}`, { signal }),
    enabled: !!id,
    refetchInterval: (q) => (q.state.data && q.state.data.state !== 'running' ? false : POLL_MS),
    meta: { silentError: true },
  });
}

/** Saves a finished export's file under the name the server gave it. Errors are the caller's to show. */
export function useDownloadCaseExport(format: ExportFormat, callbacks: MutationCallbacks<void, ExportJob> = {}) {
  return useMutation({
    mutationFn: async (done: ExportJob) => {
      const file = await apiDownload(`${EXPORTS_PATH}/${done.id}/file`);
      saveBlob(file.blob, file.filename ?? done.filename ?? `cases.${format}`);
    },
    meta: { silentError: true },
    onSuccess: callbacks.onSuccess,
    onError: callbacks.onError,
  });
}

/** Uploads a CSV or Excel file for an import under a protocol: the answer names its columns and a sample. Errors are the caller's to show. */
export function useUploadCaseImport(protocolId: string, callbacks: MutationCallbacks<ImportJob, File> = {}) {
  return useMutation({
    mutationFn: (file: File) =>
      apiFetch<ImportJob>(`${IMPORTS_PATH}?protocolId=${encodeURIComponent(protocolId)}&fileName=${encodeURIComponent(file.name.slice(0, 200))}`, {
        method: 'POST',
        body: file,
        headers: { 'content-type': importContentType(file) },
      }),
    meta: { silentError: true },
    onSuccess: callbacks.onSuccess,
    onError: callbacks.onError,
  });
}

/** An uploaded import and the mapping of its columns. */
export interface ImportRequest {
  id: number | undefined;
  mapping: ImportMapping;
}

/** Checks every row of an uploaded import against the mapping. Errors are the caller's to show (by column). */
export function useCaseImportDryRun(callbacks: MutationCallbacks<DryRunResult, ImportRequest> = {}) {
  return useMutation({
    mutationFn: ({ id, mapping }: ImportRequest) => apiFetch<DryRunResult>(`${IMPORTS_PATH}/${id}/dry-run`, { method: 'POST', json: mapping }),
    meta: { silentError: true },
    onSuccess: callbacks.onSuccess,
    onError: callbacks.onError,
  });
}

/** Runs an import in the background; its progress is useCaseImportProgress. Errors are the caller's to show. */
export function useRunCaseImport(callbacks: MutationCallbacks<ImportJob, ImportRequest> = {}) {
  return useMutation({
    mutationFn: ({ id, mapping }: ImportRequest) => apiFetch<ImportJob>(`${IMPORTS_PATH}/${id}/run`, { method: 'POST', json: mapping }),
    meta: { silentError: true },
    onSuccess: callbacks.onSuccess,
    onError: callbacks.onError,
  });
}

/**
 * An import after its run was asked for, fetched again on each realtime
 * 'import' change, and every second until it ends as well (the dialog's
 * progress must move even while the socket reconnects; "uploaded" too: a run
 * waits a moment in the queue before it starts). Errors are the caller's to show.
 */
export function useCaseImportProgress(id: number | undefined, enabled: boolean) {
  return useQuery({
    queryKey: caseKeys.importProgress(id),
    queryFn: ({ signal }) => apiFetch<ImportJob>(`${IMPORTS_PATH}/${id}`, { signal }),
    enabled,
    refetchInterval: (q) => (q.state.data && importEnded(q.state.data.status) ? false : IMPORT_POLL_MS),
    meta: { silentError: true },
  });
}

/** A page of the tenant's imports, newest first; fetched again when the server announces an import changed (realtime 'import', any user's). */
export function useCaseImports(page: { page: number; pageSize: number }) {
  const qs = new URLSearchParams({ page: String(page.page + 1), pageSize: String(page.pageSize) }).toString();
  return useQuery({
    queryKey: caseKeys.importList(qs),
    queryFn: ({ signal }) => apiFetch<{ items: ImportSummary[]; total: number }>(`${IMPORTS_PATH}?${qs}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** The name the rejected rows' file is saved under when the server names none. */
const rejectedFileName = (fileName: string) => `${fileName.replace(/\.(csv|xlsx)$/i, '')}-rejected.csv`;

/**
 * Saves the rejected rows of an ended import as a CSV (the original columns,
 * the line and the reasons), to fix in a spreadsheet and import again.
 * Errors are the caller's to show.
 */
export function useDownloadRejectedRows(callbacks: MutationCallbacks<void, Pick<ImportSummary, 'id' | 'fileName'>> = {}) {
  return useMutation({
    mutationFn: async (job: Pick<ImportSummary, 'id' | 'fileName'>) => {
      const file = await apiDownload(`${IMPORTS_PATH}/${job.id}/rejected`);
      saveBlob(file.blob, file.filename ?? rejectedFileName(job.fileName));
    },
    meta: { silentError: true },
    onSuccess: callbacks.onSuccess,
    onError: callbacks.onError,
  });
}

/** Closes several cases, each on its own (an optional reason goes to each history). */
export function useBulkCloseCases(callbacks: MutationCallbacks<BulkResult, { ids: number[]; reason?: string }> = {}) {
  const invalidate = useInvalidateCases();
  return useMutation({
    mutationFn: (body: { ids: number[]; reason?: string }) => apiFetch<BulkResult>(`${ADMIN_CASES_PATH}/close`, { method: 'POST', json: body }),
    onSuccess: refreshAfter(callbacks, () => invalidate()),
    onError: callbacks.onError,
  });
}

/** Gives several cases to another owner. Errors are the caller's to show. */
export function useBulkReassignCases(callbacks: MutationCallbacks<BulkResult, { ids: number[]; userId: number }> = {}) {
  const invalidate = useInvalidateCases();
  return useMutation({
    mutationFn: (body: { ids: number[]; userId: number }) => apiFetch<BulkResult>(`${ADMIN_CASES_PATH}/reassign`, { method: 'POST', json: body }),
    meta: { silentError: true },
    onSuccess: refreshAfter(callbacks, () => invalidate()),
    onError: callbacks.onError,
  });
}
