import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { PublicStatus } from '../../../../../core/cases/portal.js';
import type { CaseActionName, caseDetailSchema, caseEventSchema, draftSchema, newOptionsSchema, publicTimelineSchema, ResubmitCorrection, ReturnForCorrection } from '../../../../../core/api/cases.js';
import type { Wire } from '../../../../../core/api/wire.js';
import type { FormDefinition } from '../../../../../core/forms/definition.js';
import type { ListPage } from '../../../components/table/listParams.js';
import { apiFetch } from '../../../lib/api.js';
import { type MutationCallbacks, refreshAfter } from '../../../lib/mutation.js';
import { CASES_PATH, casePath, caseKeys, useInvalidateCase, useInvalidateDrafts } from './keys.js';
import type { CaseItem } from './list.js';

/**
 * New applications, drafts and one case. The shapes come from the server's
 * schemas (core/api/cases.ts) as the browser receives them: dates as ISO
 * strings, and a form definition where the schema leaves the form open.
 */

type WithForm<T, F> = Omit<T, 'form'> & { form: F };

type NewOptionsWire = Wire<z.infer<typeof newOptionsSchema>>;

/** A protocol a new application can start from, with its main form. */
export type ProtocolOption = WithForm<NewOptionsWire['protocols'][number], FormDefinition>;

/** GET /api/cases/new-options: `open` is false after the project's deadline; `autosaveSeconds` is the project's setting. */
export type NewOptions = Omit<NewOptionsWire, 'protocols'> & { protocols: ProtocolOption[] };

/** GET /api/cases/drafts/:id (and what POST /api/cases/drafts answers). */
export type Draft = WithForm<Wire<z.infer<typeof draftSchema>>, FormDefinition>;

/** What the user may do on one case, as the server lists it. */
export type { CaseActionName };

/** GET /api/cases/:id (a case without a form has none). */
export type CaseDetail = WithForm<Wire<z.infer<typeof caseDetailSchema>>, FormDefinition | null>;

/** One row of GET /api/cases/:id/history: a transition, a task's step or changed fields. */
export type HistoryEvent = Wire<z.infer<typeof caseEventSchema>>;

const NEW_OPTIONS_PATH = `${CASES_PATH}/new-options`;
const DRAFTS_PATH = `${CASES_PATH}/drafts`;

/** The editor of a new application or of a draft (`?draft=` keeps the same page as the first save names the draft). */
export const newCaseUrl = (draftId?: number) => (draftId ? `/cases/new?draft=${draftId}` : '/cases/new');

export function useNewOptions(enabled = true) {
  return useQuery({
    queryKey: caseKeys.newOptions(),
    queryFn: ({ signal }) => apiFetch<NewOptions>(NEW_OPTIONS_PATH, { signal }),
    enabled,
  });
}

export function useDrafts() {
  return useQuery({
    queryKey: caseKeys.draftList(),
    queryFn: ({ signal }) => apiFetch<ListPage<CaseItem>>(`${DRAFTS_PATH}?limit=100`, { signal }),
  });
}

/**
 * A draft opened from the page's address. The editor holds its own copy: it
 * is read once and not kept (nor refetched) after the editor leaves.
 */
export function useOpenDraft(id: number | undefined) {
  return useQuery({
    queryKey: caseKeys.draft(id ?? 0),
    queryFn: ({ signal }) => loadDraft(id as number, signal),
    enabled: id !== undefined,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    refetchOnWindowFocus: false,
  });
}

/** Deletes a draft. Errors are the caller's to show. */
export function useDeleteDraft(callbacks: MutationCallbacks<void, CaseItem> = {}) {
  const invalidate = useInvalidateDrafts();
  return useMutation({
    mutationFn: (draft: CaseItem) => deleteDraft(draft.id),
    meta: { silentError: true },
    onSuccess: refreshAfter(callbacks, () => invalidate()),
    onError: callbacks.onError,
  });
}

/* The editor of an application saves as the user types and resolves conflicts itself: plain calls, not mutations. */

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

/** Where an application stands in plain words, its public steps and the documents asked of the applicant. */
export type PublicTimeline = Wire<z.infer<typeof publicTimelineSchema>>;

export function usePublicTimeline(id: string, enabled: boolean) {
  return useQuery({
    queryKey: caseKeys.publicTimeline(id),
    queryFn: ({ signal }) => apiFetch<PublicTimeline>(`${casePath(id)}/public-timeline`, { signal }),
    enabled,
  });
}

/**
 * The plain-words status of each case of a page of the applicant's list
 * (cases it may not read are left out); under the lists' key, so a change to
 * cases refreshes it with them.
 */
export function usePublicStatuses(ids: readonly number[], enabled: boolean) {
  const key = ids.join(',');
  return useQuery({
    queryKey: [...caseKeys.lists(), 'public-statuses', key] as const,
    queryFn: async ({ signal }) => {
      const answer = await apiFetch<{ items: { id: number; status: PublicStatus }[] }>(`${CASES_PATH}/public-statuses?ids=${key}`, { signal });
      return new Map(answer.items.map((item) => [item.id, item.status]));
    },
    enabled: enabled && ids.length > 0,
    placeholderData: keepPreviousData,
  });
}

export type CaseTransition = 'open' | 'complete' | 'close' | 'activate';

/** Opens, completes, closes (with an optional reason) or enables again one case. Errors are the caller's to show. */
export function useCaseTransition(id: number, callbacks: MutationCallbacks<{ state: string }, { name: CaseTransition; reason?: string }> = {}) {
  const invalidate = useInvalidateCase();
  return useMutation({
    mutationFn: ({ name, reason }: { name: CaseTransition; reason?: string }) =>
      apiFetch<{ state: string }>(`${casePath(id)}/${name}`, { method: 'POST', json: reason ? { reason } : {} }),
    meta: { silentError: true },
    onSuccess: refreshAfter(callbacks, () => invalidate()),
    onError: callbacks.onError,
  });
}

/** Corrects an open application's data; `version` is the one it was read at (STALE_DRAFT when it moved). */
export const saveCaseData = (id: number, data: Record<string, unknown>, version: number) =>
  apiFetch<{ version: number }>(`${casePath(id)}/data`, { method: 'PUT', json: { data, version } });

/** Gives a case to another owner. Errors are the caller's to show. */
export function useChangeOwner(id: number, callbacks: MutationCallbacks<{ ownerId: number }, number> = {}) {
  const invalidate = useInvalidateCase();
  return useMutation({
    mutationFn: (userId: number) => apiFetch<{ ownerId: number }>(`${casePath(id)}/owner`, { method: 'PUT', json: { userId } }),
    meta: { silentError: true },
    onSuccess: refreshAfter(callbacks, () => invalidate()),
    onError: callbacks.onError,
  });
}

/** Sets who else follows a case. Errors are the caller's to show. */
export function useSetParticipants(id: number, callbacks: MutationCallbacks<{ userIds: number[] }, number[]> = {}) {
  const invalidate = useInvalidateCase();
  return useMutation({
    mutationFn: (userIds: number[]) => apiFetch<{ userIds: number[] }>(`${casePath(id)}/participants`, { method: 'PUT', json: { userIds } }),
    meta: { silentError: true },
    onSuccess: refreshAfter(callbacks, () => invalidate()),
    onError: callbacks.onError,
  });
}

/** An open application as a picker shows it (a few fields of GET /api/cases). */
export interface OpenCaseOption {
  id: number;
  number: string | null;
  applicant: string;
  protocolName: string;
}

/**
 * Open applications (state PENDING) matching `search` (number, applicant's
 * name or document), newest first. Someone who may not list applications gets
 * an error, silently: the picker asks for an ID instead.
 */
export function useOpenCaseOptions(search: string) {
  return useQuery({
    queryKey: caseKeys.openOptionList(search),
    queryFn: ({ signal }) => {
      const query = new URLSearchParams({ state: 'PENDING', limit: '20', sortBy: 'doc_date', descending: 'true' });
      if (search) query.set('search', search);
      return apiFetch<ListPage<OpenCaseOption>>(`${CASES_PATH}?${query}`, { signal });
    },
    placeholderData: keepPreviousData,
    retry: false,
    meta: { silentError: true },
  });
}

/** The application an ad-hoc task starts from (`?case=`), when the user may see it; silent otherwise. */
export function useAdhocCasePreset(id: number | null, enabled: boolean) {
  return useQuery({
    queryKey: caseKeys.adhocPreset(id ?? 0),
    queryFn: ({ signal }) => apiFetch<OpenCaseOption & { state: string }>(`${CASES_PATH}/${id}`, { signal }),
    enabled: id !== null && enabled,
    retry: false,
    meta: { silentError: true },
  });
}

// ---------------------------------------------------------------- returned for correction (issue 18)

/** An open request to correct an application, as GET /api/cases/:id shows it. */
export type Correction = NonNullable<CaseDetail['correction']>;
export type { ResubmitCorrection, ReturnForCorrection };

/** The applicant's page where they correct what was asked (the address the email links to). */
export const correctionUrl = (id: number | string) => `/cases/${encodeURIComponent(String(id))}/correct`;

/** Staff send the application back to its applicant. Errors are the caller's to show. */
export function useReturnForCorrection(id: number, callbacks: MutationCallbacks<{ version: number }, ReturnForCorrection> = {}) {
  const invalidate = useInvalidateCase();
  return useMutation({
    mutationFn: (body: ReturnForCorrection) => apiFetch<{ version: number }>(`${casePath(id)}/correction`, { method: 'POST', json: body }),
    meta: { silentError: true },
    onSuccess: refreshAfter(callbacks, () => invalidate()),
    onError: callbacks.onError,
  });
}

/** Staff withdraw the open request. Errors are the caller's to show. */
export function useCancelCorrection(id: number, callbacks: MutationCallbacks<{ version: number }, void> = {}) {
  const invalidate = useInvalidateCase();
  return useMutation({
    mutationFn: () => apiFetch<{ version: number }>(`${casePath(id)}/correction/cancel`, { method: 'POST', json: {} }),
    meta: { silentError: true },
    onSuccess: refreshAfter(callbacks, () => invalidate()),
    onError: callbacks.onError,
  });
}

/** The applicant sends the corrected application back. Errors are the caller's to show. */
export function useResubmitCorrection(id: number, callbacks: MutationCallbacks<{ version: number }, ResubmitCorrection> = {}) {
  const invalidate = useInvalidateCase();
  return useMutation({
    mutationFn: (body: ResubmitCorrection) => apiFetch<{ version: number }>(`${casePath(id)}/correction/resubmit`, { method: 'POST', json: body }),
    meta: { silentError: true },
    onSuccess: refreshAfter(callbacks, () => invalidate()),
    onError: callbacks.onError,
  });
}
