import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BusinessCalendarBody, BusinessCalendarView } from '../../../../core/api/settings.js';
import type { Wire } from '../../../../core/api/wire.js';
import { apiFetch } from '../../lib/api.js';
import type { MutationCallbacks } from '../../lib/mutation.js';

/** The tenant's business calendar (GET/PUT /api/settings/calendar). */
export type BusinessCalendar = Wire<BusinessCalendarView>;
export type BusinessCalendarValues = BusinessCalendarBody;

const CALENDAR_PATH = '/api/settings/calendar';

export const settingsKeys = {
  calendar: ['settings', 'calendar'] as const,
};

export function useBusinessCalendar() {
  return useQuery({ queryKey: settingsKeys.calendar, queryFn: ({ signal }) => apiFetch<BusinessCalendar>(CALENDAR_PATH, { signal }) });
}

/** Saves the calendar: the answer becomes the cached calendar. */
export function useSaveBusinessCalendar(callbacks: MutationCallbacks<BusinessCalendar, BusinessCalendarValues> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (values: BusinessCalendarValues) => apiFetch<BusinessCalendar>(CALENDAR_PATH, { method: 'PUT', json: values }),
    meta: { silentError: true },
    onSuccess: (saved, values) => {
      queryClient.setQueryData(settingsKeys.calendar, saved);
      return callbacks.onSuccess?.(saved, values);
    },
    onError: callbacks.onError,
  });
}
