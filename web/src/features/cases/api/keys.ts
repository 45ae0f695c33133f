import { useQueryClient } from '@tanstack/react-query';
import { useInvalidateTasks } from '../../tasks/api.js';

export const CASES_PATH = '/api/cases';
/** The same list for case administration (target admin_cases), with the bulk actions under it. */
export const ADMIN_CASES_PATH = '/api/admin-cases';
export type CaseListPath = typeof CASES_PATH | typeof ADMIN_CASES_PATH;

export const casePath = (id: number | string) => `${CASES_PATH}/${encodeURIComponent(String(id))}`;

/**
 * Every cases query sits under `all`. A change to cases refreshes the lists
 * (both paths), their counts, each case's page (history, similar and the
 * ad-hoc task's preset under it) and the open-case picker; drafts, new
 * options, search fields, saved searches, exports and imports refresh on
 * their own terms.
 */
export const caseKeys = {
  all: ['cases'] as const,
  lists: () => [...caseKeys.all, 'list'] as const,
  list: (path: CaseListPath, queryString: string) => [...caseKeys.lists(), path, queryString] as const,
  counts: () => [...caseKeys.all, 'count'] as const,
  count: (path: CaseListPath, filterString: string) => [...caseKeys.counts(), path, filterString] as const,
  details: () => [...caseKeys.all, 'detail'] as const,
  detail: (id: number | string) => [...caseKeys.details(), String(id)] as const,
  history: (id: number | string) => [...caseKeys.detail(id), 'history'] as const,
  similar: (id: number | string) => [...caseKeys.detail(id), 'similar'] as const,
  publicTimeline: (id: number | string) => [...caseKeys.detail(id), 'public-timeline'] as const,
  adhocPreset: (id: number | string) => [...caseKeys.detail(id), 'adhoc-preset'] as const,
  openOptions: () => [...caseKeys.all, 'open-options'] as const,
  openOptionList: (search: string) => [...caseKeys.openOptions(), search] as const,
  drafts: () => [...caseKeys.all, 'drafts'] as const,
  draftList: () => [...caseKeys.drafts(), 'list'] as const,
  draft: (id: number) => [...caseKeys.drafts(), 'detail', id] as const,
  newOptions: () => [...caseKeys.all, 'new-options'] as const,
  searchFields: (path: CaseListPath) => [...caseKeys.all, 'search-fields', path] as const,
  savedSearches: () => [...caseKeys.all, 'saved-searches'] as const,
  export: (id: string | undefined) => [...caseKeys.all, 'exports', id] as const,
  imports: () => [...caseKeys.all, 'imports'] as const,
  importProgress: (id: number | undefined) => [...caseKeys.imports(), id, 'progress'] as const,
  importList: (queryString: string) => [...caseKeys.imports(), 'list', queryString] as const,
};

/** After a change to cases: the lists of both paths, their counts, every case page and the open-case picker. */
export function useInvalidateCases() {
  const client = useQueryClient();
  return () =>
    Promise.all(
      [caseKeys.lists(), caseKeys.counts(), caseKeys.details(), caseKeys.openOptions()].map((queryKey) => client.invalidateQueries({ queryKey })),
    );
}

/** After a change to a case: its page, its history, the case lists, drafts and every task view. */
export function useInvalidateCase() {
  const client = useQueryClient();
  const invalidateCases = useInvalidateCases();
  const invalidateTasks = useInvalidateTasks();
  return () => Promise.all([invalidateCases(), client.invalidateQueries({ queryKey: caseKeys.drafts() }), invalidateTasks()]);
}

/** Every list of drafts and each open draft. */
export function useInvalidateDrafts() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: caseKeys.drafts() });
}

/** The open-case picker's searches: a case that stops being open refreshes them. */
export function useInvalidateOpenCases() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: caseKeys.openOptions() });
}
