/**
 * The data tape's server data (core/api/datatape.ts is the contract): the
 * published protocols, each protocol's columns (read, saved, put back to the
 * default), and the caller's background exports with their progress and
 * files. Pages and components import from here.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { startTapeBody, TapeColumn, tapeConfigSchema, tapeExportSchema, tapeProtocolsSchema } from '../../../../core/api/datatape.js';
import type { Wire } from '../../../../core/api/wire.js';
import { apiFetch } from '../../lib/api.js';
import { type MutationCallbacks, refreshAfter } from '../../lib/mutation.js';

export type TapeProtocol = Wire<z.infer<typeof tapeProtocolsSchema>>['items'][number];
export type TapeConfig = Wire<z.infer<typeof tapeConfigSchema>>;
export type AvailableColumn = TapeConfig['available'][number];
export type TapeExport = Wire<z.infer<typeof tapeExportSchema>>;
export type StartTape = z.infer<typeof startTapeBody>;
export type { TapeColumn };

const BASE = '/api/data-tape';
const configPath = (protocolId: number) => `${BASE}/protocols/${protocolId}/config`;
/** A finished export's file (also the Download link's address). */
export const tapeFilePath = (id: string) => `${BASE}/exports/${encodeURIComponent(id)}/file`;

/**
 * How often the list of exports is asked again while one of them runs: the
 * server announces no progress through realtime (the job only writes its
 * row), so the page polls, and only while something runs.
 */
export const TAPE_POLL_MS = 1500;

export const dataTapeKeys = {
  all: ['data-tape'] as const,
  protocols: () => [...dataTapeKeys.all, 'protocols'] as const,
  config: (protocolId: number) => [...dataTapeKeys.all, 'config', protocolId] as const,
  exports: () => [...dataTapeKeys.all, 'exports'] as const,
};

/** The tenant's published protocols, each saying whether its tape has saved columns. */
export function useTapeProtocols() {
  return useQuery({
    queryKey: dataTapeKeys.protocols(),
    queryFn: ({ signal }) => apiFetch<{ items: TapeProtocol[] }>(`${BASE}/protocols`, { signal }),
    meta: { silentError: true },
  });
}

/** A protocol's columns (saved, or the default) and every column its form offers. */
export function useTapeConfig(protocolId: number | null) {
  return useQuery({
    queryKey: dataTapeKeys.config(protocolId ?? 0),
    queryFn: ({ signal }) => apiFetch<TapeConfig>(configPath(protocolId as number), { signal }),
    enabled: protocolId !== null,
    meta: { silentError: true },
  });
}

/** After the columns changed: the answer is the new configuration; the protocol list's `saved` follows. */
function useConfigChanged() {
  const client = useQueryClient();
  return (config: TapeConfig) => {
    client.setQueryData(dataTapeKeys.config(config.protocolId), config);
    return client.invalidateQueries({ queryKey: dataTapeKeys.protocols() });
  };
}

/** Saves the protocol's columns in order with their headers (PUT). Errors are the caller's to show. */
export function useSaveTapeConfig(protocolId: number, callbacks: MutationCallbacks<TapeConfig, TapeColumn[]> = {}) {
  const changed = useConfigChanged();
  return useMutation({
    mutationFn: (columns: TapeColumn[]) => apiFetch<TapeConfig>(configPath(protocolId), { method: 'PUT', json: { columns } }),
    meta: { silentError: true },
    onSuccess: refreshAfter(callbacks, (config) => changed(config)),
    onError: callbacks.onError,
  });
}

/** Forgets the protocol's saved columns: the tape is the default again (DELETE). Errors are the caller's to show. */
export function useResetTapeConfig(protocolId: number, callbacks: MutationCallbacks<TapeConfig, void> = {}) {
  const changed = useConfigChanged();
  return useMutation({
    mutationFn: () => apiFetch<TapeConfig>(configPath(protocolId), { method: 'DELETE' }),
    meta: { silentError: true },
    onSuccess: refreshAfter(callbacks, (config) => changed(config)),
    onError: callbacks.onError,
  });
}

/** The caller's exports of the last day, newest first; asked again every TAPE_POLL_MS while one runs. */
export function useTapeExports(enabled = true) {
  return useQuery({
    queryKey: dataTapeKeys.exports(),
    queryFn: ({ signal }) => apiFetch<{ items: TapeExport[] }>(`${BASE}/exports`, { signal }),
    enabled,
    refetchInterval: (q) => (q.state.data?.items.some((item) => item.state === 'running') ? TAPE_POLL_MS : false),
    meta: { silentError: true },
  });
}

/** Starts an export in the background; the new one joins the list at once. Errors are the caller's to show. */
export function useStartTapeExport(callbacks: MutationCallbacks<TapeExport, StartTape> = {}) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: StartTape) => apiFetch<TapeExport>(`${BASE}/exports`, { method: 'POST', json: body }),
    meta: { silentError: true },
    onSuccess: refreshAfter(callbacks, (started) => {
      client.setQueryData<{ items: TapeExport[] }>(dataTapeKeys.exports(), (list) => ({
        items: [started, ...(list?.items ?? []).filter((item) => item.id !== started.id)],
      }));
      return client.invalidateQueries({ queryKey: dataTapeKeys.exports() });
    }),
    onError: callbacks.onError,
  });
}
