import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { MailState, outboxItemSchema, outboxMessageSchema } from '../../../../core/api/mail.js';
import type { Wire } from '../../../../core/api/wire.js';
import { type ListPage, type ListParams, listQueryString } from '../../components/table/listParams.js';
import { apiFetch } from '../../lib/api.js';
import { type MutationCallbacks, refreshAfter } from '../../lib/mutation.js';

/** A message as GET /api/mail/outbox lists it. */
export type OutboxItem = Wire<z.infer<typeof outboxItemSchema>>;
/** One message with its text body, as GET /api/mail/outbox/:id answers it. */
export type OutboxMessage = Wire<z.infer<typeof outboxMessageSchema>>;

/** The outbox's filters (besides the search box); '' is no filter. */
export interface OutboxFilter {
  state: MailState | '';
  recipient: string;
  case: string;
  from: string;
  to: string;
}

const PATH = '/api/mail/outbox';
/** While a message is queued the list asks again this often (there is no realtime event for mail). */
export const QUEUED_REFRESH_MS = 10_000;

export const outboxKeys = {
  all: ['mail-outbox'] as const,
  lists: () => [...outboxKeys.all, 'list'] as const,
  detail: (id: number) => [...outboxKeys.all, 'detail', id] as const,
};

/** One page of the outbox; asked again every 10 s while one of its messages is queued. */
export function useOutboxList(params: ListParams, filter: OutboxFilter) {
  const qs = listQueryString(params, Object.fromEntries(Object.entries(filter).map(([k, v]) => [k, v || undefined])));
  return useQuery({
    queryKey: [...outboxKeys.lists(), qs],
    queryFn: ({ signal }) => apiFetch<ListPage<OutboxItem>>(`${PATH}?${qs}`, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.items.some((m) => m.state === 'queued') ? QUEUED_REFRESH_MS : false),
  });
}

export function useOutboxMessage(id: number | null) {
  return useQuery({
    queryKey: outboxKeys.detail(id ?? 0),
    queryFn: ({ signal }) => apiFetch<OutboxMessage>(`${PATH}/${id}`, { signal }),
    enabled: id !== null,
  });
}

/** Puts a failed or kept message back in the queue. */
export function useResendMessage(callbacks: MutationCallbacks<OutboxItem, OutboxItem> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (message: OutboxItem) => apiFetch<OutboxItem>(`${PATH}/${message.id}/resend`, { method: 'POST' }),
    onSuccess: refreshAfter(callbacks, () => queryClient.invalidateQueries({ queryKey: outboxKeys.all })),
    onError: callbacks.onError,
  });
}
