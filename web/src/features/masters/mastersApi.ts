import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Target } from '../../../../core/targets.js';
import { apiFetch } from '../../lib/api.js';

/** One master (GET /api/masters). */
export interface Master {
  id: number;
  code: string;
  name: string;
  description: string;
  public: boolean;
  parentCode: string | null;
  /** Seeded with every tenant: its code cannot change and it cannot be deleted. */
  system: boolean;
  items: number;
  publicUrl: string | null;
}

/** One item of a master (GET /api/masters/:code/items). */
export interface MasterItem {
  id: number;
  code: string;
  name: string;
  parentCode: string | null;
  parentName: string | null;
  active: boolean;
  extra: Record<string, unknown>;
}

export interface ImportResult {
  dryRun: boolean;
  created: number;
  updated: number;
  errors: Array<{ line: number; column: string | null; message: string }>;
}

export const MASTERS_PATH = '/api/masters';
export const itemsPath = (code: string) => `${MASTERS_PATH}/${encodeURIComponent(code)}/items`;

/** Masters named by a permission target of the spec are guarded by it; any other by menu_maestros (as on the server). */
const OWN_TARGETS = ['definiciones', 'departamentos', 'municipios'] as const;
export function masterTarget(code: string): Target {
  return (OWN_TARGETS as readonly string[]).includes(code) ? (code as Target) : 'menu_maestros';
}

export function useMasterQuery(code: string) {
  return useQuery({
    queryKey: [MASTERS_PATH, 'one', code],
    queryFn: ({ signal }) => apiFetch<Master>(`${MASTERS_PATH}/${encodeURIComponent(code)}`, { signal }),
  });
}

/** Every list that shows masters, or the items of one master (their counts change too). */
export function useInvalidateMasters() {
  const queryClient = useQueryClient();
  return (code?: string) =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: [MASTERS_PATH] }),
      code ? queryClient.invalidateQueries({ queryKey: [itemsPath(code)] }) : undefined,
    ]);
}

/** The page of a master's items: the spec's fixed routes for its own masters, /main/{code} for the others. */
export function masterPagePath(code: string): string {
  return `/main/${encodeURIComponent(code)}`;
}
