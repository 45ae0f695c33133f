import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { catalogItemSchema, roleItemSchema, roleRulesSchema, ruleRoleSchema } from '../../../../core/api/acl.js';
import type { Wire } from '../../../../core/api/wire.js';
import { type ListParams, useListPage } from '../../components/table/listParams.js';
import { apiFetch } from '../../lib/api.js';
import { type MutationCallbacks, refreshAfter } from '../../lib/mutation.js';
import type { CatalogKind } from './catalogs.js';

/** The permission model's catalogues and rules (server/modules/acl). */

export const catalogPath = (kind: CatalogKind) => `/api/acl/${kind}`;
const rulesPath = (roleId: string) => `/api/acl/roles/${encodeURIComponent(roleId)}/rules`;

/**
 * One row of the actions, modules or roles catalogue (GET /api/acl/<kind>),
 * with what the caller may do on it; a role also says whether it may do
 * everything and how many users hold it.
 */
export type CatalogItem = Wire<z.infer<typeof catalogItemSchema>> & Partial<Pick<Wire<z.infer<typeof roleItemSchema>>, 'superAdmin' | 'users'>>;

/** A role as the rules screen lists it (GET /api/acl/rules/roles). */
export type RuleRoleOption = Wire<z.infer<typeof ruleRoleSchema>>;

/** GET /api/acl/roles/:id/rules: the role, every module and action of the tenant, and what the role is granted (module code -> action codes). */
export type RoleRules = Wire<z.infer<typeof roleRulesSchema>>;

/** What a role is granted: module code -> action codes. */
export type Granted = Record<string, string[]>;

/**
 * A role's rules sit under the roles catalogue: changing a role refreshes
 * them too. The rules screen's own role list is apart from it.
 */
export const aclKeys = {
  all: ['acl'] as const,
  catalog: (kind: CatalogKind) => [...aclKeys.all, kind] as const,
  catalogLists: (kind: CatalogKind) => [...aclKeys.catalog(kind), 'list'] as const,
  rules: (roleId: string) => [...aclKeys.catalog('roles'), 'rules', roleId] as const,
  ruleRoles: () => [...aclKeys.all, 'rule-roles'] as const,
};

export function useCatalogList(kind: CatalogKind, params: ListParams) {
  return useListPage<CatalogItem>(aclKeys.catalogLists(kind), catalogPath(kind), params);
}

/** Every list of one catalogue (and, for roles, their rules). */
export function useInvalidateCatalog(kind: CatalogKind) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: aclKeys.catalog(kind) });
}

export interface CatalogValues {
  code: string;
  name: string;
  description: string;
}

/** Creates a record of a catalogue, or updates `item`. Errors are the caller's to show (field errors). */
export function useSaveCatalogItem(kind: CatalogKind, item: CatalogItem | null, callbacks: MutationCallbacks<CatalogItem, CatalogValues> = {}) {
  const invalidate = useInvalidateCatalog(kind);
  return useMutation({
    mutationFn: (values: CatalogValues) =>
      item
        ? apiFetch<CatalogItem>(`${catalogPath(kind)}/${item.id}`, { method: 'PUT', json: values })
        : apiFetch<CatalogItem>(catalogPath(kind), { method: 'POST', json: values }),
    meta: { silentError: true },
    onSuccess: refreshAfter(callbacks, () => invalidate()),
    onError: callbacks.onError,
  });
}

export function useDeleteCatalogItem(kind: CatalogKind, callbacks: MutationCallbacks<void, CatalogItem> = {}) {
  const invalidate = useInvalidateCatalog(kind);
  return useMutation({
    mutationFn: (item: CatalogItem) => apiFetch<void>(`${catalogPath(kind)}/${item.id}`, { method: 'DELETE' }),
    onSuccess: refreshAfter(callbacks, () => invalidate()),
    onError: callbacks.onError,
  });
}

/** The roles the rules screen offers: holding acl_reglas is enough to list them. */
export function useRuleRoles() {
  return useQuery({
    queryKey: aclKeys.ruleRoles(),
    queryFn: ({ signal }) => apiFetch<RuleRoleOption[]>('/api/acl/rules/roles', { signal }),
  });
}

export function useRoleRules(roleId: string) {
  return useQuery({
    queryKey: aclKeys.rules(roleId),
    queryFn: ({ signal }) => apiFetch<RoleRules>(rulesPath(roleId), { signal }),
    enabled: roleId !== '',
    // Unsaved ticks must not be reset by a background refetch.
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });
}

/** Saves a role's rules; the answer becomes the cached rules. */
export function useSaveRoleRules(roleId: string, callbacks: MutationCallbacks<RoleRules, Granted> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (granted: Granted) => apiFetch<RoleRules>(rulesPath(roleId), { method: 'PUT', json: { granted } }),
    onSuccess: async (saved, granted) => {
      queryClient.setQueryData(aclKeys.rules(roleId), saved);
      await callbacks.onSuccess?.(saved, granted);
    },
    onError: callbacks.onError,
  });
}
