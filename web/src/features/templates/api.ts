import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  MailEvent,
  TemplateBody,
  TemplateLanguage,
  templateCaseOptionSchema,
  templatePreviewSchema,
  templateSchema,
  templateSummarySchema,
} from '../../../../core/api/templates.js';
import type { Wire } from '../../../../core/api/wire.js';
import { type ListParams, useListPage } from '../../components/table/listParams.js';
import { MAX_LIMIT } from '../../../../core/api/list.js';
import { apiFetch } from '../../lib/api.js';
import { type MutationCallbacks, refreshAfter } from '../../lib/mutation.js';

/** A template as GET /api/mail-templates lists it. */
export type TemplateItem = Wire<z.infer<typeof templateSummarySchema>>;
/** A template with its bodies, as GET /api/mail-templates/:id answers it. */
export type Template = Wire<z.infer<typeof templateSchema>>;
/** The editor's template filled with a case's data, in both languages. */
export type TemplatePreview = Wire<z.infer<typeof templatePreviewSchema>>;
/** A case of the tenant to preview with. */
export type TemplateCaseOption = Wire<z.infer<typeof templateCaseOptionSchema>>;

/** What the preview and the test take of the editor's template. */
export interface TemplateParts {
  subjectEn: string;
  subjectEs: string;
  bodyHtmlEn: string;
  bodyHtmlEs: string;
  caseId: number | null;
}

const PATH = '/api/mail-templates';

export const templateKeys = {
  all: ['mail-templates'] as const,
  lists: () => [...templateKeys.all, 'list'] as const,
  detail: (id: number) => [...templateKeys.all, 'detail', id] as const,
  caseOptions: (search: string) => [...templateKeys.all, 'case-options', search] as const,
};

export function useTemplateList(params: ListParams, filter: { event?: MailEvent }) {
  return useListPage<TemplateItem>(templateKeys.lists(), PATH, params, filter);
}

export function useTemplate(id: number | null) {
  return useQuery({
    queryKey: templateKeys.detail(id ?? 0),
    queryFn: ({ signal }) => apiFetch<Template>(`${PATH}/${id}`, { signal }),
    enabled: id !== null,
  });
}

/** Cases of the tenant matching `search` (number or applicant), to preview with. */
export function useTemplateCaseOptions(search: string) {
  const q = search.trim();
  return useQuery({
    queryKey: templateKeys.caseOptions(q),
    queryFn: ({ signal }) => apiFetch<TemplateCaseOption[]>(`${PATH}/case-options${q ? `?search=${encodeURIComponent(q)}` : ''}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** Creates a template, or changes template `id` on `version`. Errors are the caller's to show (field errors). */
export function useSaveTemplate(current: { id: number; version: number } | null, callbacks: MutationCallbacks<Template, TemplateBody> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (values: TemplateBody) =>
      current
        ? apiFetch<Template>(`${PATH}/${current.id}`, { method: 'PUT', json: { ...values, version: current.version } })
        : apiFetch<Template>(PATH, { method: 'POST', json: values }),
    meta: { silentError: true },
    // Making one the default takes it from another: every list and template refreshes.
    onSuccess: refreshAfter(callbacks, () => queryClient.invalidateQueries({ queryKey: templateKeys.all })),
    onError: callbacks.onError,
  });
}

export function useDeleteTemplate(callbacks: MutationCallbacks<void, TemplateItem> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (template: TemplateItem) => apiFetch<void>(`${PATH}/${template.id}`, { method: 'DELETE' }),
    onSuccess: refreshAfter(callbacks, () => queryClient.invalidateQueries({ queryKey: templateKeys.all })),
    onError: callbacks.onError,
  });
}

/** The editor's template filled with a case's data (nothing is saved). */
export function usePreviewTemplate(callbacks: MutationCallbacks<TemplatePreview, TemplateParts> = {}) {
  return useMutation({
    mutationFn: (parts: TemplateParts) => apiFetch<TemplatePreview>(`${PATH}/preview`, { method: 'POST', json: parts }),
    meta: { silentError: true },
    onSuccess: refreshAfter(callbacks, () => undefined),
    onError: callbacks.onError,
  });
}

/** Queues the editor's template, filled, in one language, to the signed-in user. */
export function useSendTestTemplate(callbacks: MutationCallbacks<{ to: string }, TemplateParts & { language: TemplateLanguage }> = {}) {
  return useMutation({
    mutationFn: (body: TemplateParts & { language: TemplateLanguage }) => apiFetch<{ to: string }>(`${PATH}/send-test`, { method: 'POST', json: body }),
    meta: { silentError: true },
    onSuccess: refreshAfter(callbacks, () => undefined),
    onError: callbacks.onError,
  });
}

/** A print template an email may attach (issue 20). */
export interface PrintChoice {
  id: number;
  name: string;
  nameEn: string;
  kind: 'acroform' | 'letter';
  hasPdf: boolean;
}

/** The tenant's print templates, for the editor's attachment (needs menu_configuracion show: else an error, and no choices). */
export function usePrintTemplateChoices() {
  return useQuery({
    queryKey: ['print-templates', 'choices'],
    queryFn: ({ signal }) => apiFetch<{ items: PrintChoice[] }>(`/api/print-templates?limit=${MAX_LIMIT}&sortBy=name`, { signal }),
    retry: false,
  });
}
