import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { fileLinkSchema, fileSchema } from '../../../../core/api/files.js';
import type { checkedValuesSchema, fieldOptionSchema, formSummarySchema, formViewSchema } from '../../../../core/api/forms.js';
import type { Wire } from '../../../../core/api/wire.js';
import { isErrorBody } from '../../../../core/errors.js';
import type { FieldDef, FormDefinition } from '../../../../core/forms/definition.js';
import type { FileRef } from '../../../../core/forms/validator.js';
import { VERSION_HEADER } from '../../../../core/version.js';
import { type ListPage, type ListParams, useListPage } from '../../components/table/listParams.js';
import i18n from '../../i18n/index.js';
import { ApiError, apiFetch } from '../../lib/api.js';
import { type MutationCallbacks, refreshAfter } from '../../lib/mutation.js';

/** One form in the list (GET /api/forms); `fields` counts those that hold a value or show text. */
export type FormSummary = Wire<z.infer<typeof formSummarySchema>>;

/** One form with its definition (GET /api/forms/:id); `inUse`: a task or case uses this version, so saving makes a new one. */
export type FormView = Omit<Wire<z.infer<typeof formViewSchema>>, 'definition'> & { definition: FormDefinition };

/** A choice of a select whose options the server gives (masters, external lists). */
export type FieldOption = Wire<z.infer<typeof fieldOptionSchema>>;

const FORMS_PATH = '/api/forms';

/** A form's values as the renderer holds them. */
type FormValues = Record<string, unknown>;

export const formKeys = {
  all: ['forms'] as const,
  lists: () => [...formKeys.all, 'list'] as const,
  detail: (id: number | string) => [...formKeys.all, 'detail', String(id)] as const,
  /** A form's definition as another screen reads it (the protocol editor's main form). */
  definition: (id: number | null | undefined) => [...formKeys.all, 'definition', id] as const,
  options: () => [...formKeys.all, 'options'] as const,
  /**
   * The options of one select of a rendered form (`source` names the renderer:
   * a saved form, a preview). Apart from `all`: saving a form does not reload them.
   */
  fieldOptions: (source: string, field: string, origin: string, parent: string | null) => ['form-field-options', source, field, origin, parent] as const,
};

const formQuery = (id: number | string) =>
  queryOptions({
    queryKey: formKeys.detail(id),
    queryFn: ({ signal }) => apiFetch<FormView>(`${FORMS_PATH}/${id}`, { signal }),
  });

export function useFormQuery(id: number | string | undefined) {
  return useQuery({ ...formQuery(id ?? 'none'), enabled: id !== undefined });
}

/** Reads one form now (from the cache when fresh): for a check before an action. */
export function useFetchForm() {
  const queryClient = useQueryClient();
  return (id: number | string) => queryClient.fetchQuery(formQuery(id));
}

export function useFormList(params: ListParams) {
  return useListPage<FormSummary>(formKeys.lists(), FORMS_PATH, params);
}

/** A form the protocol editor or an ad-hoc task may use (GET /api/forms, first 100 by name). */
export interface FormOption {
  id: number;
  code: string;
  name: string;
}

/** The first 100 forms by name, for pickers; users without the forms target get none (silently). */
export function useFormOptions(enabled: boolean, staleTime?: number) {
  return useQuery({
    queryKey: formKeys.options(),
    queryFn: ({ signal }) => apiFetch<ListPage<FormOption>>(`${FORMS_PATH}?limit=100&sortBy=name`, { signal }),
    enabled,
    // The ad-hoc task page keeps the list a minute; the protocol editor asks on each visit.
    ...(staleTime !== undefined && { staleTime }),
    retry: false,
    meta: { silentError: true },
  });
}

/** The fields of a form, for another screen (the protocol editor's pending columns); silent when not allowed. */
export function useFormDefinition(id: number | null | undefined, enabled: boolean) {
  return useQuery({
    queryKey: formKeys.definition(id),
    queryFn: ({ signal }) => apiFetch<{ definition: { fields: FieldDef[] } }>(`${FORMS_PATH}/${id}`, { signal }),
    enabled: !!id && enabled,
    retry: false,
    meta: { silentError: true },
  });
}

/** Every list and form that shows forms. */
export function useInvalidateForms() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: formKeys.all });
}

export interface FormBody {
  code: string;
  definition: unknown;
}

/** Saves a new form, or a new version of `saved`; the answer becomes the cached form. Errors are the caller's to show. */
export function useSaveForm(saved: FormView | null, callbacks: MutationCallbacks<FormView, FormBody> = {}) {
  const queryClient = useQueryClient();
  const invalidate = useInvalidateForms();
  return useMutation({
    mutationFn: (body: FormBody) =>
      saved ? apiFetch<FormView>(`${FORMS_PATH}/${saved.id}`, { method: 'PUT', json: body }) : apiFetch<FormView>(FORMS_PATH, { method: 'POST', json: body }),
    meta: { silentError: true },
    onSuccess: refreshAfter(
      {
        onSuccess: (form: FormView, body: FormBody) => {
          queryClient.setQueryData(formKeys.detail(form.id), form);
          return callbacks.onSuccess?.(form, body);
        },
        onRefreshed: callbacks.onRefreshed,
      },
      () => invalidate(),
    ),
    onError: callbacks.onError,
  });
}

export function useDeleteForm(callbacks: MutationCallbacks<void, FormSummary> = {}) {
  const invalidate = useInvalidateForms();
  return useMutation({
    mutationFn: (form: FormSummary) => apiFetch<void>(`${FORMS_PATH}/${form.id}`, { method: 'DELETE' }),
    onSuccess: refreshAfter(callbacks, () => invalidate()),
    onError: callbacks.onError,
  });
}

/** Checks values against a saved form on the server, as a task or case would (the builder's preview). */
export function useCheckFormValues(formId: number | string | undefined, callbacks: MutationCallbacks<Wire<z.infer<typeof checkedValuesSchema>>, FormValues> = {}) {
  return useMutation({
    mutationFn: (values: FormValues) => apiFetch<Wire<z.infer<typeof checkedValuesSchema>>>(`${FORMS_PATH}/${formId}/check`, { method: 'POST', json: { values } }),
    meta: { silentError: true },
    onSuccess: callbacks.onSuccess,
    onError: callbacks.onError,
  });
}

/**
 * The options of one select, through the renderer's loader (a saved form's,
 * or the builder's preview). The renderer shows a failure in place.
 */
export function useFieldOptionsQuery(queryKey: ReturnType<typeof formKeys.fieldOptions>, load: (signal: AbortSignal) => Promise<FieldOption[]>, enabled: boolean) {
  return useQuery({
    queryKey,
    queryFn: ({ signal }) => load(signal),
    enabled,
    staleTime: 5 * 60_000,
    meta: { silentError: true },
  });
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

/** What POST /api/files answers. */
type StoredFile = Wire<z.infer<typeof fileSchema>>;

/** GET /api/files/:id/link: a download link valid for a few minutes. */
type FileLink = Wire<z.infer<typeof fileLinkSchema>>;

/**
 * Uploads one file to the files module (checked there by its content) and
 * reports progress, which fetch cannot: hence XMLHttpRequest.
 */
export function uploadFile(file: File, onProgress: (fraction: number) => void, options: { public?: boolean } = {}): Promise<FileRef> {
  return new Promise((resolve, reject) => {
    const body = new FormData();
    if (options.public) body.append('public', 'true');
    body.append('file', file, file.name);
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/files');
    xhr.setRequestHeader(VERSION_HEADER, __APP_VERSION__);
    xhr.setRequestHeader('accept', 'application/json');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onerror = () => reject(new ApiError(0, 'NETWORK', i18n.t('sms.network')));
    xhr.onload = () => {
      let payload: unknown;
      try {
        payload = JSON.parse(xhr.responseText);
      } catch {
        payload = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        const stored = payload as StoredFile;
        resolve({ id: stored.id, name: stored.name, size: stored.size });
        return;
      }
      if (isErrorBody(payload)) {
        const detail = Array.isArray(payload.error.details) ? (payload.error.details[0] as { message?: string } | undefined)?.message : undefined;
        reject(new ApiError(xhr.status, payload.error.code, detail ?? payload.error.message));
        return;
      }
      reject(new ApiError(xhr.status, 'INTERNAL', i18n.t('forms.renderer.uploadFailed')));
    };
    xhr.send(body);
  });
}

/** Opens a file through a five-minute link (the server answers it as a download). */
export async function downloadStoredFile(id: string): Promise<void> {
  const { url } = await apiFetch<FileLink>(`/api/files/${encodeURIComponent(id)}/link`);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.rel = 'noopener';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
}
