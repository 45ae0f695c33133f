/** Shapes the payments tests serve (as the browser receives them). */
import type { Award, AwardCaps, BatchDetail, CaseAward, PayeeReport } from './api.js';

export const caps: AwardCaps = { maxArrearsMonths: 6, maxAheadMonths: 3, maxMonthlyRent: 2_500_00, maxUtilities: 500_00, maxTotal: 10_000_00 };

export const award = (over: Partial<Award> = {}): Award => ({
  id: 11, caseId: 3, caseNumber: '2026-11-000003', taskId: 5, payeeKind: 'landlord', payeeId: 8, payeeName: 'Oak Street Rentals LLC',
  arrearsMonths: ['2026-08', '2026-09'], aheadMonths: 1, months: ['2026-08', '2026-09', '2026-10'], monthlyRent: 1_200_00, utilities: 0, total: 3_600_00,
  propertyAddress: '12 Oak Street', unit: '4B', state: 'cancelled', approvedBy: { id: 2, name: 'Demo Coordinator' }, approvedAt: '2026-11-01T15:00:00.000Z',
  batchId: null, paidAt: null, version: 1, ...over,
});

export const caseAward = (over: Partial<CaseAward> = {}): CaseAward => ({ award: null, previous: [], caps, defaultPayeeKind: 'landlord', ...over });

export const batch = (over: Partial<BatchDetail> = {}): BatchDetail => ({
  id: 7, number: 3, payDate: '2026-11-30', method: null, state: 'exported', total: 4_850_00, paymentCount: 3, achCount: 2, checkCount: 1,
  createdAt: '2026-11-27T14:00:00.000Z', createdBy: { id: 2, name: 'Demo Coordinator' }, exportedAt: '2026-11-27T14:05:00.000Z', exportedBy: { id: 2, name: 'Demo Coordinator' },
  paidAt: null, paidBy: null, version: 2, actions: ['export', 'markPaid'],
  payees: [
    {
      payeeId: 8, name: 'Oak Street Rentals LLC', method: 'ach', total: 3_600_00,
      payments: [
        { id: 31, awardId: 12, caseId: 3, caseNumber: '2026-11-000003', payeeId: 8, payeeName: 'Oak Street Rentals LLC', method: 'ach', amount: 2_400_00, accountMasked: '••••6789', traceNumber: '091000010000001', paidAt: null },
        { id: 32, awardId: 13, caseId: 4, caseNumber: '2026-11-000004', payeeId: 8, payeeName: 'Oak Street Rentals LLC', method: 'ach', amount: 1_200_00, accountMasked: '••••6789', traceNumber: '091000010000002', paidAt: null },
      ],
    },
    {
      payeeId: 9, name: 'Rosa Tenant', method: 'check', total: 1_250_00,
      payments: [{ id: 33, awardId: 14, caseId: 5, caseNumber: '2026-11-000005', payeeId: 9, payeeName: 'Rosa Tenant', method: 'check', amount: 1_250_00, accountMasked: null, traceNumber: null, paidAt: null }],
    },
  ],
  ...over,
});

export const payeeReport = (year: number): PayeeReport => ({
  year,
  threshold: 600_00,
  items: [
    { payeeId: 8, name: 'Oak Street Rentals LLC', kind: 'landlord', taxIdMasked: '••••4321', payments: 4, total: 7_200_00, overThreshold: true },
    { payeeId: 9, name: 'Rosa Tenant', kind: 'tenant', taxIdMasked: null, payments: 1, total: 450_00, overThreshold: false },
  ],
});
