import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { z } from 'zod';
import {
  CASE_TYPES,
  PROTOCOL_TASK_GROUPS,
  type protocolBodySchema,
  type protocolDetailSchema,
  type protocolSummarySchema,
  type protocolTaskOptionsSchema,
  type protocolTasksSchema,
} from '../../../../core/api/protocols.js';
import { BPMN_UNSUPPORTED_PREFIX, type bpmnDroppedSchema } from '../../../../core/api/protocolBpmn.js';
import type { Wire } from '../../../../core/api/wire.js';
import { type ProtocolDefinition, TASK_MAIL_EVENTS, type TaskMailEvent } from '../../../../core/workflow/protocol.js';
import { type ListPage, type ListParams, useListPage } from '../../components/table/listParams.js';
import i18n from '../../i18n/index.js';
import { ApiError, type ApiErrorDetail, apiDownload, apiFetch, errorMessage, saveBlob } from '../../lib/api.js';
import { type MutationCallbacks, refreshAfter } from '../../lib/mutation.js';

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
  nameEn?: string;
}

/** A protocol's name in the page's language: `name` is the Spanish one, `nameEn` the English one when it has it. */
export const protocolName = (p: { name: string; nameEn?: string }, language: string) => (language.startsWith('en') && p.nameEn) || p.name;

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

export type ProtocolTaskOptions = Wire<z.infer<typeof protocolTaskOptionsSchema>>;

/**
 * The tenant's email templates of each task event and its roles, for the
 * task dialog (GET /api/protocols/task-options: whoever may read protocols
 * may choose them, without the rights of the templates and roles pages).
 * Null per list while it cannot be read.
 */
export function useProtocolTaskOptions(enabled: boolean) {
  const query = useQuery({
    queryKey: [...protocolKeys.all, 'task-options'],
    queryFn: ({ signal }) => apiFetch<ProtocolTaskOptions>('/api/protocols/task-options', { signal }),
    enabled,
    staleTime: 60_000,
    retry: false,
    meta: { silentError: true },
  });
  const data = query.data;
  return useMemo(() => {
    const mailTemplates = Object.fromEntries(
      TASK_MAIL_EVENTS.map((event) => [event, data ? data.templates.filter((x) => x.event === event).map(({ id, name, isDefault }) => ({ id, name, isDefault })) : null]),
    ) as Record<TaskMailEvent, TaskTemplateOption[] | null>;
    return { mailTemplates, roles: data ? data.roles : null };
  }, [data]);
}

// ---------------------------------------------------------------- BPMN 2.0
/*
 * The protocols' BPMN 2.0 routes (core/api/protocolBpmn.ts): a version (the
 * draft without one) as XML, and a .bpmn file made the draft.
 */

export type BpmnDropped = z.infer<typeof bpmnDroppedSchema>;
/** POST /api/protocols/:id/bpmn: the protocol with its new draft, and what of the file was left out. */
export type BpmnImportResult = ProtocolDetail & { dropped: BpmnDropped[] };

const bpmnPath = (protocolId: number | string, version?: number) => `/api/protocols/${encodeURIComponent(String(protocolId))}/bpmn${version === undefined ? '' : `?version=${version}`}`;

/** Downloads a version of a protocol (the draft without `version`) as a .bpmn file. */
export async function downloadProtocolBpmn(protocol: { id: number; code: string }, version?: number): Promise<void> {
  const { blob, filename } = await apiDownload(bpmnPath(protocol.id, version));
  saveBlob(blob, filename ?? `${protocol.code}.bpmn`);
}

/** The saved draft of a protocol as BPMN XML, for the diagram: under `protocolKeys.all`, so every save, publish or import refreshes it. */
export function useProtocolBpmnXml(protocolId: number) {
  return useQuery({
    queryKey: [...protocolKeys.all, 'bpmn', protocolId],
    queryFn: async () => (await apiDownload(bpmnPath(protocolId))).blob.text(),
    retry: false,
    meta: { silentError: true },
  });
}

/**
 * The elements a refused import names as ones the engine cannot run (422
 * details `unsupported.<id>`), when they are all it names: the file can then
 * be imported without them. Null for any other failure.
 */
export function unsupportedElements(error: unknown): ApiErrorDetail[] | null {
  if (!(error instanceof ApiError) || error.status !== 422 || error.details.length === 0) return null;
  if (!error.details.every((d) => d.path.startsWith(BPMN_UNSUPPORTED_PREFIX))) return null;
  return error.details.map((d) => ({ path: d.path.slice(BPMN_UNSUPPORTED_PREFIX.length), message: d.message }));
}

export interface BpmnImport {
  file: File;
  /** Drop what the engine cannot run (the user accepted it) instead of refusing the file. */
  drop: boolean;
}

/** Makes a .bpmn file the draft of a protocol. Errors are the caller's to show (the report of what cannot run is one). */
export function useImportBpmn(protocolId: number, callbacks: MutationCallbacks<BpmnImportResult, BpmnImport> = {}) {
  const queryClient = useQueryClient();
  const invalidate = useInvalidateProtocols();
  return useMutation({
    mutationFn: ({ file, drop }: BpmnImport) =>
      apiFetch<BpmnImportResult>(`${bpmnPath(protocolId)}?dropUnsupported=${drop}`, { method: 'POST', body: file, headers: { 'content-type': 'application/xml' } }),
    meta: { silentError: true },
    onSuccess: async (result, variables) => {
      const { dropped: _dropped, ...detail } = result;
      // The editor loads its draft from the detail: the imported one replaces what it showed.
      queryClient.setQueryData(protocolKeys.detail(String(protocolId)), detail);
      await callbacks.onSuccess?.(result, variables);
      await invalidate();
    },
    onError: callbacks.onError,
  });
}
