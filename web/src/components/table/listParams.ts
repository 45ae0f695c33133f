import { keepPreviousData, type QueryKey, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { apiFetch } from '../../lib/api.js';

/** The list convention of every resource (`GET /api/<resource>?page=&limit=&sortBy=&descending=&search=`). */
export interface ListPage<T> {
  items: T[];
  total: number;
}

export interface ListParams {
  /** 0-based, as the table shows it; the server counts from 1. */
  page: number;
  limit: number;
  sortBy: string;
  descending: boolean;
  search: string;
}

export const ROWS_PER_PAGE_OPTIONS = [10, 25, 50, 100];

/** Paging, sorting and search of one server-driven list; any change but the page goes back to the first page. */
export function useListParams(initial: { sortBy: string; descending?: boolean; limit?: number }) {
  const [params, setParams] = useState<ListParams>({
    page: 0,
    limit: initial.limit ?? ROWS_PER_PAGE_OPTIONS[0],
    sortBy: initial.sortBy,
    descending: initial.descending ?? false,
    search: '',
  });
  // Stable setters: the search box waits on them in an effect.
  const setters = useMemo(
    () => ({
      setPage: (page: number) => setParams((p) => ({ ...p, page })),
      setLimit: (limit: number) => setParams((p) => ({ ...p, limit, page: 0 })),
      setSort: (sortBy: string, descending: boolean) => setParams((p) => ({ ...p, sortBy, descending, page: 0 })),
      setSearch: (search: string) => setParams((p) => (p.search === search ? p : { ...p, search, page: 0 })),
    }),
    [],
  );
  return { params, ...setters };
}

/** The query string of a list request. */
export function listQueryString(params: ListParams, extra: Record<string, string | undefined> = {}): string {
  const query = new URLSearchParams({
    page: String(params.page + 1),
    limit: String(params.limit),
    sortBy: params.sortBy,
    descending: String(params.descending),
  });
  if (params.search.trim()) query.set('search', params.search.trim());
  for (const [key, value] of Object.entries(extra)) if (value !== undefined) query.set(key, value);
  return query.toString();
}

/**
 * One page of `path`, cached under `[...listKey, queryString]`; the previous
 * page stays on screen while the next one loads. Features call it from their
 * `api.ts` with the list key of their key factory.
 */
export function useListPage<T>(listKey: QueryKey, path: string, params: ListParams, extra: Record<string, string | undefined> = {}) {
  const qs = listQueryString(params, extra);
  return useQuery({
    queryKey: [...listKey, qs],
    queryFn: ({ signal }) => apiFetch<ListPage<T>>(`${path}?${qs}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** A DataTable's paging and sorting, bound to one list's params: `<DataTable {...tablePaging(list)} … />`. */
export function tablePaging(list: ReturnType<typeof useListParams>) {
  return {
    page: list.params.page,
    rowsPerPage: list.params.limit,
    onPageChange: list.setPage,
    onRowsPerPageChange: list.setLimit,
    sortBy: list.params.sortBy,
    descending: list.params.descending,
    onSortChange: list.setSort,
  };
}
