import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  acceptedInvitationSchema,
  casePartiesSchema,
  myPartiesSchema,
  partyInvitationSchema,
  partyPageSchema,
  SubmitPartyBody,
  savedPartyFormSchema,
} from '../../../../core/api/parties.js';
import type { Wire } from '../../../../core/api/wire.js';
import type { PartyState } from '../../../../core/parties.js';
import { type ListParams, listQueryString } from '../../components/table/listParams.js';
import { ApiError, apiFetch } from '../../lib/api.js';
import { type MutationCallbacks, refreshAfter } from '../../lib/mutation.js';

/** GET /api/parties/invitations/:token: who invites whom. */
export type PartyInvitation = Wire<z.infer<typeof partyInvitationSchema>>;
export type AcceptedInvitation = Wire<z.infer<typeof acceptedInvitationSchema>>;
/** One row of "My tenants' applications". */
export type MyPartyRow = Wire<z.infer<typeof myPartiesSchema>>['items'][number];
export type MyPartiesPage = Wire<z.infer<typeof myPartiesSchema>>;
/** The party's own side of one case. */
export type PartyPage = Wire<z.infer<typeof partyPageSchema>>;
/** One party as staff see it on the case page. */
export type CaseParty = Wire<z.infer<typeof casePartiesSchema>>['items'][number];
export type SavedPartyForm = Wire<z.infer<typeof savedPartyFormSchema>>;

/**
 * Every parties query sits under ['parties']: the server's `party` realtime
 * change refreshes all of them (app/realtime/invalidation.ts).
 */
export const partyKeys = {
  all: ['parties'] as const,
  invitation: (token: string) => [...partyKeys.all, 'invitation', token] as const,
  mine: () => [...partyKeys.all, 'mine'] as const,
  mineList: (qs: string) => [...partyKeys.mine(), qs] as const,
  page: (id: number | string) => [...partyKeys.all, 'page', String(id)] as const,
  ofCase: (caseId: number | string) => [...partyKeys.all, 'case', String(caseId)] as const,
};

/** Why an invitation link does not open: used up, expired, or unknown (a mistyped link). */
export type DeadLink = 'used' | 'expired' | 'unknown';
export function deadLinkOf(error: unknown): DeadLink | null {
  if (!(error instanceof ApiError)) return null;
  if (error.code === 'PARTY_LINK_USED') return 'used';
  if (error.code === 'PARTY_LINK_EXPIRED') return 'expired';
  if (error.status === 404 || error.status === 400) return 'unknown';
  return null;
}

/** The invitation behind a link; the page shows its own "used" and "expired" states, so no toast. */
export function useInvitation(token: string) {
  return useQuery({
    queryKey: partyKeys.invitation(token),
    queryFn: ({ signal }) => apiFetch<PartyInvitation>(`/api/parties/invitations/${encodeURIComponent(token)}`, { signal }),
    retry: (count, error) => deadLinkOf(error) === null && count < 2,
    meta: { silentError: true },
  });
}

/** The signed-in user becomes the party; the link is spent. */
export function useAcceptInvitation(token: string, callbacks: MutationCallbacks<AcceptedInvitation, void> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<AcceptedInvitation>(`/api/parties/invitations/${encodeURIComponent(token)}/accept`, { method: 'POST' }),
    meta: { silentError: true },
    onSuccess: refreshAfter(callbacks, () => queryClient.invalidateQueries({ queryKey: partyKeys.mine() })),
    onError: callbacks.onError,
  });
}

/** "My tenants' applications": one page, filtered by the party's own state. */
export function useMyParties(params: ListParams, state: PartyState | '') {
  const qs = listQueryString(params, { state: state || undefined });
  return useQuery({
    queryKey: partyKeys.mineList(qs),
    queryFn: ({ signal }) => apiFetch<MyPartiesPage>(`/api/parties/mine?${qs}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** Whether the user is a party of any case (the home page's card); quiet when the answer fails. */
export function useIsAnyParty() {
  return useQuery({
    queryKey: partyKeys.mineList('any'),
    queryFn: ({ signal }) => apiFetch<MyPartiesPage>('/api/parties/mine?page=1&limit=1', { signal }),
    select: (page) => page.total,
    staleTime: 60_000,
    meta: { silentError: true },
  });
}

export function usePartyPage(id: string) {
  return useQuery({
    queryKey: partyKeys.page(id),
    queryFn: ({ signal }) => apiFetch<PartyPage>(`/api/parties/${encodeURIComponent(id)}`, { signal }),
  });
}

/** A draft of the party's form (not checked until it is submitted). */
export function useSavePartyDraft(id: number, callbacks: MutationCallbacks<SavedPartyForm, Record<string, unknown>> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (values: Record<string, unknown>) => apiFetch<SavedPartyForm>(`/api/parties/${id}/form`, { method: 'PUT', json: { values } }),
    meta: { silentError: true },
    onSuccess: refreshAfter(callbacks, (saved) =>
      queryClient.setQueryData<PartyPage>(partyKeys.page(id), (page) => (page ? { ...page, values: saved.values } : page)),
    ),
    onError: callbacks.onError,
  });
}

/** The party's side, sent once: the answer is the page as it now stands (read-only). */
export function useSubmitParty(id: number, callbacks: MutationCallbacks<PartyPage, SubmitPartyBody> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SubmitPartyBody) => apiFetch<PartyPage>(`/api/parties/${id}/submit`, { method: 'POST', json: body }),
    meta: { silentError: true },
    onSuccess: refreshAfter(callbacks, (page) => {
      queryClient.setQueryData(partyKeys.page(id), page);
      return queryClient.invalidateQueries({ queryKey: partyKeys.mine() });
    }),
    onError: callbacks.onError,
  });
}

/** Staff: a case's parties. */
export function useCaseParties(caseId: number) {
  return useQuery({
    queryKey: partyKeys.ofCase(caseId),
    queryFn: ({ signal }) => apiFetch<{ items: CaseParty[] }>(`/api/cases/${caseId}/parties`, { signal }),
  });
}

/** Staff: a new link by email; the answer is the case's parties afresh. */
export function useResendInvitation(caseId: number, callbacks: MutationCallbacks<{ items: CaseParty[] }, CaseParty> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (party: CaseParty) => apiFetch<{ items: CaseParty[] }>(`/api/cases/${caseId}/parties/${party.id}/resend`, { method: 'POST' }),
    onSuccess: refreshAfter(callbacks, (answer) => queryClient.setQueryData(partyKeys.ofCase(caseId), answer)),
    onError: callbacks.onError,
  });
}
