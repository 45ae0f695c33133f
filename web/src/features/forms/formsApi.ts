import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { FormDefinition } from '../../../../core/forms/definition.js';
import { apiFetch } from '../../lib/api.js';

/** One form in the list (GET /api/forms). */
export interface FormSummary {
  id: number;
  code: string;
  name: string;
  description: string;
  version: number;
  /** How many fields hold a value or show text. */
  fields: number;
  updatedAt: string;
}

/** One form with its definition (GET /api/forms/:id). */
export interface FormView extends FormSummary {
  definition: FormDefinition;
  /** A task or case uses the current version: saving makes a new one. */
  inUse: boolean;
}

/** A choice of a select whose options the server gives (masters, external lists). */
export interface FieldOption {
  value: string;
  label: string;
}

export const FORMS_PATH = '/api/forms';

export const formQueryKey = (id: number | string) => [FORMS_PATH, 'one', String(id)] as const;

export function useFormQuery(id: number | string | undefined) {
  return useQuery({
    queryKey: formQueryKey(id ?? 'none'),
    queryFn: ({ signal }) => apiFetch<FormView>(`${FORMS_PATH}/${id}`, { signal }),
    enabled: id !== undefined,
  });
}

/** Every list and form that shows forms. */
export function useInvalidateForms() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: [FORMS_PATH] });
}

/** The options of a master select or an external list of a saved form, fetched by the server. */
export function fetchFieldOptions(formId: number | string, field: string, parent?: string, signal?: AbortSignal): Promise<FieldOption[]> {
  const query = parent !== undefined ? `?${new URLSearchParams({ parent })}` : '';
  return apiFetch<{ options: FieldOption[] }>(`${FORMS_PATH}/${formId}/options/${encodeURIComponent(field)}${query}`, { signal }).then(
    (answer) => answer.options,
  );
}

/**
 * The active items of a master as options, from the masters API: for a
 * preview in the builder, whose fields the saved form may not have yet.
 */
export function fetchMasterOptions(master: string, parent?: string, signal?: AbortSignal): Promise<FieldOption[]> {
  const query = new URLSearchParams({ limit: '100', active: 'true', sortBy: 'name' });
  if (parent !== undefined) query.set('parent', parent);
  return apiFetch<{ items: Array<{ code: string; name: string }> }>(`/api/masters/${encodeURIComponent(master)}/items?${query}`, { signal }).then(
    (answer) => answer.items.map((item) => ({ value: item.code, label: item.name })),
  );
}
