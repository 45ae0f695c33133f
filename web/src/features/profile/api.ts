import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { messageSchema, profileViewSchema } from '../../../../core/api/auth.js';
import type { notificationPreferencesSchema } from '../../../../core/api/comments.js';
import type { Wire } from '../../../../core/api/wire.js';
import type { passwordChangeSchema, profileSchema } from '../../../../core/auth.js';
import { SESSION_KEY } from '../../app/session/session.js';
import { apiFetch } from '../../lib/api.js';
import { type MutationCallbacks, refreshAfter } from '../../lib/mutation.js';

/** My own account: profile (GET/PUT /api/profile) and password (POST /api/auth/password). */

export type ProfileValues = z.input<typeof profileSchema>;
export type PasswordValues = z.input<typeof passwordChangeSchema>;

/** GET and PUT /api/profile: what the user may change, and the account's email and document number. */
export type Profile = Wire<z.infer<typeof profileViewSchema>>;

const PROFILE_PATH = '/api/profile';

export const profileKeys = {
  all: ['profile'] as const,
};

export function useProfile() {
  return useQuery({ queryKey: profileKeys.all, queryFn: ({ signal }) => apiFetch<Profile>(PROFILE_PATH, { signal }) });
}

/**
 * Saves my profile: the answer becomes the cached profile, then the session
 * is refreshed (the top bar shows the new name; dates follow the new time zone).
 */
export function useSaveProfile(callbacks: MutationCallbacks<Profile, ProfileValues> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (values: ProfileValues) => apiFetch<Profile>(PROFILE_PATH, { method: 'PUT', json: values }),
    meta: { silentError: true },
    onSuccess: refreshAfter(
      {
        onSuccess: (saved: Profile, values: ProfileValues) => {
          queryClient.setQueryData(profileKeys.all, saved);
          return callbacks.onSuccess?.(saved, values);
        },
        onRefreshed: callbacks.onRefreshed,
      },
      () => queryClient.invalidateQueries({ queryKey: SESSION_KEY }),
    ),
    onError: callbacks.onError,
  });
}

/** GET and PUT /api/notifications/preferences: which events also come by email, and the daily digest. */
export type NotificationPreferences = Wire<z.infer<typeof notificationPreferencesSchema>>;
const PREFERENCES_PATH = '/api/notifications/preferences';
export const preferencesKeys = { all: ['notification-preferences'] as const };

export function useNotificationPreferences() {
  return useQuery({ queryKey: preferencesKeys.all, queryFn: ({ signal }) => apiFetch<NotificationPreferences>(PREFERENCES_PATH, { signal }) });
}

export function useSaveNotificationPreferences(callbacks: MutationCallbacks<NotificationPreferences, NotificationPreferences> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (values: NotificationPreferences) => apiFetch<NotificationPreferences>(PREFERENCES_PATH, { method: 'PUT', json: values }),
    onSuccess: (saved, values) => {
      queryClient.setQueryData(preferencesKeys.all, saved);
      return callbacks.onSuccess?.(saved, values);
    },
  });
}

export function useChangePassword(callbacks: MutationCallbacks<Wire<z.infer<typeof messageSchema>>, PasswordValues> = {}) {
  return useMutation({
    mutationFn: (values: PasswordValues) => apiFetch<Wire<z.infer<typeof messageSchema>>>('/api/auth/password', { method: 'POST', json: values }),
    meta: { silentError: true },
    onSuccess: callbacks.onSuccess,
    onError: callbacks.onError,
  });
}
