import { keepPreviousData, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  CASE_TYPES,
  PROTOCOL_TASK_GROUPS,
  type protocolBodySchema,
  type protocolDetailSchema,
  type protocolSummarySchema,
  type protocolTasksSchema,
} from '../../../../core/api/protocols.js';
import type { Wire } from '../../../../core/api/wire.js';
import { type ProtocolDefinition, TASK_MAIL_EVENTS, type TaskMailEvent } from '../../../../core/workflow/protocol.js';
import { type ListPage, type ListParams, listQueryString, useListPage } from '../../components/table/listParams.js';
import i18n from '../../i18n/index.js';
import { ApiError, apiFetch, errorMessage } from '../../lib/api.js';
import { type MutationCallbacks, refreshAfter } from '../../lib/mutation.js';
import { aclKeys, type CatalogItem, catalogPath } from '../acl/api.js';
import { type TemplateItem, templateKeys } from '../templates/api.js';

/*
 * The shapes come from the server's schemas (core/api/protocols.ts) as the
 * browser receives them (dates as ISO strings), with the workflow definition
 * where the schema leaves it open.
 */

export { CASE_TYPES };
export type CaseType = (typeof CASE_TYPES)[number];

/** One protocol of the list (GET /api/protocols). */
export type ProtocolSummary = Wire<z.infer<typeof protocolSummarySchema>>;

/** One protocol with its draft and versions (GET /api/protocols/:id). */
export type ProtocolDetail = Omit<Wire<z.infer<typeof protocolDetailSchema>>, 'definition'> & { definition: ProtocolDefinition };

/** The body of POST and PUT /api/protocols. */
export type ProtocolBody = Omit<z.input<typeof protocolBodySchema>, 'definition'> & { definition: ProtocolDefinition };

export const TASK_GROUPS = PROTOCOL_TASK_GROUPS;
export type TaskGroup = (typeof TASK_GROUPS)[number];

/** GET /api/protocols/:id/tasks?state=: one group's tasks and the count of every group. */
export type ProtocolTasks = Wire<z.infer<typeof protocolTasksSchema>>;

const PROTOCOLS_PATH = '/api/protocols';

/** Every protocol query sits under `all`: a protocol change and any task decision refresh them all. */
export const protocolKeys = {
  all: ['protocols'] as const,
  lists: () => [...protocolKeys.all, 'list'] as const,
  options: () => [...protocolKeys.all, 'options'] as const,
  detail: (id: string | undefined) => [...protocolKeys.all, 'detail', id] as const,
  tasks: (protocolId: string, group: TaskGroup, page: number, limit: number) => [...protocolKeys.all, 'tasks', protocolId, group, page, limit] as const,
};

/** Every list, page and count that shows protocols. */
export function useInvalidateProtocols() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: protocolKeys.all });
}

export function useProtocolList(params: ListParams) {
  return useListPage<ProtocolSummary>(protocolKeys.lists(), PROTOCOLS_PATH, params);
}

interface ProtocolOption {
  id: number;
  name: string;
}

/** The tenant's protocols for a picker (users without the protocols target get none). */
export function useProtocolOptions(enabled = true) {
  return useQuery({
    queryKey: protocolKeys.options(),
    queryFn: ({ signal }) => apiFetch<ListPage<ProtocolOption>>(`${PROTOCOLS_PATH}?limit=100&sortBy=name`, { signal }),
    enabled,
    staleTime: 60_000,
    retry: false,
    meta: { silentError: true },
  });
}

/** One protocol for the editor (`id` undefined: a new protocol, nothing to load). */
export function useProtocolDetail(id: string | undefined) {
  return useQuery({
    queryKey: protocolKeys.detail(id),
    queryFn: ({ signal }) => apiFetch<ProtocolDetail>(`${PROTOCOLS_PATH}/${encodeURIComponent(id ?? '')}`, { signal }),
    enabled: id !== undefined,
    // The editor holds its own copy: a background refetch must not replace what is being edited.
    refetchOnWindowFocus: false,
  });
}

/** One group of a protocol's tasks, a page at a time. */
export function useProtocolTasks(protocolId: string, group: TaskGroup, page: number, limit: number) {
  return useQuery({
    queryKey: protocolKeys.tasks(protocolId, group, page, limit),
    queryFn: ({ signal }) => apiFetch<ProtocolTasks>(`${PROTOCOLS_PATH}/${protocolId}/tasks?state=${group}&page=${page + 1}&limit=${limit}`, { signal }),
    enabled: !!protocolId,
    placeholderData: keepPreviousData,
  });
}

/**
 * Stores an editor's draft (a new protocol when `id` is undefined). `onStored`
 * runs as soon as the server accepted it, before the caches are refreshed.
 */
function useStoreProtocol() {
  const queryClient = useQueryClient();
  const invalidate = useInvalidateProtocols();
  return async (id: string | undefined, body: ProtocolBody, onStored?: () => void): Promise<ProtocolDetail> => {
    const saved =
      id === undefined
        ? await apiFetch<ProtocolDetail>(PROTOCOLS_PATH, { method: 'POST', json: body })
        : await apiFetch<ProtocolDetail>(`${PROTOCOLS_PATH}/${id}`, { method: 'PUT', json: body });
    onStored?.();
    queryClient.setQueryData(protocolKeys.detail(String(saved.id)), saved);
    await invalidate();
    return saved;
  };
}

type EditorCallbacks<TVariables> = MutationCallbacks<ProtocolDetail, TVariables> & { onStored?: () => void };

/** The editor's Save. Errors are the caller's to show (problems next to what they name). */
export function useSaveProtocol(id: string | undefined, callbacks: EditorCallbacks<ProtocolBody> = {}) {
  const store = useStoreProtocol();
  return useMutation({
    mutationFn: (body: ProtocolBody) => store(id, body, callbacks.onStored),
    meta: { silentError: true },
    onSuccess: callbacks.onSuccess,
    onError: callbacks.onError,
  });
}

/** The editor's Publish: stores the draft first when it changed (`store`), then publishes it as a new version. */
export function usePublishProtocolDraft(id: string | undefined, loaded: ProtocolDetail | undefined, callbacks: EditorCallbacks<{ body: ProtocolBody; store: boolean }> = {}) {
  const queryClient = useQueryClient();
  const invalidate = useInvalidateProtocols();
  const store = useStoreProtocol();
  return useMutation({
    mutationFn: async ({ body, store: first }: { body: ProtocolBody; store: boolean }) => {
      const saved = first ? await store(id, body, callbacks.onStored) : loaded;
      const published = await apiFetch<ProtocolDetail>(`${PROTOCOLS_PATH}/${saved?.id ?? id}/publish`, { method: 'POST' });
      queryClient.setQueryData(protocolKeys.detail(String(published.id)), published);
      await invalidate();
      return published;
    },
    meta: { silentError: true },
    onSuccess: callbacks.onSuccess,
    onError: callbacks.onError,
  });
}

/** Publishes a protocol from the list. Errors are the caller's to show. */
export function usePublishProtocol(callbacks: MutationCallbacks<ProtocolDetail, ProtocolSummary> = {}) {
  const invalidate = useInvalidateProtocols();
  return useMutation({
    mutationFn: (protocol: ProtocolSummary) => apiFetch<ProtocolDetail>(`${PROTOCOLS_PATH}/${protocol.id}/publish`, { method: 'POST' }),
    meta: { silentError: true },
    onSuccess: refreshAfter(callbacks, () => invalidate()),
    onError: callbacks.onError,
  });
}

export function useDeleteProtocol(callbacks: MutationCallbacks<void, ProtocolSummary> = {}) {
  const invalidate = useInvalidateProtocols();
  return useMutation({
    mutationFn: (protocol: ProtocolSummary) => apiFetch<void>(`${PROTOCOLS_PATH}/${protocol.id}`, { method: 'DELETE' }),
    onSuccess: refreshAfter(callbacks, () => invalidate()),
    onError: callbacks.onError,
  });
}

/** Imports a protocol from an exported JSON file. Errors are the caller's to show (a file that is not JSON is one). */
export function useImportProtocol(callbacks: MutationCallbacks<ProtocolDetail, File> = {}) {
  const invalidate = useInvalidateProtocols();
  return useMutation({
    mutationFn: async (file: File) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(await file.text());
      } catch {
        throw new ApiError(400, 'BAD_REQUEST', i18n.t('protocols.import.notJson'));
      }
      return apiFetch<ProtocolDetail>(`${PROTOCOLS_PATH}/import`, { method: 'POST', json: parsed });
    },
    meta: { silentError: true },
    onSuccess: refreshAfter(callbacks, () => invalidate()),
    onError: callbacks.onError,
  });
}

/** Downloads the export of one protocol as the file the server names. */
export async function downloadProtocolExport(protocol: ProtocolSummary): Promise<void> {
  const response = await fetch(`${PROTOCOLS_PATH}/${protocol.id}/export`, { credentials: 'same-origin', headers: { accept: 'application/json' } });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
    throw new ApiError(response.status, 'INTERNAL', body?.error?.message ?? errorMessage(null));
  }
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? `protocol-${protocol.code}.json`;
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

// ---------------------------------------------------------------- the task dialog's email templates and roles

/** A template a task event may send. */
export interface TaskTemplateOption {
  id: number;
  name: string;
  isDefault: boolean;
}

/** The first 100 by name: a tenant's templates of one event, or its roles, are far fewer. */
const FIRST_100 = { page: 0, limit: 100, sortBy: 'name', descending: false, search: '' };

type TemplateAnswer = { data?: ListPage<TemplateItem> };

/** Per task event, its templates (null while they cannot be read). */
function templatesByEvent(answers: TemplateAnswer[]): Record<TaskMailEvent, TaskTemplateOption[] | null> {
  return Object.fromEntries(
    TASK_MAIL_EVENTS.map((event, i) => {
      const page = answers[i]?.data;
      return [event, page ? page.items.filter((x) => x.event === event).map((x) => ({ id: x.id, name: x.name, isDefault: x.isDefault })) : null];
    }),
  ) as Record<TaskMailEvent, TaskTemplateOption[] | null>;
}

/**
 * The tenant's email templates of each task event, as the templates pages
 * list them (same cache keys, so a change there shows here); silent when the
 * user may not list templates.
 */
export function useTaskTemplateOptions(enabled: boolean) {
  return useQueries({
    queries: TASK_MAIL_EVENTS.map((event) => {
      const qs = listQueryString(FIRST_100, { event });
      return {
        queryKey: [...templateKeys.lists(), qs],
        queryFn: ({ signal }: { signal: AbortSignal }) => apiFetch<ListPage<TemplateItem>>(`/api/mail-templates?${qs}`, { signal }),
        enabled,
        staleTime: 60_000,
        retry: false,
        meta: { silentError: true },
      };
    }),
    combine: templatesByEvent,
  });
}

/** The tenant's roles, as the roles catalogue lists them; silent when the user may not list roles. */
export function useRoleOptions(enabled: boolean) {
  const qs = listQueryString(FIRST_100);
  return useQuery({
    queryKey: [...aclKeys.catalogLists('roles'), qs],
    queryFn: ({ signal }) => apiFetch<ListPage<CatalogItem>>(`${catalogPath('roles')}?${qs}`, { signal }),
    enabled,
    staleTime: 60_000,
    retry: false,
    meta: { silentError: true },
  });
}
