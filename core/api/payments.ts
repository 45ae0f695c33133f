/**
 * The awards and payments contract (issue 23), shared by the server and the
 * browser. An award is the amount a case's approval task grants (months of
 * arrears, months ahead, utilities; the total is computed by the server and
 * checked against the protocol's `awardCaps`); the overlap check lists other
 * cases of the tenant paid for the same months at the same address and unit,
 * or to the same landlord for the same tenant. A payee is whom an award pays
 * (landlord, tenant, another party): lists show the account and tax id
 * masked (`payeeSchema`), and the full details (`payeeBankDetailsSchema`)
 * come only from the route with target `pagos_cuentas`, each read recorded.
 * Payment batches (target `pagos`) gather approved awards, one payment each,
 * are exported once as a NACHA file and a check register, and are marked paid
 * once. The payee report (target `reporte_beneficiarios`) totals a year's
 * payments per payee and tax id. Amounts are whole cents everywhere.
 */
import { z } from 'zod';
import { dayText, listQuery, listResponse } from './list.js';
import { ACCOUNT_TYPES, isValidRoutingNumber, mailingAddressSchema, PAYEE_KINDS, PAYMENT_METHODS, payeeDetailsSchema } from '../payments.js';

export { PAYEE_KINDS, PAYMENT_METHODS, PAYEE_REPORT_THRESHOLD_CENTS, payeeDetailsSchema } from '../payments.js';

/** A calendar month, `YYYY-MM`. */
export const monthText = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, { error: 'payments.invalidMonth' });

const cents = (max: number) => z.number({ error: 'validation.required' }).int({ error: 'payments.invalidAmount' }).min(0, { error: 'payments.invalidAmount' }).max(max, { error: 'payments.invalidAmount' });

/** What the approval task's accept carries (`award` of the accept body). Amounts in cents. */
export const awardInputSchema = z.strictObject({
  /** The months of unpaid rent, each once. */
  arrearsMonths: z
    .array(monthText)
    .max(60)
    .default([])
    .refine((m) => new Set(m).size === m.length, { error: 'payments.repeatedMonth' })
    .transform((m) => [...m].sort()),
  /** Months of rent paid ahead, after the arrears (or from the month of the decision). */
  aheadMonths: z.number().int().min(0, { error: 'payments.invalidAmount' }).max(24, { error: 'payments.invalidAmount' }).default(0),
  monthlyRent: cents(100_000_00),
  utilities: cents(100_000_00).default(0),
  /**
   * Whom it pays: the landlord, or the tenant when the landlord does not take
   * part. Absent: the case's `defaultPayeeKind` (the tenant once the landlord's
   * deadline passed on a protocol that pays the tenant then, else the landlord).
   */
  payeeKind: z.enum(PAYEE_KINDS, { error: 'validation.chooseOption' }).optional(),
  /** Optional: one of the tenant's payees by id (otherwise the case's payee of that kind). */
  payeeId: z.number().int().positive().nullable().default(null),
  propertyAddress: z.string({ error: 'validation.required' }).trim().min(1, { error: 'validation.required' }).max(300, { error: 'validation.tooLong' }),
  unit: z.string().trim().max(50, { error: 'validation.tooLong' }).nullable().default(null),
});
export type AwardInput = z.infer<typeof awardInputSchema>;

export const AWARD_STATES = ['approved', 'batched', 'paid', 'cancelled'] as const;
export type AwardState = (typeof AWARD_STATES)[number];

export const awardCapsSchema = z.object({
  maxArrearsMonths: z.number(),
  maxAheadMonths: z.number(),
  maxMonthlyRent: z.number().nullable(),
  maxUtilities: z.number(),
  maxTotal: z.number(),
});

const personRef = z.object({ id: z.number(), name: z.string() });

export const awardSchema = z.object({
  id: z.number(),
  caseId: z.number(),
  caseNumber: z.string().nullable(),
  taskId: z.number().nullable(),
  payeeKind: z.enum(PAYEE_KINDS),
  payeeId: z.number().nullable(),
  payeeName: z.string().nullable(),
  arrearsMonths: z.array(z.string()),
  aheadMonths: z.number(),
  /** Every month the award pays for: the arrears and the months ahead. */
  months: z.array(z.string()),
  monthlyRent: z.number(),
  utilities: z.number(),
  total: z.number(),
  propertyAddress: z.string(),
  unit: z.string().nullable(),
  state: z.enum(AWARD_STATES),
  approvedBy: personRef.nullable(),
  approvedAt: z.date(),
  batchId: z.number().nullable(),
  paidAt: z.date().nullable(),
  version: z.number(),
});
export type Award = z.infer<typeof awardSchema>;

/** `GET /api/cases/:id/award`: the case's current award (null: none yet), the earlier ones it replaced, the protocol's caps (null: the protocol gives no award), and whom a new award pays unless told. */
export const caseAwardSchema = z.object({
  award: awardSchema.nullable(),
  previous: z.array(awardSchema),
  caps: awardCapsSchema.nullable(),
  defaultPayeeKind: z.enum(PAYEE_KINDS),
});

/** `GET /api/cases/:id/award/overlaps`: without months, address and unit, those of the case's award are checked. */
export const awardOverlapQuery = z.strictObject({
  months: z
    .string()
    .max(60 * 8)
    .transform((s) => s.split(',').map((m) => m.trim()).filter(Boolean))
    .pipe(z.array(monthText).max(60))
    .optional(),
  address: z.string().trim().max(300).optional(),
  unit: z.string().trim().max(50).optional(),
  /** A payee whose other awards for this case's tenant count (the landlord). */
  payeeId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
});

export const OVERLAP_REASONS = ['same_unit', 'same_landlord_and_tenant'] as const;
export type OverlapReason = (typeof OVERLAP_REASONS)[number];

export const awardOverlapSchema = z.object({
  awardId: z.number(),
  caseId: z.number(),
  caseNumber: z.string().nullable(),
  state: z.enum(AWARD_STATES),
  total: z.number(),
  /** The months both pay for. */
  months: z.array(z.string()),
  reasons: z.array(z.enum(OVERLAP_REASONS)),
});
export const awardOverlapListSchema = z.object({ months: z.array(z.string()), items: z.array(awardOverlapSchema) });

// ---------------------------------------------------------------- payees

/** A payee as lists and reads show it: the account and the tax id masked (`••••6789`). */
export const payeeSchema = z.object({
  id: z.number(),
  kind: z.enum(PAYEE_KINDS),
  name: z.string(),
  email: z.string().nullable(),
  method: z.enum(PAYMENT_METHODS),
  routingNumber: z.string().nullable(),
  accountMasked: z.string().nullable(),
  accountType: z.enum(ACCOUNT_TYPES).nullable(),
  taxIdMasked: z.string().nullable(),
  address: mailingAddressSchema.nullable(),
  caseId: z.number().nullable(),
  partyId: z.number().nullable(),
  userId: z.number().nullable(),
  createdAt: z.date(),
  updatedAt: z.date(),
});
export type Payee = z.infer<typeof payeeSchema>;
export const payeeListQuery = listQuery(['name', 'createdAt']).extend({
  kind: z.enum(PAYEE_KINDS).optional(),
  caseId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
});
export const payeeListSchema = listResponse(payeeSchema);

/** The full bank details (target `pagos_cuentas show`; every read is recorded in the history). */
export const payeeBankDetailsSchema = z.object({
  payeeId: z.number(),
  name: z.string(),
  method: z.enum(PAYMENT_METHODS),
  routingNumber: z.string().nullable(),
  accountNumber: z.string().nullable(),
  accountType: z.enum(ACCOUNT_TYPES).nullable(),
  taxId: z.string().nullable(),
  address: mailingAddressSchema.nullable(),
});

/** A payee's own history (`GET /api/payees/:id/events`): what happened to a payee on no case; a payee on cases has it in their histories. */
export const payeeEventListSchema = z.object({
  items: z.array(z.object({ id: z.number(), action: z.string(), detail: z.record(z.string(), z.unknown()), at: z.date(), user: personRef.nullable() })),
});

/** `PUT /api/cases/:id/payee`: staff enter (or correct) a case's payee of a kind. */
export const casePayeeBody = z.strictObject({
  kind: z.enum(PAYEE_KINDS, { error: 'validation.chooseOption' }),
  details: payeeDetailsSchema,
});

// ---------------------------------------------------------------- batches

export const BATCH_STATES = ['open', 'exported', 'paid'] as const;
export type BatchState = (typeof BATCH_STATES)[number];

export const BATCH_ACTIONS = ['export', 'markPaid'] as const;

export const batchSchema = z.object({
  id: z.number(),
  number: z.number(),
  payDate: z.string(),
  /** The one method it was built for; null: both. */
  method: z.enum(PAYMENT_METHODS).nullable(),
  state: z.enum(BATCH_STATES),
  total: z.number(),
  paymentCount: z.number(),
  achCount: z.number(),
  checkCount: z.number(),
  createdAt: z.date(),
  createdBy: personRef.nullable(),
  exportedAt: z.date().nullable(),
  exportedBy: personRef.nullable(),
  paidAt: z.date().nullable(),
  paidBy: personRef.nullable(),
  version: z.number(),
  /** What the reader may do with it now (from the server's rules). */
  actions: z.array(z.enum(BATCH_ACTIONS)),
});
export type PaymentBatch = z.infer<typeof batchSchema>;

export const batchListQuery = listQuery(['number', 'payDate', 'createdAt', 'total']).extend({ state: z.enum(BATCH_STATES).optional() });
export const batchListSchema = listResponse(batchSchema);

export const paymentSchema = z.object({
  id: z.number(),
  awardId: z.number(),
  caseId: z.number(),
  caseNumber: z.string().nullable(),
  payeeId: z.number(),
  payeeName: z.string(),
  method: z.enum(PAYMENT_METHODS),
  amount: z.number(),
  accountMasked: z.string().nullable(),
  /** The NACHA trace number of an ACH payment, once exported. */
  traceNumber: z.string().nullable(),
  paidAt: z.date().nullable(),
});
export type Payment = z.infer<typeof paymentSchema>;

/** A batch with its payments, grouped by payee (payments of one payee together, payees by name). */
export const batchDetailSchema = batchSchema.extend({
  payees: z.array(z.object({ payeeId: z.number(), name: z.string(), method: z.enum(PAYMENT_METHODS), total: z.number(), payments: z.array(paymentSchema) })),
});

/** Builds a batch of the approved awards not in one yet, approved on or before `upTo` (default: today), of one method or both. */
export const createBatchBody = z.strictObject({
  payDate: dayText,
  upTo: dayText.optional(),
  method: z.enum(PAYMENT_METHODS, { error: 'validation.chooseOption' }).optional(),
});
export const markPaidBody = z.strictObject({ version: z.number({ error: 'validation.required' }).int().positive() });

// ---------------------------------------------------------------- the payee report

export const payeeReportQuery = z.strictObject({
  year: z.coerce.number({ error: 'validation.required' }).int().min(2000).max(2100),
});
export const payeeReportExportQuery = payeeReportQuery.extend({ format: z.enum(['xlsx', 'csv']).default('xlsx') });

export const payeeReportRowSchema = z.object({
  /** One payee's id (the latest) when several payee records share a tax id. */
  payeeId: z.number(),
  name: z.string(),
  kind: z.enum(PAYEE_KINDS),
  taxIdMasked: z.string().nullable(),
  payments: z.number(),
  total: z.number(),
  /** At or over the reporting threshold: a tax form is due. */
  overThreshold: z.boolean(),
});
export const payeeReportSchema = z.object({ year: z.number(), threshold: z.number(), items: z.array(payeeReportRowSchema) });

// ---------------------------------------------------------------- ACH settings

const routing = z.string({ error: 'validation.required' }).refine(isValidRoutingNumber, { error: 'payments.invalidRouting' });
const achText = (max: number) => z.string({ error: 'validation.required' }).trim().min(1, { error: 'validation.required' }).max(max, { error: 'validation.tooLong' }).regex(/^[ -~]*$/, { error: 'payments.achCharacters' });

/** The tenant's ACH origin: who the bank knows it as (the NACHA file header and batch header). */
export const achSettingsBody = z.strictObject({
  originatorName: achText(16),
  /** The company identification the ODFI assigned (10 characters, often "1" and the EIN). */
  companyId: achText(10),
  odfiRouting: routing,
  immediateDestination: routing,
  immediateDestinationName: achText(23),
  immediateOrigin: z.string().regex(/^\d{9,10}$/, { error: 'payments.invalidOrigin' }),
  immediateOriginName: achText(23),
  entryDescription: achText(10).default('RENTASSIST'),
});
export type AchSettingsBody = z.infer<typeof achSettingsBody>;
export const achSettingsSchema = z.object({
  settings: z
    .object({
      originatorName: z.string(),
      companyId: z.string(),
      odfiRouting: z.string(),
      immediateDestination: z.string(),
      immediateDestinationName: z.string(),
      immediateOrigin: z.string(),
      immediateOriginName: z.string(),
      entryDescription: z.string(),
      updatedAt: z.date(),
    })
    .nullable(),
});
