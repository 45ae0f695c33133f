import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { z } from 'zod';
import type {
  caseTimelineSchema,
  decidedSchema,
  pendingItemSchema,
  rejectedSchema,
  TaskActionName,
  taskBulkResultSchema,
  taskDetailSchema,
  taskItemSchema,
} from '../../../../core/api/tasks.js';
import type { fileLinkSchema } from '../../../../core/api/files.js';
import type { Wire } from '../../../../core/api/wire.js';
import type { AwardInput } from '../../../../core/api/payments.js';
import type { AdhocTaskInput } from '../../../../core/workflow/adhoc.js';
import type { FormDefinition } from '../../../../core/forms/definition.js';
import { type ListPage, type ListParams, listQueryString, useListPage } from '../../components/table/listParams.js';
import { apiFetch } from '../../lib/api.js';
import { type MutationCallbacks, refreshAfter } from '../../lib/mutation.js';
import { protocolKeys } from '../protocols/api.js';
import type { AssignTarget } from './AssignDialog.js';
import type { TaskFilterValues } from './TaskFilters.js';

/*
 * The shapes come from the server's schemas (core/api/tasks.ts) as the
 * browser receives them (dates as ISO strings), with a form definition where
 * the schema leaves the form open.
 */

/** One task of a list (GET /api/tasks). */
export type TaskItem = Wire<z.infer<typeof taskItemSchema>>;

/** One of my pending tasks with the spec's columns (GET /api/tasks/pending); `actions`: what this user may do from the list. */
export type PendingItem = Wire<z.infer<typeof pendingItemSchema>>;

export type TaskAction = TaskActionName;

type TaskDetailWire = Wire<z.infer<typeof taskDetailSchema>>;

/**
 * Everything the task page shows (GET /api/tasks/:id): `reason` says why the
 * task came back or was rejected; `instructions` what an ad-hoc task asks for.
 */
export type TaskDetail = Omit<TaskDetailWire, 'form' | 'case'> & {
  form: { versionId: number; definition: FormDefinition } | null;
  case: Omit<TaskDetailWire['case'], 'mainForm'> & { mainForm: FormDefinition | null };
};

/** The tasks of one case, oldest first (GET /api/cases/:id/timeline). */
export type CaseTimeline = Wire<z.infer<typeof caseTimelineSchema>>;

/** The answer of a bulk action: who moved, and why the others did not. */
export type BulkResult = Wire<z.infer<typeof taskBulkResultSchema>>;

/** What a decision answers: the tasks it started (a reject says whether the application was found not eligible). */
type Decided = Wire<z.infer<typeof decidedSchema>>;
type Rejected = Wire<z.infer<typeof rejectedSchema>>;

const TASKS_PATH = '/api/tasks';
const PENDING_PATH = '/api/tasks/pending';

/** Every task query sits under `all`: any decision refreshes them all (and the protocols' task counts). */
export const taskKeys = {
  all: ['tasks'] as const,
  lists: () => [...taskKeys.all, 'list'] as const,
  list: (queryString: string) => [...taskKeys.lists(), queryString] as const,
  pendingLists: () => [...taskKeys.all, 'pending'] as const,
  detail: (id: string) => [...taskKeys.all, 'detail', id] as const,
  timeline: (caseId: string) => [...taskKeys.all, 'timeline', caseId] as const,
};

/** After any decision: every task list, page and timeline may have changed, and the protocols' task counts. */
export function useInvalidateTasks() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: taskKeys.all }),
      queryClient.invalidateQueries({ queryKey: protocolKeys.all }),
    ]);
}

/**
 * One page of GET /api/tasks with the filters (`state` repeats for several
 * states); `fixed` are filters of the page itself (/tareas: `adhoc=true`).
 */
export function useTaskList(params: ListParams, filters: TaskFilterValues, fixed?: Record<string, string>) {
  const fixedQuery = new URLSearchParams(fixed).toString();
  const qs = useMemo(() => {
    const query = new URLSearchParams(listQueryString(params, Object.fromEntries(new URLSearchParams(fixedQuery))));
    for (const state of filters.states) query.append('state', state);
    if (filters.protocolId) query.set('protocolId', filters.protocolId);
    if (filters.teamId) query.set('teamId', filters.teamId);
    if (filters.overdue) query.set('overdue', filters.overdue);
    for (const [name, value] of Object.entries(filters.drilled ?? {})) if (value) query.set(name, value);
    return query.toString();
  }, [params, filters, fixedQuery]);
  return useQuery({
    queryKey: taskKeys.list(qs),
    queryFn: ({ signal }) => apiFetch<ListPage<TaskItem>>(`${TASKS_PATH}?${qs}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** My pending tasks, a page at a time. */
export function usePendingList(params: ListParams) {
  return useListPage<PendingItem>(taskKeys.pendingLists(), PENDING_PATH, params);
}

export function useTask(id: string) {
  return useQuery({
    queryKey: taskKeys.detail(id),
    queryFn: ({ signal }) => apiFetch<TaskDetail>(`${TASKS_PATH}/${encodeURIComponent(id)}`, { signal }),
  });
}

/** The tasks of one application (GET /api/cases/:id/timeline). */
export function useCaseTimeline(caseId: string, enabled = true) {
  return useQuery({
    queryKey: taskKeys.timeline(caseId),
    queryFn: ({ signal }) => apiFetch<CaseTimeline>(`/api/cases/${encodeURIComponent(caseId)}/timeline`, { signal }),
    enabled,
  });
}

/** What a decision sends with it: the form's values and the version the page read (a stale page gets 409). */
export interface TaskDecision {
  id: number | string;
  data?: Record<string, unknown>;
  version?: number;
  /** Issue 23: the award, on the task that sets it (features/payments' award panel). */
  award?: AwardInput;
}

/** Saves a task's form without deciding. Errors are the caller's to show (field errors). */
export function useSaveTaskData(callbacks: MutationCallbacks<{ version: number }, TaskDecision> = {}) {
  const invalidate = useInvalidateTasks();
  return useMutation({
    mutationFn: ({ id, data, version }: TaskDecision) => apiFetch<{ version: number }>(`${TASKS_PATH}/${id}/data`, { method: 'PUT', json: { data, version } }),
    meta: { silentError: true },
    onSuccess: refreshAfter(callbacks, () => invalidate()),
    onError: callbacks.onError,
  });
}

/**
 * Accepts a task (from the pending list, with nothing; from its page, with
 * the cleaned values). The page may pass more with the decision for its
 * callbacks (the task itself); only `data` and `version` are sent. Errors are
 * the caller's to show.
 */
export function useAcceptTask<T extends TaskDecision = TaskDecision>(callbacks: MutationCallbacks<Decided, T> = {}) {
  const invalidate = useInvalidateTasks();
  return useMutation({
    mutationFn: ({ id, data, version, award }: T) => apiFetch<Decided>(`${TASKS_PATH}/${id}/accept`, { method: 'POST', json: { data, version, award } }),
    meta: { silentError: true },
    onSuccess: refreshAfter(callbacks, () => invalidate()),
    onError: callbacks.onError,
  });
}

/** Rejects a task with a reason; `notEligible` says the application was closed as not eligible. Errors are the caller's to show. */
export function useRejectTask(callbacks: MutationCallbacks<Rejected, TaskDecision & { reason: string }> = {}) {
  const invalidate = useInvalidateTasks();
  return useMutation({
    mutationFn: ({ id, reason, data, version }: TaskDecision & { reason: string }) =>
      apiFetch<Rejected>(`${TASKS_PATH}/${id}/reject`, { method: 'POST', json: { reason, data, version } }),
    meta: { silentError: true },
    onSuccess: refreshAfter(callbacks, () => invalidate()),
    onError: callbacks.onError,
  });
}

export function useRestartTask(callbacks: MutationCallbacks<unknown, number | string> = {}) {
  const invalidate = useInvalidateTasks();
  return useMutation({
    mutationFn: (id: number | string) => apiFetch<unknown>(`${TASKS_PATH}/${id}/restart`, { method: 'POST' }),
    meta: { silentError: true },
    onSuccess: refreshAfter(callbacks, () => invalidate()),
    onError: callbacks.onError,
  });
}

export function useAssignTask(callbacks: MutationCallbacks<unknown, { id: number | string; target: AssignTarget }> = {}) {
  const invalidate = useInvalidateTasks();
  return useMutation({
    mutationFn: ({ id, target }: { id: number | string; target: AssignTarget }) => apiFetch<unknown>(`${TASKS_PATH}/${id}/assign`, { method: 'POST', json: target }),
    meta: { silentError: true },
    onSuccess: refreshAfter(callbacks, () => invalidate()),
    onError: callbacks.onError,
  });
}

/** Restarts several tasks, each on its own; the answer names those that did not move. */
export function useBulkRestartTasks(callbacks: MutationCallbacks<BulkResult, number[]> = {}) {
  const invalidate = useInvalidateTasks();
  return useMutation({
    mutationFn: (ids: number[]) => apiFetch<BulkResult>(`${TASKS_PATH}/bulk/restart`, { method: 'POST', json: { ids } }),
    onSuccess: refreshAfter(callbacks, () => invalidate()),
    onError: callbacks.onError,
  });
}

/** Reassigns several tasks to a user or a team. Errors are the caller's to show. */
export function useBulkAssignTasks(callbacks: MutationCallbacks<BulkResult, AssignTarget & { ids: number[] }> = {}) {
  const invalidate = useInvalidateTasks();
  return useMutation({
    mutationFn: (body: AssignTarget & { ids: number[] }) => apiFetch<BulkResult>(`${TASKS_PATH}/bulk/assign`, { method: 'POST', json: body }),
    meta: { silentError: true },
    onSuccess: refreshAfter(callbacks, () => invalidate()),
    onError: callbacks.onError,
  });
}

/** Creates an ad-hoc task. Errors are the caller's to show (field errors). */
export function useCreateAdhocTask(callbacks: MutationCallbacks<{ id: number }, AdhocTaskInput> = {}) {
  const invalidate = useInvalidateTasks();
  return useMutation({
    mutationFn: (body: AdhocTaskInput) => apiFetch<{ id: number }>(TASKS_PATH, { method: 'POST', json: body }),
    meta: { silentError: true },
    onSuccess: refreshAfter(callbacks, () => invalidate()),
    onError: callbacks.onError,
  });
}

/** A short-lived download link to a stored file. */
export async function fileLink(id: string): Promise<string> {
  const { url } = await apiFetch<Wire<z.infer<typeof fileLinkSchema>>>(`/api/files/${encodeURIComponent(id)}/link`);
  return url;
}
