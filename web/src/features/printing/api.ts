import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  casePrintOptionSchema,
  PrintKind,
  printCaseOptionSchema,
  printSourceSchema,
  PrintTemplateCreateBody,
  printTemplateSchema,
  printTemplateSummarySchema,
  PrintTemplateUpdateBody,
} from '../../../../core/api/printing.js';
import type { Wire } from '../../../../core/api/wire.js';
import { type ListParams, useListPage } from '../../components/table/listParams.js';
import { apiFetch } from '../../lib/api.js';
import { type MutationCallbacks, refreshAfter } from '../../lib/mutation.js';

/** A template as GET /api/print-templates lists it. */
export type PrintTemplateItem = Wire<z.infer<typeof printTemplateSummarySchema>>;
/** A template with its PDF's fields, mapping and bodies. */
export type PrintTemplate = Wire<z.infer<typeof printTemplateSchema>>;
export type PrintSource = Wire<z.infer<typeof printSourceSchema>>;
export type PrintCaseOption = Wire<z.infer<typeof printCaseOptionSchema>>;
export type CasePrintOption = Wire<z.infer<typeof casePrintOptionSchema>>;

const PATH = '/api/print-templates';

export const printKeys = {
  all: ['print-templates'] as const,
  lists: () => [...printKeys.all, 'list'] as const,
  detail: (id: number) => [...printKeys.all, 'detail', id] as const,
  sources: (protocolId: number | null) => [...printKeys.all, 'sources', protocolId] as const,
  caseOptions: (search: string, protocolId: number | null) => [...printKeys.all, 'case-options', search, protocolId] as const,
  ofCase: (caseId: number) => [...printKeys.all, 'case', caseId] as const,
};

/** Where a case printed with a template opens (a PDF, in a new tab). */
export const printUrl = (caseId: number, templateId: number) => `/api/cases/${caseId}/print/${templateId}`;

export function usePrintTemplateList(params: ListParams, filter: { protocolId?: string; kind?: PrintKind }) {
  return useListPage<PrintTemplateItem>(printKeys.lists(), PATH, params, filter);
}

export function usePrintTemplate(id: number | null) {
  return useQuery({
    queryKey: printKeys.detail(id ?? 0),
    queryFn: ({ signal }) => apiFetch<PrintTemplate>(`${PATH}/${id}`, { signal }),
    enabled: id !== null,
  });
}

/** What a mapping may name for the protocol (case fields only without one). */
export function usePrintSources(protocolId: number | null) {
  return useQuery({
    queryKey: printKeys.sources(protocolId),
    queryFn: ({ signal }) => apiFetch<{ items: PrintSource[] }>(`${PATH}/sources${protocolId ? `?protocolId=${protocolId}` : ''}`, { signal }),
  });
}

export function usePrintCaseOptions(search: string, protocolId: number | null) {
  const q = search.trim();
  const qs = new URLSearchParams();
  if (q) qs.set('search', q);
  if (protocolId) qs.set('protocolId', String(protocolId));
  return useQuery({
    queryKey: printKeys.caseOptions(q, protocolId),
    queryFn: ({ signal }) => apiFetch<PrintCaseOption[]>(`${PATH}/case-options?${qs}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** The templates a case prints with (its print menu). */
export function useCasePrintOptions(caseId: number, enabled = true) {
  return useQuery({
    queryKey: printKeys.ofCase(caseId),
    queryFn: ({ signal }) => apiFetch<{ items: CasePrintOption[] }>(`/api/cases/${caseId}/print-templates`, { signal }),
    enabled,
  });
}

export function useCreatePrintTemplate(callbacks: MutationCallbacks<PrintTemplate, PrintTemplateCreateBody> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PrintTemplateCreateBody) => apiFetch<PrintTemplate>(PATH, { method: 'POST', json: body }),
    meta: { silentError: true },
    onSuccess: refreshAfter(callbacks, () => queryClient.invalidateQueries({ queryKey: printKeys.all })),
    onError: callbacks.onError,
  });
}

export function useSavePrintTemplate(id: number, callbacks: MutationCallbacks<PrintTemplate, PrintTemplateUpdateBody> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PrintTemplateUpdateBody) => apiFetch<PrintTemplate>(`${PATH}/${id}`, { method: 'PUT', json: body }),
    meta: { silentError: true },
    onSuccess: refreshAfter(callbacks, () => queryClient.invalidateQueries({ queryKey: printKeys.all })),
    onError: callbacks.onError,
  });
}

export function useUploadTemplatePdf(id: number, callbacks: MutationCallbacks<PrintTemplate, File> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => {
      const body = new FormData();
      body.append('file', file);
      return apiFetch<PrintTemplate>(`${PATH}/${id}/pdf`, { method: 'PUT', body });
    },
    onSuccess: refreshAfter(callbacks, () => queryClient.invalidateQueries({ queryKey: printKeys.all })),
    onError: callbacks.onError,
  });
}

export function useDeletePrintTemplate(callbacks: MutationCallbacks<void, PrintTemplateItem> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (template: PrintTemplateItem) => apiFetch<void>(`${PATH}/${template.id}`, { method: 'DELETE' }),
    onSuccess: refreshAfter(callbacks, () => queryClient.invalidateQueries({ queryKey: printKeys.all })),
    onError: callbacks.onError,
  });
}
