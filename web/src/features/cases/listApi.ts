import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CaseState } from '../../../../core/workflow/states.js';
import type { ListPage } from '../../components/table/listParams.js';
import { apiFetch } from '../../lib/api.js';

/** One case of the lists (GET /api/cases). Dates arrive as ISO strings. */
export interface CaseItem {
  id: number;
  number: string | null;
  state: CaseState;
  protocolId: number;
  protocolName: string;
  caseType: string;
  ownerId: number;
  ownerName: string;
  applicant: string;
  docDate: string | null;
  possibleDuplicated: boolean;
  openTasks: number;
  createdAt: string;
  updatedAt: string;
}

export const CASES_PATH = '/api/cases';
export const SAVED_SEARCHES_PATH = '/api/cases/saved-searches';
export const SEARCH_FIELDS_PATH = '/api/cases/search-fields';
export const EXPORTS_PATH = '/api/cases/exports';
export const IMPORTS_PATH = '/api/cases/imports';
/** The same list for case administration (target admin_cases), with the bulk actions under it. */
export const ADMIN_CASES_PATH = '/api/admin-cases';
export type CaseListPath = typeof CASES_PATH | typeof ADMIN_CASES_PATH;

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
export type CasePage = ListPage<CaseItem> & { capped?: boolean };

/** How many cases match, counted by the server up to a cap (`capped`: more match). */
export interface CaseCount {
  total: number;
  capped: boolean;
}

/**
 * One page of cases for a query string built from the address. The page is
 * not counted (`count=false`): its total only says how far it reaches and
 * whether more follow; useCaseCount asks for the count once per filter.
 */
export function useCaseList(queryString: string, path: CaseListPath = CASES_PATH) {
  return useQuery({
    queryKey: [path, 'list', queryString],
    queryFn: ({ signal }) => apiFetch<CasePage>(`${path}?${queryString}&count=false`, { signal }),
    placeholderData: keepPreviousData,
    // The page shows the error itself, with what the server said about the search.
    meta: { silentError: true },
  });
}

/** How many cases the filters (no paging or sorting) match: asked once per filter, not once per page. */
export function useCaseCount(filterString: string, path: CaseListPath = CASES_PATH) {
  return useQuery({
    queryKey: [path, 'count', filterString],
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

export function useInvalidateCases() {
  const client = useQueryClient();
  return () => Promise.all([CASES_PATH, ADMIN_CASES_PATH].map((path) => client.invalidateQueries({ queryKey: [path] })));
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
    queryKey: [url],
    queryFn: ({ signal }) => apiFetch<{ protocols: SearchProtocol[] }>(url, { signal }),
    staleTime: 60_000,
  });
}

export interface SavedSearch {
  id: number;
  name: string;
  query: Record<string, unknown>;
}

export function useSavedSearches(enabled = true) {
  return useQuery({
    queryKey: [SAVED_SEARCHES_PATH],
    queryFn: ({ signal }) => apiFetch<SavedSearch[]>(SAVED_SEARCHES_PATH, { signal }),
    enabled,
  });
}

/** A background export of the current result (POST /api/cases/exports, then GET .../:id until done). */
export interface ExportJob {
  id: string;
  state: 'running' | 'done' | 'failed';
  done: number;
  total: number;
  filename: string | null;
  /** Already in the caller's language. */
  error: string | null;
}

export type ExportFormat = 'csv' | 'xlsx';

/** One problem of a CSV row: `line` is the file's line (the header is line 1). */
export interface RowError {
  line: number;
  field: string | null;
  message: string;
}

/** An uploaded CSV and, once run, its progress and report (GET /api/cases/imports/:id). */
export interface ImportJob {
  id: number;
  protocolId: number;
  fileName: string;
  header: string[];
  total: number;
  status: string;
  processed: number;
  created: number;
  skipped: number;
  failed: number;
  errors: RowError[];
  /** What a column may fill: the main form's fields (a repeat group's first row as `group.field`). */
  fields: Array<{ name: string; label: string; required: boolean }>;
  /** The first rows, to recognise the columns. */
  sample: Array<Record<string, string>>;
}

export interface ImportMapping {
  /** CSV column -> form field; unmapped columns are ignored. */
  mapping: Record<string, string>;
  /** The column whose value identifies a row across imports. */
  refColumn: string;
}

export interface DryRunResult {
  valid: number;
  alreadyImported: number;
  errors: RowError[];
}

/** What a bulk action did, case by case. */
export interface BulkResult {
  done: number[];
  failed: Array<{ id: number; message: string }>;
}
