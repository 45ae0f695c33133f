import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApplicationSettingsBody, ApplicationSettingsView, BrandingKind, PlanState } from '../../../../core/api/applicationSettings.js';
import type { BusinessCalendarBody, BusinessCalendarView } from '../../../../core/api/settings.js';
import type { Wire } from '../../../../core/api/wire.js';
import { apiFetch } from '../../lib/api.js';
import { type MutationCallbacks, refreshAfter } from '../../lib/mutation.js';
import { PROJECT_SETTINGS_KEY } from '../../app/project/projectSettings.js';

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

// ------------------------------------------------------------ the application settings (/configuracion)

export type ApplicationSettings = Wire<ApplicationSettingsView>;
export type ApplicationSettingsValues = ApplicationSettingsBody;
export type PlanStateView = Wire<PlanState>;

const APPLICATION_PATH = '/api/settings/application';
const withProject = (path: string, project?: string) => (project ? `${path}?project=${encodeURIComponent(project)}` : path);

export const applicationSettingsKeys = {
  all: ['settings', 'application'] as const,
  project: (project?: string) => ['settings', 'application', project ?? ''] as const,
  plan: ['settings', 'plan'] as const,
};

/** A project's settings (the tenant's default project without `project`). */
export function useApplicationSettings(project?: string) {
  return useQuery({
    queryKey: applicationSettingsKeys.project(project),
    queryFn: ({ signal }) => apiFetch<ApplicationSettings>(withProject(APPLICATION_PATH, project), { signal }),
  });
}

export function usePlanState() {
  return useQuery({ queryKey: applicationSettingsKeys.plan, queryFn: ({ signal }) => apiFetch<PlanStateView>('/api/settings/plan', { signal }) });
}

/** After a change: this page's data, and the shell's project settings (this tab re-themes at once; other tabs by the realtime event). */
function useRefreshApplication(project?: string) {
  const queryClient = useQueryClient();
  return (saved: ApplicationSettings) =>
    Promise.all([
      queryClient.setQueryData(applicationSettingsKeys.project(project), saved),
      queryClient.invalidateQueries({ queryKey: PROJECT_SETTINGS_KEY }),
      queryClient.invalidateQueries({ queryKey: applicationSettingsKeys.plan }),
    ]);
}

export function useSaveApplicationSettings(project: string | undefined, callbacks: MutationCallbacks<ApplicationSettings, ApplicationSettingsValues> = {}) {
  const refresh = useRefreshApplication(project);
  return useMutation({
    mutationFn: (values: ApplicationSettingsValues) => apiFetch<ApplicationSettings>(withProject(APPLICATION_PATH, project), { method: 'PUT', json: values }),
    meta: { silentError: true },
    onSuccess: refreshAfter(callbacks, refresh),
    onError: callbacks.onError,
  });
}

/** Uploads the logo or favicon (multipart `file`); the server checks it by content. */
export function useUploadBranding(project: string | undefined, callbacks: MutationCallbacks<ApplicationSettings, { kind: BrandingKind; file: File }> = {}) {
  const refresh = useRefreshApplication(project);
  return useMutation({
    mutationFn: ({ kind, file }: { kind: BrandingKind; file: File }) => {
      const body = new FormData();
      body.append('file', file);
      return apiFetch<ApplicationSettings>(withProject(`${APPLICATION_PATH}/${kind}`, project), { method: 'POST', body });
    },
    meta: { silentError: true },
    onSuccess: refreshAfter(callbacks, refresh),
    onError: callbacks.onError,
  });
}

export function useRemoveBranding(project: string | undefined, callbacks: MutationCallbacks<ApplicationSettings, BrandingKind> = {}) {
  const refresh = useRefreshApplication(project);
  return useMutation({
    mutationFn: (kind: BrandingKind) => apiFetch<ApplicationSettings>(withProject(`${APPLICATION_PATH}/${kind}`, project), { method: 'DELETE' }),
    meta: { silentError: true },
    onSuccess: refreshAfter(callbacks, refresh),
    onError: callbacks.onError,
  });
}
