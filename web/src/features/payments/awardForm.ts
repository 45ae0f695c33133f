/**
 * The award panel's form: what a person types (dollars as text, months as
 * YYYY-MM), turned into the accept's `award` (cents) with the contract's
 * schema, and the protocol's caps checked as the server checks them.
 */
import { type AwardInput, awardInputSchema } from '../../../../core/api/payments.js';
import type { PayeeKind } from '../../../../core/payments.js';
import type { Award, AwardCaps } from './api.js';
import { coveredMonths, moneyInput, parseMoney } from './format.js';

export interface AwardValues {
  arrearsMonths: string[];
  aheadMonths: string;
  monthlyRent: string;
  utilities: string;
  payeeKind: PayeeKind;
  propertyAddress: string;
  unit: string;
}
export type AwardField = keyof AwardValues;

export function awardDefaults(current: Award | null, defaultPayeeKind: PayeeKind): AwardValues {
  return {
    arrearsMonths: current?.arrearsMonths ?? [],
    aheadMonths: current ? String(current.aheadMonths) : '0',
    monthlyRent: moneyInput(current?.monthlyRent),
    utilities: current?.utilities ? moneyInput(current.utilities) : '',
    payeeKind: current?.payeeKind ?? defaultPayeeKind,
    propertyAddress: current?.propertyAddress ?? '',
    unit: current?.unit ?? '',
  };
}

/** The numbers the panel shows live; NaN or null where a field does not read as a number yet. */
export function awardFigures(v: AwardValues) {
  const rent = parseMoney(v.monthlyRent);
  const utilities = parseMoney(v.utilities, true);
  const ahead = v.aheadMonths.trim() === '' ? 0 : Number(v.aheadMonths);
  const months = v.arrearsMonths.length + (Number.isInteger(ahead) && ahead > 0 ? ahead : 0);
  const known = rent !== null && Number.isFinite(rent) && utilities !== null && Number.isFinite(utilities);
  return { rent, utilities, ahead, months, total: known ? (rent as number) * months + (utilities as number) : null };
}

export type CapName = keyof AwardCaps;
export interface CapProblem {
  cap: CapName;
  /** What the award asks (cents or months) and the most the protocol gives. */
  value: number;
  max: number;
  money: boolean;
}

/** The caps the values go over, in the order the server checks them. */
export function capProblems(v: AwardValues, caps: AwardCaps | null): CapProblem[] {
  if (!caps) return [];
  const f = awardFigures(v);
  const out: CapProblem[] = [];
  if (v.arrearsMonths.length > caps.maxArrearsMonths) out.push({ cap: 'maxArrearsMonths', value: v.arrearsMonths.length, max: caps.maxArrearsMonths, money: false });
  if (Number.isInteger(f.ahead) && f.ahead > caps.maxAheadMonths) out.push({ cap: 'maxAheadMonths', value: f.ahead, max: caps.maxAheadMonths, money: false });
  if (caps.maxMonthlyRent !== null && f.rent !== null && f.rent > caps.maxMonthlyRent) out.push({ cap: 'maxMonthlyRent', value: f.rent, max: caps.maxMonthlyRent, money: true });
  if (f.utilities !== null && f.utilities > caps.maxUtilities) out.push({ cap: 'maxUtilities', value: f.utilities, max: caps.maxUtilities, money: true });
  if (f.total !== null && f.total > caps.maxTotal) out.push({ cap: 'maxTotal', value: f.total, max: caps.maxTotal, money: true });
  return out;
}

/** The months the overlap check asks about: those the award would pay. */
export function awardMonths(v: AwardValues): string[] {
  const ahead = Number(v.aheadMonths);
  return coveredMonths(v.arrearsMonths, Number.isInteger(ahead) && ahead > 0 ? Math.min(ahead, 24) : 0);
}

/**
 * The values as the accept's `award`, or the i18n keys of what is wrong by
 * field (checked with the contract's schema, after reading the dollars).
 */
export function toAwardInput(v: AwardValues): { award: AwardInput } | { errors: Partial<Record<AwardField, string>> } {
  const errors: Partial<Record<AwardField, string>> = {};
  const rent = parseMoney(v.monthlyRent);
  const utilities = parseMoney(v.utilities, true);
  const ahead = v.aheadMonths.trim() === '' ? 0 : Number(v.aheadMonths);
  if (rent === null) errors.monthlyRent = 'validation.required';
  else if (Number.isNaN(rent)) errors.monthlyRent = 'payments.invalidAmount';
  if (utilities === null || Number.isNaN(utilities)) errors.utilities = 'payments.invalidAmount';
  if (!Number.isInteger(ahead) || ahead < 0) errors.aheadMonths = 'payments.invalidAmount';
  const parsed = awardInputSchema.safeParse({
    arrearsMonths: v.arrearsMonths,
    aheadMonths: Number.isInteger(ahead) ? ahead : 0,
    monthlyRent: rent !== null && Number.isFinite(rent) ? rent : 0,
    utilities: utilities !== null && Number.isFinite(utilities) ? utilities : 0,
    payeeKind: v.payeeKind,
    propertyAddress: v.propertyAddress,
    unit: v.unit.trim() === '' ? null : v.unit,
  });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as AwardField;
      errors[field] ??= issue.message;
    }
  }
  if (Object.keys(errors).length > 0 || !parsed.success) return { errors };
  return { award: parsed.data };
}
