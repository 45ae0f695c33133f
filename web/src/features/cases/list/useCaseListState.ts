import { useMemo } from 'react';
import { CASES_PATH, type CaseListPath, caseTotal, useCaseCount, useCaseList, useSearchFields } from '../api.js';
import { apiQueryString, filterQueryString, useCaseUrl } from './caseUrl.js';

/**
 * What both case lists share: the address's query, the page it asks for, the
 * count of its filters (asked on its own, once per filter), and the protocols
 * and fields to filter by.
 */
export function useCaseListState(path: CaseListPath = CASES_PATH) {
  const url = useCaseUrl();
  const queryString = useMemo(() => apiQueryString(url.params, url.view), [url.params, url.view]);
  const filterString = useMemo(() => filterQueryString(url.params), [url.params]);
  const list = useCaseList(queryString, path);
  const count = useCaseCount(filterString, path);
  const fields = useSearchFields(path);
  const { ownerId } = url.view.filters;
  // Every row of an owner filter carries the owner's name: the picker shows it.
  const ownerName = ownerId ? list.data?.items.find((item) => String(item.ownerId) === ownerId)?.ownerName : undefined;
  const totals = {
    ...caseTotal(list.data, count.data),
    /** More match than the server counts: the page says so under the table. */
    capped: !!count.data?.capped,
    countTotal: count.data?.total ?? 0,
  };
  return { url, list, totals, protocols: fields.data?.protocols ?? [], ownerName };
}
