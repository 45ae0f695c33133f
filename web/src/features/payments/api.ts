/**
 * Awards and payments' server data (core/api/payments.ts is the contract):
 * a case's award with its protocol's caps, the duplicate-of-benefits check,
 * payment batches (list, one batch, build, mark paid, their files), a
 * payee's full bank details (read on a button, never cached), the tenant's
 * ACH settings and the yearly payee report. Pages and components import
 * from here.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  AchSettingsBody,
  achSettingsSchema,
  awardOverlapListSchema,
  awardSchema,
  BatchState,
  batchDetailSchema,
  batchSchema,
  caseAwardSchema,
  createBatchBody,
  payeeBankDetailsSchema,
  payeeReportSchema,
} from '../../../../core/api/payments.js';
import type { Wire } from '../../../../core/api/wire.js';
import { type ListPage, type ListParams, listQueryString } from '../../components/table/listParams.js';
import { apiFetch } from '../../lib/api.js';
import { type MutationCallbacks, refreshAfter } from '../../lib/mutation.js';

export type Award = Wire<z.infer<typeof awardSchema>>;
/** GET /api/cases/:id/award: the current award, the ones it replaced, the caps (null: the protocol gives none), whom it pays unless told. */
export type CaseAward = Wire<z.infer<typeof caseAwardSchema>>;
export type AwardCaps = NonNullable<CaseAward['caps']>;
export type AwardOverlapList = Wire<z.infer<typeof awardOverlapListSchema>>;
export type PaymentBatch = Wire<z.infer<typeof batchSchema>>;
export type BatchDetail = Wire<z.infer<typeof batchDetailSchema>>;
export type BatchPayee = BatchDetail['payees'][number];
export type BankDetails = Wire<z.infer<typeof payeeBankDetailsSchema>>;
export type PayeeReport = Wire<z.infer<typeof payeeReportSchema>>;
export type PayeeReportRow = PayeeReport['items'][number];
export type AchSettings = Wire<z.infer<typeof achSettingsSchema>>;
export type NewBatch = z.input<typeof createBatchBody>;

const BATCHES = '/api/payment-batches';
const ACH = '/api/payments/ach-settings';
const REPORT = '/api/reports/payees';

/** A batch's files, as plain links: the first download exports the batch, later ones give the same bytes. */
export const batchFilePath = (id: number, file: 'nacha' | 'checks') => `${BATCHES}/${id}/${file}`;
/** The payee report of a year as an Excel file (a plain link). */
export const payeeReportFilePath = (year: number) => `${REPORT}/export?${new URLSearchParams({ year: String(year), format: 'xlsx' })}`;

export const paymentKeys = {
  all: ['payments'] as const,
  awards: () => [...paymentKeys.all, 'award'] as const,
  award: (caseId: number) => [...paymentKeys.awards(), caseId] as const,
  overlaps: (caseId: number, qs: string) => [...paymentKeys.all, 'overlaps', caseId, qs] as const,
  batches: () => [...paymentKeys.all, 'batches'] as const,
  batchLists: () => [...paymentKeys.batches(), 'list'] as const,
  batch: (id: number) => [...paymentKeys.batches(), 'detail', id] as const,
  ach: () => [...paymentKeys.all, 'ach'] as const,
  report: (year: number) => [...paymentKeys.all, 'report', year] as const,
};

// ---------------------------------------------------------------- awards

export function useCaseAward(caseId: number) {
  return useQuery({
    queryKey: paymentKeys.award(caseId),
    queryFn: ({ signal }) => apiFetch<CaseAward>(`/api/cases/${caseId}/award`, { signal }),
    meta: { silentError: true },
  });
}

/** What the overlap check is asked about: the months the award would pay, the address and unit. */
export interface OverlapQuery {
  months: readonly string[];
  address: string;
  unit: string;
}

/**
 * Other applications paid for the same months at the same address and unit,
 * or to the same landlord for the same tenant. Asked only once there is a
 * month and an address; the previous answer stays while the next loads.
 */
export function useAwardOverlaps(caseId: number, query: OverlapQuery | null) {
  const params = new URLSearchParams();
  if (query) {
    params.set('months', query.months.join(','));
    params.set('address', query.address.trim());
    if (query.unit.trim()) params.set('unit', query.unit.trim());
  }
  const qs = params.toString();
  return useQuery({
    queryKey: paymentKeys.overlaps(caseId, qs),
    queryFn: ({ signal }) => apiFetch<AwardOverlapList>(`/api/cases/${caseId}/award/overlaps?${qs}`, { signal }),
    enabled: query !== null && query.months.length > 0 && query.address.trim() !== '',
    placeholderData: keepPreviousData,
    meta: { silentError: true },
  });
}

// ---------------------------------------------------------------- batches

export function useBatchList(params: ListParams, state: BatchState | '') {
  const qs = listQueryString(params, { state: state || undefined });
  return useQuery({
    queryKey: [...paymentKeys.batchLists(), qs],
    queryFn: ({ signal }) => apiFetch<ListPage<PaymentBatch>>(`${BATCHES}?${qs}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useBatch(id: number) {
  return useQuery({
    queryKey: paymentKeys.batch(id),
    queryFn: ({ signal }) => apiFetch<BatchDetail>(`${BATCHES}/${id}`, { signal }),
    meta: { silentError: true },
  });
}

/** Every batch view: after a batch is made, exported or paid. */
export function useRefreshBatches() {
  const queryClient = useQueryClient();
  return () => Promise.all([queryClient.invalidateQueries({ queryKey: paymentKeys.batches() }), queryClient.invalidateQueries({ queryKey: paymentKeys.awards() })]);
}

/** Builds a batch of the approved awards waiting; the answer is the new batch. Errors are the caller's to show. */
export function useCreateBatch(callbacks: MutationCallbacks<BatchDetail, NewBatch> = {}) {
  const refresh = useRefreshBatches();
  return useMutation({
    mutationFn: (body: NewBatch) => apiFetch<BatchDetail>(BATCHES, { method: 'POST', json: body }),
    meta: { silentError: true },
    onSuccess: refreshAfter(callbacks, () => refresh()),
    onError: callbacks.onError,
  });
}

/** Marks an exported batch paid (with the version the reader saw). */
export function useMarkPaid(callbacks: MutationCallbacks<BatchDetail, PaymentBatch> = {}) {
  const refresh = useRefreshBatches();
  return useMutation({
    mutationFn: (batch: PaymentBatch) => apiFetch<BatchDetail>(`${BATCHES}/${batch.id}/paid`, { method: 'POST', json: { version: batch.version } }),
    meta: { silentError: true },
    onSuccess: refreshAfter(callbacks, () => refresh()),
    onError: callbacks.onError,
  });
}

/** A payee's full bank details: asked for by a button, recorded by the server, never kept in the cache. */
export function useRevealBankDetails(callbacks: MutationCallbacks<BankDetails, number> = {}) {
  return useMutation({
    mutationFn: (payeeId: number) => apiFetch<BankDetails>(`/api/payees/${payeeId}/bank-details`),
    meta: { silentError: true },
    onSuccess: refreshAfter(callbacks, () => undefined),
    onError: callbacks.onError,
  });
}

// ---------------------------------------------------------------- ACH settings

export function useAchSettings() {
  return useQuery({
    queryKey: paymentKeys.ach(),
    queryFn: ({ signal }) => apiFetch<AchSettings>(ACH, { signal }),
    meta: { silentError: true },
  });
}

export function useSaveAchSettings(callbacks: MutationCallbacks<AchSettings, AchSettingsBody> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AchSettingsBody) => apiFetch<AchSettings>(ACH, { method: 'PUT', json: body }),
    meta: { silentError: true },
    onSuccess: refreshAfter(callbacks, (saved) => queryClient.setQueryData(paymentKeys.ach(), saved)),
    onError: callbacks.onError,
  });
}

// ---------------------------------------------------------------- the payee report

export function usePayeeReport(year: number) {
  return useQuery({
    queryKey: paymentKeys.report(year),
    queryFn: ({ signal }) => apiFetch<PayeeReport>(`${REPORT}?year=${year}`, { signal }),
    placeholderData: keepPreviousData,
    meta: { silentError: true },
  });
}
