import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { galleryAppSchema, installedSchema, installPlanSchema } from '../../../../core/api/gallery.js';
import type { Wire } from '../../../../core/api/wire.js';
import { apiFetch } from '../../lib/api.js';
import { type MutationCallbacks, refreshAfter } from '../../lib/mutation.js';
import { protocolKeys } from '../protocols/api.js';

/** One application of the gallery, as GET /api/gallery lists it. */
export type GalleryApp = Wire<z.infer<typeof galleryAppSchema>>;
/** What an install or import will do (the preview and the dry run). */
export type InstallPlan = Wire<z.infer<typeof installPlanSchema>>;
/** A done install or import: the plan, the new project and its protocols. */
export type Installed = Wire<z.infer<typeof installedSchema>>;
export interface InstallTarget {
  uid: string;
  title: string;
}

export const galleryKeys = {
  all: ['gallery'] as const,
  list: () => [...galleryKeys.all, 'list'] as const,
};

export function useGallery() {
  return useQuery({
    queryKey: galleryKeys.list(),
    queryFn: ({ signal }) => apiFetch<{ items: GalleryApp[] }>('/api/gallery', { signal }),
    select: (data) => data.items,
  });
}

/** The preview of installing `app` into a new project (nothing is written). */
export function usePreviewInstall(callbacks: MutationCallbacks<InstallPlan, { app: string; target: InstallTarget }> = {}) {
  return useMutation({
    mutationFn: ({ app, target }: { app: string; target: InstallTarget }) => apiFetch<InstallPlan>(`/api/gallery/${encodeURIComponent(app)}/preview`, { method: 'POST', json: target }),
    onSuccess: refreshAfter(callbacks, () => undefined),
    onError: callbacks.onError,
  });
}

export function useInstall(callbacks: MutationCallbacks<Installed, { app: string; target: InstallTarget }> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ app, target }: { app: string; target: InstallTarget }) => apiFetch<Installed>(`/api/gallery/${encodeURIComponent(app)}/install`, { method: 'POST', json: target }),
    onSuccess: refreshAfter(callbacks, () => queryClient.invalidateQueries({ queryKey: protocolKeys.all })),
    onError: callbacks.onError,
  });
}

export interface ImportRequest {
  bundle: unknown;
  uid?: string;
  title?: string;
}

/** The dry run of an import: the same report as the preview. */
export function useImportDryRun(callbacks: MutationCallbacks<InstallPlan, ImportRequest> = {}) {
  return useMutation({
    mutationFn: (body: ImportRequest) => apiFetch<InstallPlan>('/api/projects/import', { method: 'POST', json: { ...body, dryRun: true } }),
    onSuccess: refreshAfter(callbacks, () => undefined),
    onError: callbacks.onError,
  });
}

export function useImportProject(callbacks: MutationCallbacks<Installed, ImportRequest> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ImportRequest) => apiFetch<Installed>('/api/projects/import', { method: 'POST', json: { ...body, dryRun: false } }),
    onSuccess: refreshAfter(callbacks, () => queryClient.invalidateQueries({ queryKey: protocolKeys.all })),
    onError: callbacks.onError,
  });
}

/** Where a project's file downloads from (a plain link: the browser saves it). */
export const exportUrl = (uid: string) => `/api/projects/${encodeURIComponent(uid)}/export`;
