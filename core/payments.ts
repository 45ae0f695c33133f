/**
 * Payees and their bank details (issue 23), shared by the server and the
 * browser: the ABA routing checksum, the shapes a payee's details take, and
 * how a bank account is shown masked.
 */
import { z } from 'zod';

/** Who an award pays: the landlord (or property manager), the tenant when the landlord will not take part, or another party (a utility). */
export const PAYEE_KINDS = ['landlord', 'tenant', 'other'] as const;
export type PayeeKind = (typeof PAYEE_KINDS)[number];

export const PAYMENT_METHODS = ['ach', 'check'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const ACCOUNT_TYPES = ['checking', 'savings'] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];

/** Yearly totals at or over this (in cents) are marked for a tax form (1099-MISC rents: 600 USD). */
export const PAYEE_REPORT_THRESHOLD_CENTS = 600_00;

/** The ABA routing number checksum: nine digits, 3·d1 + 7·d2 + d3 + 3·d4 + 7·d5 + d6 + 3·d7 + 7·d8 + d9 ≡ 0 (mod 10). */
export function isValidRoutingNumber(value: string): boolean {
  if (!/^\d{9}$/.test(value)) return false;
  const d = [...value].map(Number);
  const sum = 3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + (d[2] + d[5] + d[8]);
  return sum % 10 === 0 && value !== '000000000';
}

/** `••••6789`: the last four characters only. */
export function maskAccount(value: string | null | undefined): string | null {
  if (!value) return null;
  return `••••${value.slice(-4)}`;
}

const digitsOnly = (s: string) => s.replace(/[\s-]/g, '');

export const mailingAddressSchema = z.strictObject({
  line1: z.string().trim().min(1, { error: 'validation.required' }).max(200, { error: 'validation.tooLong' }),
  line2: z.string().trim().max(200, { error: 'validation.tooLong' }).nullable().default(null),
  city: z.string().trim().min(1, { error: 'validation.required' }).max(100, { error: 'validation.tooLong' }),
  state: z.string().trim().min(1, { error: 'validation.required' }).max(50, { error: 'validation.tooLong' }),
  zip: z.string().trim().regex(/^\d{5}(-\d{4})?$/, { error: 'payments.invalidZip' }),
});
export type MailingAddress = z.infer<typeof mailingAddressSchema>;

/**
 * A payee's details as a person enters them (the landlord on their side of
 * the application, or staff): by direct deposit (routing and account numbers,
 * the routing number's checksum checked) or by check (a mailing address).
 */
export const payeeDetailsSchema = z
  .strictObject({
    name: z.string().trim().min(1, { error: 'validation.required' }).max(200, { error: 'validation.tooLong' }),
    email: z.email({ error: 'validation.invalidEmail' }).max(254).nullable().default(null),
    /** EIN or SSN, nine digits (dashes allowed when typed). */
    taxId: z
      .string()
      .transform(digitsOnly)
      .pipe(z.string().regex(/^\d{9}$/, { error: 'payments.invalidTaxId' }))
      .nullable()
      .default(null),
    method: z.enum(PAYMENT_METHODS, { error: 'validation.chooseOption' }),
    routingNumber: z
      .string()
      .transform(digitsOnly)
      .pipe(z.string().refine(isValidRoutingNumber, { error: 'payments.invalidRouting' }))
      .nullable()
      .default(null),
    accountNumber: z
      .string()
      .transform(digitsOnly)
      .pipe(z.string().regex(/^\d{4,17}$/, { error: 'payments.invalidAccount' }))
      .nullable()
      .default(null),
    accountType: z.enum(ACCOUNT_TYPES, { error: 'validation.chooseOption' }).nullable().default(null),
    address: mailingAddressSchema.nullable().default(null),
  })
  .superRefine((v, ctx) => {
    if (v.method === 'ach') {
      if (!v.routingNumber) ctx.addIssue({ code: 'custom', path: ['routingNumber'], message: 'validation.required' });
      if (!v.accountNumber) ctx.addIssue({ code: 'custom', path: ['accountNumber'], message: 'validation.required' });
      if (!v.accountType) ctx.addIssue({ code: 'custom', path: ['accountType'], message: 'validation.chooseOption' });
    } else if (!v.address) ctx.addIssue({ code: 'custom', path: ['address'], message: 'validation.required' });
  });
export type PayeeDetails = z.infer<typeof payeeDetailsSchema>;
