/**
 * The part of a party's page around their role's form: the attestation they
 * sign and, for a paid role, their payment details. Checked in the browser
 * with the contract's own schemas (core/api/parties.ts, core/payments.ts),
 * so the messages are the server's; the account number is typed twice.
 */
import dayjs from 'dayjs';
import type { FieldErrors, Resolver } from 'react-hook-form';
import { submitPartyBody } from '../../../../core/api/parties.js';
import '../../../../core/dates.js';
import { type AccountType, type PaymentMethod, payeeDetailsSchema } from '../../../../core/payments.js';

export interface SideValues {
  attestationName: string;
  attestationDate: string;
  method: PaymentMethod | '';
  payeeName: string;
  taxId: string;
  routingNumber: string;
  accountNumber: string;
  accountConfirm: string;
  accountType: AccountType | '';
  line1: string;
  line2: string;
  city: string;
  state: string;
  zip: string;
}
export type SideField = keyof SideValues;

/** Today as YYYY-MM-DD where the reader is. */
export const todayIn = (timeZone: string) => dayjs().tz(timeZone).format('YYYY-MM-DD');

export function emptySide(name: string, timeZone: string): SideValues {
  return {
    attestationName: '',
    attestationDate: todayIn(timeZone),
    method: '',
    payeeName: name,
    taxId: '',
    routingNumber: '',
    accountNumber: '',
    accountConfirm: '',
    accountType: '',
    line1: '',
    line2: '',
    city: '',
    state: '',
    zip: '',
  };
}

const blankToNull = (s: string) => (s.trim() === '' ? null : s);
const digits = (s: string) => s.replace(/[\s-]/g, '');

/** The payment details as the API takes them (payeeDetailsSchema's input). */
export function paymentOf(v: SideValues, email: string | null) {
  const ach = v.method === 'ach';
  const check = v.method === 'check';
  return {
    name: v.payeeName,
    email: email || null,
    taxId: blankToNull(v.taxId),
    method: (v.method || undefined) as PaymentMethod,
    routingNumber: ach ? blankToNull(v.routingNumber) : null,
    accountNumber: ach ? blankToNull(v.accountNumber) : null,
    accountType: ach ? (v.accountType || null) : null,
    address: check ? { line1: v.line1, line2: blankToNull(v.line2), city: v.city, state: v.state, zip: v.zip } : null,
  };
}

/** Where a problem the schemas (or the server) name lands on this form. */
export function sideFieldOf(path: readonly PropertyKey[]): SideField | null {
  const [head, second] = path.map(String);
  if (head === 'attestation') return second === 'date' ? 'attestationDate' : 'attestationName';
  const key = head === 'payment' ? second : head;
  const rest = head === 'payment' ? path.slice(2).map(String) : path.slice(1).map(String);
  switch (key) {
    case 'name':
      return 'payeeName';
    case 'method':
    case 'taxId':
    case 'routingNumber':
    case 'accountNumber':
    case 'accountType':
      return key;
    case 'address': {
      const part = rest[0];
      return part === 'line2' || part === 'city' || part === 'state' || part === 'zip' ? part : 'line1';
    }
    default:
      return null;
  }
}

/** The resolver: the attestation always, the payment details when the role is paid (keys of i18n as messages). */
export function sideResolver(paymentRequired: boolean, email: () => string | null): Resolver<SideValues> {
  return async (values) => {
    const errors: FieldErrors<SideValues> = {};
    const put = (field: SideField | null, message: string) => {
      if (field && !errors[field]) errors[field] = { type: 'validate', message };
    };
    const attestation = submitPartyBody.shape.attestation.safeParse({ name: values.attestationName, date: values.attestationDate });
    if (!attestation.success) for (const issue of attestation.error.issues) put(sideFieldOf(['attestation', ...issue.path]), issue.message);
    if (paymentRequired) {
      const payment = payeeDetailsSchema.safeParse(paymentOf(values, email()));
      if (!payment.success) for (const issue of payment.error.issues) put(sideFieldOf(issue.path), issue.message);
      if (values.method === 'ach' && digits(values.accountNumber) !== digits(values.accountConfirm)) put('accountConfirm', 'parties.page.accountMismatch');
    }
    return Object.keys(errors).length ? { values: {}, errors } : { values, errors: {} };
  };
}
