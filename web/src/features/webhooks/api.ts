import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { DeliveryState, deliverySchema, webhookProtocolSchema, webhookSchema, webhookWithSecretSchema, WebhookBody } from '../../../../core/api/webhooks.js';
import type { Wire } from '../../../../core/api/wire.js';
import { type ListPage, type ListParams, listQueryString } from '../../components/table/listParams.js';
import { apiFetch } from '../../lib/api.js';
import { type MutationCallbacks, refreshAfter } from '../../lib/mutation.js';

/** A subscription as GET /api/webhooks lists it (its secret only hinted). */
export type WebhookItem = Wire<z.infer<typeof webhookSchema>>;
/** A subscription just made, or whose secret was just rotated: with the whole secret. */
export type WebhookWithSecret = Wire<z.infer<typeof webhookWithSecretSchema>>;
/** One delivery as GET /api/webhooks/:id/deliveries lists it. */
export type DeliveryItem = Wire<z.infer<typeof deliverySchema>>;
export type ProtocolOption = Wire<z.infer<typeof webhookProtocolSchema>>;

const PATH = '/api/webhooks';
/** While a delivery waits, its list asks again this often (there is no realtime event for deliveries). */
export const PENDING_REFRESH_MS = 3_000;

export const webhookKeys = {
  all: ['webhooks'] as const,
  lists: () => [...webhookKeys.all, 'list'] as const,
  protocols: () => [...webhookKeys.all, 'protocols'] as const,
  deliveries: (id: number) => [...webhookKeys.all, 'deliveries', id] as const,
};

export function useWebhookList(params: ListParams) {
  const qs = listQueryString(params);
  return useQuery({
    queryKey: [...webhookKeys.lists(), qs],
    queryFn: ({ signal }) => apiFetch<ListPage<WebhookItem>>(`${PATH}?${qs}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useProtocolOptions() {
  return useQuery({
    queryKey: webhookKeys.protocols(),
    queryFn: ({ signal }) => apiFetch<ProtocolOption[]>(`${PATH}/protocol-options`, { signal }),
    staleTime: 60_000,
  });
}

/** A subscription's deliveries, newest first; asked again every few seconds while one is pending. */
export function useDeliveries(id: number, params: ListParams, state: DeliveryState | '') {
  const qs = listQueryString(params, { state: state || undefined });
  return useQuery({
    queryKey: [...webhookKeys.deliveries(id), qs],
    queryFn: ({ signal }) => apiFetch<ListPage<DeliveryItem>>(`${PATH}/${id}/deliveries?${qs}`, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.items.some((d) => d.state === 'pending') ? PENDING_REFRESH_MS : false),
  });
}

function useInvalidate() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: webhookKeys.all });
}

export type WebhookValues = Omit<WebhookBody, 'description' | 'protocolIds' | 'enabled'> & { description: string; protocolIds: number[]; enabled: boolean };

/** Makes a subscription (the answer carries its secret), or changes `webhook`. Errors are the caller's to show (field errors). */
export function useSaveWebhook(webhook: WebhookItem | null, callbacks: MutationCallbacks<WebhookItem | WebhookWithSecret, WebhookValues> = {}) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (values: WebhookValues) =>
      webhook
        ? apiFetch<WebhookItem>(`${PATH}/${webhook.id}`, { method: 'PUT', json: { ...values, version: webhook.version } })
        : apiFetch<WebhookWithSecret>(PATH, { method: 'POST', json: values }),
    meta: { silentError: true },
    onSuccess: refreshAfter(callbacks, () => invalidate()),
    onError: callbacks.onError,
  });
}

export function useDeleteWebhook(callbacks: MutationCallbacks<void, WebhookItem> = {}) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (webhook: WebhookItem) => apiFetch<void>(`${PATH}/${webhook.id}`, { method: 'DELETE' }),
    onSuccess: refreshAfter(callbacks, () => invalidate()),
    onError: callbacks.onError,
  });
}

/** A new secret; the answer carries it. */
export function useRotateSecret(callbacks: MutationCallbacks<WebhookWithSecret, WebhookItem> = {}) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (webhook: WebhookItem) => apiFetch<WebhookWithSecret>(`${PATH}/${webhook.id}/secret`, { method: 'POST' }),
    onSuccess: refreshAfter(callbacks, () => invalidate()),
    onError: callbacks.onError,
  });
}

/** The whole secret, asked for by a button (never kept in a list's cache). */
export function useRevealSecret(callbacks: MutationCallbacks<{ secret: string }, WebhookItem> = {}) {
  return useMutation({
    mutationFn: (webhook: WebhookItem) => apiFetch<{ secret: string }>(`${PATH}/${webhook.id}/secret`),
    onSuccess: refreshAfter(callbacks, () => undefined),
    onError: callbacks.onError,
  });
}

export function useSendTestEvent(callbacks: MutationCallbacks<DeliveryItem, WebhookItem> = {}) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (webhook: WebhookItem) => apiFetch<DeliveryItem>(`${PATH}/${webhook.id}/test`, { method: 'POST' }),
    onSuccess: refreshAfter(callbacks, () => invalidate()),
    onError: callbacks.onError,
  });
}

export function useRedeliver(webhookId: number, callbacks: MutationCallbacks<DeliveryItem, DeliveryItem> = {}) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (delivery: DeliveryItem) => apiFetch<DeliveryItem>(`${PATH}/${webhookId}/deliveries/${delivery.id}/redeliver`, { method: 'POST' }),
    onSuccess: refreshAfter(callbacks, () => invalidate()),
    onError: callbacks.onError,
  });
}
