import { queryOptions, useQuery } from '@tanstack/react-query';
import { createContext, useContext } from 'react';
import type { ProjectSettings } from '../../../../core/project.js';
import { apiFetch } from '../../lib/api.js';
import { readCookie } from '../../lib/cookies.js';

/** Which project (tenant) this browser works in; the server picks its default one without the cookie. */
export function currentProjectId(): string {
  return readCookie('projectid') || 'default';
}

export function projectSettingsQuery(projectId: string) {
  return queryOptions({
    queryKey: ['project-settings', projectId],
    // The server validates this answer against core's schema before sending it.
    queryFn: ({ signal }) =>
      apiFetch<ProjectSettings>(`/api/projects/${encodeURIComponent(projectId)}/settings`, { signal }),
    // Settings change rarely and a change is picked up on the next visit.
    staleTime: Number.POSITIVE_INFINITY,
    // The blank layout shows its own dialog for this failure.
    meta: { silentError: true },
  });
}

export function useProjectSettingsQuery() {
  return useQuery(projectSettingsQuery(currentProjectId()));
}

export const ProjectSettingsContext = createContext<ProjectSettings | null>(null);

/** The loaded settings; only pages under the blank layout may ask, and there they are always loaded. */
export function useProjectSettings(): ProjectSettings {
  const settings = useContext(ProjectSettingsContext);
  if (!settings) throw new Error('useProjectSettings needs the BlankLayout above it');
  return settings;
}
