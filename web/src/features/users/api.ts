import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import type { planSchema, resetLinkSentSchema, roleOptionSchema, userSchema } from '../../../../core/api/users.js';
import type { Wire } from '../../../../core/api/wire.js';
import { showToast } from '../../components/feedback/toastStore.js';
import { type ListParams, useListPage } from '../../components/table/listParams.js';
import { apiFetch } from '../../lib/api.js';
import { type MutationCallbacks, refreshAfter } from '../../lib/mutation.js';

/** One user as the admin screens get it (GET /api/users), with what the caller may do on it. */
export type UserItem = Wire<z.infer<typeof userSchema>>;

/** A role the caller may give a user. */
export type RoleOption = Wire<z.infer<typeof roleOptionSchema>>;

/** GET /api/entity/plan: accounts used of the allowed number, disk used of the quota. */
export type PlanState = Wire<z.infer<typeof planSchema>>;

const USERS_PATH = '/api/users';
const BLOCKED_PATH = '/api/users/blocked';
const PLAN_PATH = '/api/entity/plan';

export const userKeys = {
  all: ['users'] as const,
  lists: () => [...userKeys.all, 'list'] as const,
  blockedLists: () => [...userKeys.all, 'blocked'] as const,
  roleOptions: () => [...userKeys.all, 'role-options'] as const,
  plan: () => [...userKeys.all, 'plan'] as const,
};

/** Every list and count that shows users: the lists, blocked accounts, role options and the plan's count. */
export function useInvalidateUsers() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: userKeys.all });
}

export function useUserList(params: ListParams, filter: { locked?: string }) {
  return useListPage<UserItem>(userKeys.lists(), USERS_PATH, params, filter);
}

export function useBlockedUserList(params: ListParams) {
  return useListPage<UserItem>(userKeys.blockedLists(), BLOCKED_PATH, params);
}

/** 'N of M accounts used' of the tenant's plan. */
export function usePlanState() {
  return useQuery({ queryKey: userKeys.plan(), queryFn: ({ signal }) => apiFetch<PlanState>(PLAN_PATH, { signal }) });
}

/** The roles this admin may hand out. */
export function useRoleOptions() {
  return useQuery({
    queryKey: userKeys.roleOptions(),
    queryFn: ({ signal }) => apiFetch<RoleOption[]>(`${USERS_PATH}/role-options`, { signal }),
  });
}

/** What the user dialog sends; `password` only for a new user who gets one now. */
export interface UserBody {
  email: string;
  name: string;
  docnumber: string | null;
  roleId: number;
  active: boolean;
  language: string;
  timeZone: string;
  password?: string;
}

/** Creates a user, or updates `user`. Errors are the caller's to show (field errors). */
export function useSaveUser(user: UserItem | null, callbacks: MutationCallbacks<UserItem, UserBody> = {}) {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (body: UserBody) =>
      user ? apiFetch<UserItem>(`${USERS_PATH}/${user.id}`, { method: 'PUT', json: body }) : apiFetch<UserItem>(USERS_PATH, { method: 'POST', json: body }),
    meta: { silentError: true },
    onSuccess: refreshAfter(callbacks, () => invalidate()),
    onError: callbacks.onError,
  });
}

export function useDeleteUser(callbacks: MutationCallbacks<void, UserItem> = {}) {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (user: UserItem) => apiFetch<void>(`${USERS_PATH}/${user.id}`, { method: 'DELETE' }),
    onSuccess: refreshAfter(callbacks, () => invalidate()),
    onError: callbacks.onError,
  });
}

/** Emails a user a link to choose a new password; the server's sentence is the toast. */
export function useSendResetLink() {
  return useMutation({
    mutationFn: (user: UserItem) => apiFetch<Wire<z.infer<typeof resetLinkSentSchema>>>(`${USERS_PATH}/${user.id}/reset-link`, { method: 'POST' }),
    onSuccess: (answer) => showToast(answer.message, 'success'),
  });
}

/** Unlocks an account locked by failed sign-ins. */
export function useUnlockUser() {
  const { t } = useTranslation();
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (user: UserItem) => apiFetch<UserItem>(`${USERS_PATH}/${user.id}/unlock`, { method: 'POST' }),
    onSuccess: async (user) => {
      showToast(t('userAdmin.unlocked', { name: user.name }), 'success');
      await invalidate();
    },
  });
}
