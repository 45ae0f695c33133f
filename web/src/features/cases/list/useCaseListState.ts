import { useMemo } from 'react';
import { useCaseList, useSearchFields } from '../listApi.js';
import { apiQueryString, useCaseUrl } from './caseUrl.js';

/** What both case lists share: the address's query, the page it asks for, and the protocols and fields to filter by. */
export function useCaseListState() {
  const url = useCaseUrl();
  const queryString = useMemo(() => apiQueryString(url.params, url.view), [url.params, url.view]);
  const list = useCaseList(queryString);
  const fields = useSearchFields();
  const { ownerId } = url.view.filters;
  // Every row of an owner filter carries the owner's name: the picker shows it.
  const ownerName = ownerId ? list.data?.items.find((item) => String(item.ownerId) === ownerId)?.ownerName : undefined;
  return { url, list, protocols: fields.data?.protocols ?? [], ownerName };
}
