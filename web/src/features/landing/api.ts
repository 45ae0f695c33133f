import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { LandingLinkCreated, LandingLinkState, LandingPage } from '../../../../core/api/landing.js';
import type { Wire } from '../../../../core/api/wire.js';
import { apiFetch } from '../../lib/api.js';
import { type MutationCallbacks, refreshAfter } from '../../lib/mutation.js';

/** Landing pages: one application's public page (no session), and its link as staff make and revoke it on the case page. */
export type LandingPageView = Wire<LandingPage>;
export type LandingLink = Wire<LandingLinkState>;
export type LandingLinkMade = Wire<LandingLinkCreated>;

export const landingKeys = {
  all: ['landing'] as const,
  page: (docnumber: string, name: string, code: string) => ['landing', 'page', docnumber, name, code] as const,
  link: (caseId: number) => ['landing', 'link', caseId] as const,
};

const linkPath = (caseId: number) => `/api/cases/${caseId}/landing-link`;

export function useLandingPage(docnumber: string, name: string, code: string) {
  return useQuery({
    queryKey: landingKeys.page(docnumber, name, code),
    queryFn: ({ signal }) => apiFetch<LandingPageView>(`/api/landing/${encodeURIComponent(docnumber)}/${encodeURIComponent(name)}/${encodeURIComponent(code)}`, { signal }),
    retry: false,
    meta: { silentError: true },
  });
}

export function useLandingLink(caseId: number, enabled: boolean) {
  return useQuery({ queryKey: landingKeys.link(caseId), queryFn: ({ signal }) => apiFetch<LandingLink>(linkPath(caseId), { signal }), enabled });
}

export function useCreateLandingLink(caseId: number, callbacks: MutationCallbacks<LandingLinkMade, void> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<LandingLinkMade>(linkPath(caseId), { method: 'POST' }),
    onSuccess: refreshAfter(callbacks, (made) => queryClient.setQueryData(landingKeys.link(caseId), { active: true, createdAt: made.createdAt })),
    onError: callbacks.onError,
  });
}

export function useRevokeLandingLink(caseId: number, callbacks: MutationCallbacks<LandingLink, void> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<LandingLink>(linkPath(caseId), { method: 'DELETE' }),
    onSuccess: refreshAfter(callbacks, (state) => queryClient.setQueryData(landingKeys.link(caseId), state)),
    onError: callbacks.onError,
  });
}
