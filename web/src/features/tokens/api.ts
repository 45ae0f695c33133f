import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { apiTokenSchema, createdTokenSchema, serviceAccountSchema } from '../../../../core/api/tokens.js';
import type { Wire } from '../../../../core/api/wire.js';
import { apiFetch } from '../../lib/api.js';

/**
 * API tokens (issue 22): mine (/api/profile/tokens) and a service account's
 * (/api/service-accounts/:id/tokens) go through the same hooks, by the path
 * of their list.
 */
export type ApiToken = Wire<z.infer<typeof apiTokenSchema>>;
export type CreatedToken = Wire<z.infer<typeof createdTokenSchema>>;
export type ServiceAccount = Wire<z.infer<typeof serviceAccountSchema>>;
export interface NewToken {
  name: string;
  /** null: never (a service account's only). */
  expiresInDays: number | null;
  readOnly: boolean;
}

export const MY_TOKENS = '/api/profile/tokens';
export const serviceTokensPath = (accountId: number) => `/api/service-accounts/${accountId}/tokens`;
const ACCOUNTS = '/api/service-accounts';

export const tokenKeys = {
  all: ['api-tokens'] as const,
  list: (path: string) => [...tokenKeys.all, path] as const,
  accounts: () => [...tokenKeys.all, 'service-accounts'] as const,
};

export function useTokens(path: string) {
  return useQuery({ queryKey: tokenKeys.list(path), queryFn: ({ signal }) => apiFetch<{ items: ApiToken[] }>(path, { signal }) });
}

/** Makes a token; the answer holds its value, shown once. */
export function useCreateToken(path: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (values: NewToken) => apiFetch<CreatedToken>(path, { method: 'POST', json: values }),
    meta: { silentError: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tokenKeys.all }),
  });
}

export function useRevokeToken(path: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: ApiToken) => apiFetch<void>(`${path}/${token.id}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tokenKeys.all }),
  });
}

export function useServiceAccounts() {
  return useQuery({ queryKey: tokenKeys.accounts(), queryFn: ({ signal }) => apiFetch<{ items: ServiceAccount[] }>(ACCOUNTS, { signal }) });
}

export interface ServiceAccountValues {
  name: string;
  roleId: number;
  active: boolean;
}

export function useSaveServiceAccount(account: ServiceAccount | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (values: ServiceAccountValues) =>
      apiFetch<ServiceAccount>(account ? `${ACCOUNTS}/${account.id}` : ACCOUNTS, { method: account ? 'PUT' : 'POST', json: values }),
    meta: { silentError: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tokenKeys.all }),
  });
}
