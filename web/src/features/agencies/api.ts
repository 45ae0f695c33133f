import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { agencyEditorBody, agencySchema, confirmedSchema, registrationBody } from '../../../../core/api/agencies.js';
import type { Wire } from '../../../../core/api/wire.js';
import { SESSION_KEY } from '../../app/session/session.js';
import { type ListPage, type ListParams, listQueryString } from '../../components/table/listParams.js';
import { apiFetch } from '../../lib/api.js';
import { type MutationCallbacks, refreshAfter } from '../../lib/mutation.js';
import type { MessageAnswer } from '../auth/api.js';

/** An agency as the operator's list and editor show it. */
export type Agency = Wire<z.infer<typeof agencySchema>>;
export type AgencyForm = z.input<typeof agencyEditorBody>;
export type RegistrationForm = z.input<typeof registrationBody>;
export type Confirmed = Wire<z.infer<typeof confirmedSchema>>;

export interface AgencyFilter {
  state: 'active' | 'inactive' | '';
  plan: string;
}

const PATH = '/api/agencies';

export const agencyKeys = {
  all: ['agencies'] as const,
  lists: () => [...agencyKeys.all, 'list'] as const,
  detail: (id: number) => [...agencyKeys.all, 'detail', id] as const,
};

/** A public call: an agency registers itself (the link goes by email). */
export function useRegisterAgency(callbacks: MutationCallbacks<MessageAnswer, RegistrationForm> = {}) {
  return useMutation({
    mutationFn: (body: RegistrationForm) => apiFetch<MessageAnswer>(`${PATH}/registrations`, { method: 'POST', json: body }),
    meta: { silentError: true },
    onSuccess: callbacks.onSuccess,
    onError: callbacks.onError,
  });
}

/** Uses the emailed link: the agency is made and its administrator signed in (the session is read afresh). */
export function useConfirmRegistration(callbacks: MutationCallbacks<Confirmed, string> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => apiFetch<Confirmed>(`${PATH}/registrations/confirm`, { method: 'POST', json: { token } }),
    meta: { silentError: true },
    onSuccess: refreshAfter(callbacks, () => queryClient.invalidateQueries({ queryKey: SESSION_KEY })),
    onError: callbacks.onError,
  });
}

export function useAgencies(params: ListParams, filter: AgencyFilter) {
  const qs = listQueryString(params, { state: filter.state || undefined, plan: filter.plan || undefined });
  return useQuery({
    queryKey: [...agencyKeys.lists(), qs],
    queryFn: ({ signal }) => apiFetch<ListPage<Agency>>(`${PATH}?${qs}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useAgency(id: number | null) {
  return useQuery({
    queryKey: agencyKeys.detail(id ?? 0),
    queryFn: ({ signal }) => apiFetch<Agency>(`${PATH}/${id}`, { signal }),
    enabled: id !== null,
  });
}

/** Creates (no id) or changes an agency. */
export function useSaveAgency(id: number | null, callbacks: MutationCallbacks<Agency, AgencyForm> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AgencyForm) => {
      if (id === null) return apiFetch<Agency>(PATH, { method: 'POST', json: body });
      const { docnumber: _, adminName: _n, adminEmail: _e, ...rest } = body;
      return apiFetch<Agency>(`${PATH}/${id}`, { method: 'PUT', json: rest });
    },
    meta: { silentError: true },
    onSuccess: refreshAfter(callbacks, () => queryClient.invalidateQueries({ queryKey: agencyKeys.all })),
    onError: callbacks.onError,
  });
}
