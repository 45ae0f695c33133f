import { useCallback, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { decodeSearch, type SearchRow, searchRowsSchema } from '../../../../../core/cases/search.js';
import { CASE_STATES, type CaseState } from '../../../../../core/workflow/states.js';
import { ROWS_PER_PAGE_OPTIONS } from '../../../components/table/listParams.js';
import { type CaseQuery, FILTER_KEYS, type FilterKey, SORT_KEYS, SORTABLE } from '../api.js';

/** The list's filters as the screen edits them; each one is a parameter of the address. */
export interface CaseFilterValues {
  search: string;
  states: CaseState[];
  protocolId: string;
  ownerId: string;
  teamId: string;
  /** yyyy-mm-dd */
  from: string;
  to: string;
  possibleDuplicated: '' | 'true' | 'false';
  /** The advanced search's `filters` parameter as it stands (JSON rows). */
  filters: string;
}

export const DEFAULT_SORT = { sortBy: 'doc_date', descending: true } as const;

/** The states a listed case can be in (drafts are not listed). */
export const LISTED_STATES = CASE_STATES.filter((s) => s !== 'DRAFT');

const isState = (value: string): value is CaseState => (CASE_STATES as readonly string[]).includes(value);

export function readFilters(params: URLSearchParams): CaseFilterValues {
  const duplicate = params.get('possibleDuplicated');
  return {
    search: params.get('search') ?? '',
    states: params.getAll('state').filter(isState),
    protocolId: params.get('protocolId') ?? '',
    ownerId: params.get('ownerId') ?? '',
    teamId: params.get('teamId') ?? '',
    from: params.get('from') ?? '',
    to: params.get('to') ?? '',
    possibleDuplicated: duplicate === 'true' || duplicate === 'false' ? duplicate : '',
    filters: params.get('filters') ?? '',
  };
}

/** The rows of an advanced search in the address, or none when it cannot be read (the server says why). */
export function readRows(filters: string): SearchRow[] {
  if (!filters) return [];
  const parsed = searchRowsSchema.safeParse(decodeSearch(filters));
  return parsed.success ? parsed.data : [];
}

/** The filters (and sort) of the address as one object, for a saved search or an export. */
export function queryOf(params: URLSearchParams): CaseQuery {
  const query: CaseQuery = {};
  for (const key of [...FILTER_KEYS, ...SORT_KEYS]) {
    const values = params.getAll(key).filter((v) => v !== '');
    if (values.length === 0) continue;
    query[key] = key === 'state' && values.length > 1 ? values : (values[0] as string);
  }
  return query;
}

/** Whether the address narrows the list at all (so "Clear" and "Save" mean something). */
export function hasFilters(params: URLSearchParams): boolean {
  return FILTER_KEYS.some((key) => params.getAll(key).some((v) => v !== ''));
}

/** A saved search's query back as address parameters (only the names the list knows). */
export function paramsOfQuery(query: Record<string, unknown>): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of [...FILTER_KEYS, ...SORT_KEYS]) {
    const value = query[key];
    if (Array.isArray(value)) for (const v of value) params.append(key, String(v));
    else if (typeof value === 'string' && value !== '') params.set(key, value);
  }
  return params;
}

export interface CaseListView {
  filters: CaseFilterValues;
  /** 0-based, as the table shows it. */
  page: number;
  limit: number;
  sortBy: string;
  descending: boolean;
}

function readView(params: URLSearchParams): CaseListView {
  const page = Number(params.get('page'));
  const limit = Number(params.get('limit'));
  const sortBy = params.get('sortBy') ?? '';
  const descending = params.get('descending');
  return {
    filters: readFilters(params),
    page: Number.isInteger(page) && page >= 1 ? page - 1 : 0,
    limit: ROWS_PER_PAGE_OPTIONS.includes(limit) ? limit : ROWS_PER_PAGE_OPTIONS[0],
    sortBy: (SORTABLE as readonly string[]).includes(sortBy) ? sortBy : DEFAULT_SORT.sortBy,
    descending: descending === null ? DEFAULT_SORT.descending : descending === 'true',
  };
}

/** The query string of GET /api/cases for what the address holds. */
export function apiQueryString(params: URLSearchParams, view: CaseListView): string {
  const paging = new URLSearchParams({ page: String(view.page + 1), limit: String(view.limit), sortBy: view.sortBy, descending: String(view.descending) });
  const filters = filterQueryString(params);
  return filters ? `${paging.toString()}&${filters}` : paging.toString();
}

/** The filters of the address alone (GET /api/cases/count): the same for every page and sort order. */
export function filterQueryString(params: URLSearchParams): string {
  const query = new URLSearchParams();
  for (const key of FILTER_KEYS) for (const value of params.getAll(key)) if (value !== '') query.append(key, value);
  return query.toString();
}

type Patch = Partial<CaseFilterValues>;

/**
 * The case list's state in the address (?state=PENDING&filters=...&page=2):
 * a search can be bookmarked, shared and reloaded. Any change but the page
 * goes back to the first page. The setters are stable.
 */
export function useCaseUrl() {
  const [params, setParams] = useSearchParams();
  const view = useMemo(() => readView(params), [params]);
  const latest = useRef(params);
  latest.current = params;

  const write = useCallback(
    (change: (next: URLSearchParams) => void, options: { keepPage?: boolean; replace?: boolean } = {}) => {
      const next = new URLSearchParams(latest.current);
      change(next);
      if (!options.keepPage) next.delete('page');
      if (next.toString() === latest.current.toString()) return;
      latest.current = next;
      setParams(next, { replace: options.replace });
    },
    [setParams],
  );

  const setters = useMemo(
    () => ({
      update: (patch: Patch) =>
        write(
          (next) => {
            for (const [key, value] of Object.entries(patch) as Array<[keyof CaseFilterValues, string | string[]]>) {
              const name: FilterKey = key === 'states' ? 'state' : key;
              next.delete(name);
              if (Array.isArray(value)) for (const v of value) next.append(name, v);
              else if (value.trim() !== '') next.set(name, value.trim());
            }
          },
          // Typing in the search box should not fill the history.
          { replace: Object.keys(patch).length === 1 && 'search' in patch },
        ),
      setPage: (page: number) => write((next) => (page > 0 ? next.set('page', String(page + 1)) : next.delete('page')), { keepPage: true }),
      setLimit: (limit: number) => write((next) => next.set('limit', String(limit))),
      setSort: (sortBy: string, descending: boolean) =>
        write((next) => {
          next.set('sortBy', sortBy);
          next.set('descending', String(descending));
        }),
      /** Puts a whole query in place of the current one (a saved search), keeping the page size. */
      replaceQuery: (query: URLSearchParams) =>
        write((next) => {
          for (const key of [...FILTER_KEYS, ...SORT_KEYS]) next.delete(key);
          for (const [key, value] of query) next.append(key, value);
        }),
      clear: () => write((next) => FILTER_KEYS.forEach((key) => next.delete(key))),
    }),
    [write],
  );

  return { params, view, ...setters };
}
