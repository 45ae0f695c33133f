import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { showToast } from '../../components/feedback/toastStore.js';
import { apiFetch } from '../../lib/api.js';

/** One user as the admin screens get it (GET /api/users). */
export interface UserItem {
  id: number;
  email: string;
  name: string;
  docnumber: string | null;
  roleId: number;
  roleName: string;
  active: boolean;
  locked: boolean;
  lockedAt: string | null;
  failedLogins: number;
  language: 'en' | 'es';
  timeZone: string;
  createdAt: string;
}

export interface RoleOption {
  id: number;
  code: string;
  name: string;
  superAdmin: boolean;
}

export interface PlanState {
  plan: number;
  accountLimit: number;
  accountsUsed: number;
  diskQuotaMb: number;
}

export const USERS_PATH = '/api/users';
export const BLOCKED_PATH = '/api/users/blocked';
export const PLAN_PATH = '/api/entity/plan';

/** Every list and count that shows users. */
export function useInvalidateUsers() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: [USERS_PATH] }),
      queryClient.invalidateQueries({ queryKey: [BLOCKED_PATH] }),
      queryClient.invalidateQueries({ queryKey: [PLAN_PATH] }),
    ]);
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
