import { queryOptions, useQuery } from '@tanstack/react-query';
import { createContext, useContext, useSyncExternalStore } from 'react';
import type { ProjectSettings } from '../../../../core/project.js';
import { apiFetch } from '../../lib/api.js';
import { readCookie, writeCookie } from '../../lib/cookies.js';

const COOKIE_NAME = 'projectid';
const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

/**
 * Which project (tenant) this browser works in. The `projectid` cookie holds
 * the choice; a page whose path names a project (/login/{id}) takes that one
 * while it is shown. The server picks its default project for `default`.
 */
export function currentProjectId(): string {
  return pathProject ?? rememberedProjectId();
}

/** The project kept in the cookie, whatever the current path names. */
export function rememberedProjectId(): string {
  return readCookie(COOKIE_NAME) || 'default';
}

let pathProject: string | null = null;
const listeners = new Set<() => void>();
const notify = () => {
  for (const listener of listeners) listener();
};
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** The project named by the current path (null when the path names none); set by the blank layout. */
export function setPathProject(id: string | null): void {
  if (pathProject === id) return;
  pathProject = id;
  notify();
}

/** Remembers a project for the next visits (1 year): after it loaded from /login/{id}, or after sign-in. */
export function rememberProject(id: string): void {
  if (readCookie(COOKIE_NAME) === id) return;
  writeCookie(COOKIE_NAME, id, ONE_YEAR_SECONDS);
  notify();
}

/** The current project id, re-rendering when it changes. */
export function useCurrentProjectId(): string {
  return useSyncExternalStore(subscribe, currentProjectId);
}

/** The prefix of every project's settings query: a `project` realtime change refetches them (app/realtime/invalidation.ts). */
export const PROJECT_SETTINGS_KEY = ['project-settings'] as const;

export function projectSettingsQuery(projectId: string) {
  return queryOptions({
    queryKey: [...PROJECT_SETTINGS_KEY, projectId],
    // The server validates this answer against core's schema before sending it.
    queryFn: ({ signal }) =>
      apiFetch<ProjectSettings>(`/api/projects/${encodeURIComponent(projectId)}/settings`, { signal }),
    // Settings change rarely; a saved change reaches open pages as a realtime `project` change.
    staleTime: Number.POSITIVE_INFINITY,
    // The blank layout shows its own dialog for this failure.
    meta: { silentError: true },
  });
}

/** The settings of `projectId`, by default the current project. */
export function useProjectSettingsQuery(projectId?: string) {
  const current = useCurrentProjectId();
  return useQuery(projectSettingsQuery(projectId ?? current));
}

export const ProjectSettingsContext = createContext<ProjectSettings | null>(null);

/** The loaded settings; only pages under the blank layout may ask, and there they are always loaded. */
export function useProjectSettings(): ProjectSettings {
  const settings = useContext(ProjectSettingsContext);
  if (!settings) throw new Error('useProjectSettings needs the BlankLayout above it');
  return settings;
}
