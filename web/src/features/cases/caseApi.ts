import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { FormDefinition } from '../../../../core/forms/definition.js';
import type { ListPage } from '../../components/table/listParams.js';
import { apiFetch } from '../../lib/api.js';
import { useInvalidateTasks } from '../tasks/tasksApi.js';
import { ADMIN_CASES_PATH, CASES_PATH, type CaseItem } from './listApi.js';

export type { CaseItem };

/**
 * New applications, drafts and one case: the shapes the cases API answers
 * (server/modules/cases/routes.ts). Dates arrive as ISO strings.
 */

/** A protocol a new application can start from, with its main form. */
export interface ProtocolOption {
  id: number;
  name: string;
  caseType: string;
  formId: number;
  form: FormDefinition;
}

/** GET /api/cases/new-options. */
export interface NewOptions {
  /** False after the project's deadline for new applications (unless they are still allowed). */
  open: boolean;
  /** Seconds between draft autosaves (the project's setting). */
  autosaveSeconds: number;
  protocols: ProtocolOption[];
}

/** GET /api/cases/drafts/:id (and what POST /api/cases/drafts answers). */
export interface Draft {
  id: number;
  protocolId: number;
  protocolName: string;
  formId: number;
  data: Record<string, unknown>;
  form: FormDefinition;
  version: number;
  updatedAt: string;
}

/** What the user may do on one case, as the server lists it. */
export type CaseActionName = 'open' | 'complete' | 'close' | 'activate' | 'changeOwner' | 'participants' | 'editData';

/** GET /api/cases/:id. */
export interface CaseDetail extends CaseItem {
  data: Record<string, unknown>;
  /** Names of the master items the data holds, by field and code. */
  optionLabels: Record<string, Record<string, string>>;
  form: FormDefinition | null;
  formId: number;
  version: number;
  participants: Array<{ id: number; name: string }>;
  actions: CaseActionName[];
  canSeeHistory: boolean;
  canSeeSimilar: boolean;
}

/** One row of GET /api/cases/:id/history: a transition, a task's step or changed fields. */
export interface HistoryEvent {
  id: number;
  action: string;
  type: 'case' | 'task' | 'field' | string;
  userName: string | null;
  taskName: string | null;
  detail: Record<string, unknown>;
  at: string;
}

export const NEW_OPTIONS_PATH = `${CASES_PATH}/new-options`;
export const DRAFTS_PATH = `${CASES_PATH}/drafts`;
export const casePath = (id: number | string) => `${CASES_PATH}/${encodeURIComponent(String(id))}`;

/** The editor of a new application or of a draft (`?draft=` keeps the same page as the first save names the draft). */
export const newCaseUrl = (draftId?: number) => (draftId ? `/cases/new?draft=${draftId}` : '/cases/new');

export const caseKeys = {
  newOptions: [NEW_OPTIONS_PATH] as const,
  drafts: [DRAFTS_PATH, 'list'] as const,
  draft: (id: number) => [DRAFTS_PATH, 'one', id] as const,
  detail: (id: string) => [CASES_PATH, 'detail', id] as const,
  history: (id: string) => [CASES_PATH, 'history', id] as const,
  similar: (id: string) => [CASES_PATH, 'similar', id] as const,
};

export function useNewOptions(enabled = true) {
  return useQuery({
    queryKey: caseKeys.newOptions,
    queryFn: ({ signal }) => apiFetch<NewOptions>(NEW_OPTIONS_PATH, { signal }),
    enabled,
  });
}

export function useDrafts() {
  return useQuery({
    queryKey: caseKeys.drafts,
    queryFn: ({ signal }) => apiFetch<ListPage<CaseItem>>(`${DRAFTS_PATH}?limit=100`, { signal }),
  });
}

export const createDraft = (protocolId: number, data: Record<string, unknown>) => apiFetch<Draft>(DRAFTS_PATH, { method: 'POST', json: { protocolId, data } });

/** Saves a draft as typed; without `version` it overwrites whatever was saved (the user chose to keep theirs). */
export const saveDraft = (id: number, data: Record<string, unknown>, version?: number) =>
  apiFetch<{ version: number; updatedAt: string }>(`${DRAFTS_PATH}/${id}`, { method: 'PUT', json: { data, version } });

export const submitDraft = (id: number, data: Record<string, unknown>) =>
  apiFetch<{ id: number; number: string }>(`${DRAFTS_PATH}/${id}/submit`, { method: 'POST', json: { data } });

export const deleteDraft = (id: number) => apiFetch<void>(`${DRAFTS_PATH}/${id}`, { method: 'DELETE' });

export const loadDraft = (id: number, signal?: AbortSignal) => apiFetch<Draft>(`${DRAFTS_PATH}/${id}`, { signal });

export const loadCase = (id: number | string, signal?: AbortSignal) => apiFetch<CaseDetail>(casePath(id), { signal });

export function useCase(id: string) {
  return useQuery({ queryKey: caseKeys.detail(id), queryFn: ({ signal }) => loadCase(id, signal) });
}

export function useCaseHistory(id: string, enabled: boolean) {
  return useQuery({
    queryKey: caseKeys.history(id),
    queryFn: ({ signal }) => apiFetch<HistoryEvent[]>(`${casePath(id)}/history`, { signal }),
    enabled,
  });
}

export function useSimilarCases(id: string, enabled: boolean) {
  return useQuery({
    queryKey: caseKeys.similar(id),
    queryFn: ({ signal }) => apiFetch<CaseItem[]>(`${casePath(id)}/similar`, { signal }),
    enabled,
  });
}

export type CaseTransition = 'open' | 'complete' | 'close' | 'activate';

export const runCaseAction = (id: number, action: CaseTransition, reason?: string) =>
  apiFetch<{ state: string }>(`${casePath(id)}/${action}`, { method: 'POST', json: reason ? { reason } : {} });

/** Corrects an open application's data; `version` is the one it was read at (STALE_DRAFT when it moved). */
export const saveCaseData = (id: number, data: Record<string, unknown>, version: number) =>
  apiFetch<{ version: number }>(`${casePath(id)}/data`, { method: 'PUT', json: { data, version } });

export const changeOwner = (id: number, userId: number) => apiFetch<{ ownerId: number }>(`${casePath(id)}/owner`, { method: 'PUT', json: { userId } });

export const setParticipants = (id: number, userIds: number[]) =>
  apiFetch<{ userIds: number[] }>(`${casePath(id)}/participants`, { method: 'PUT', json: { userIds } });

/** After a change to a case: its page, its history, the case lists, drafts and every task view. */
export function useInvalidateCase() {
  const client = useQueryClient();
  const invalidateTasks = useInvalidateTasks();
  return () =>
    Promise.all([client.invalidateQueries({ queryKey: [CASES_PATH] }), client.invalidateQueries({ queryKey: [ADMIN_CASES_PATH] }), client.invalidateQueries({ queryKey: [DRAFTS_PATH] }), invalidateTasks()]);
}
