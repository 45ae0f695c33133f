/**
 * The plans an agency may contract, and their limits: the standard plan of
 * `/registro-entidad` and the premium plan of `/registro-entidad-premium`.
 * `entities.plan` holds the plan's number; a platform operator may give an
 * agency other limits than its plan's (`/crear-entidad/{id}`).
 */
export const AGENCY_PLANS = {
  standard: { plan: 1, accountLimit: 50, diskQuotaMb: 1024 },
  premium: { plan: 2, accountLimit: 500, diskQuotaMb: 20_480 },
} as const;

export type AgencyPlanName = keyof typeof AGENCY_PLANS;
export const AGENCY_PLAN_NAMES = Object.keys(AGENCY_PLANS) as AgencyPlanName[];

/** The plan name of a stored plan number (an unknown number reads as standard). */
export function planName(plan: number): AgencyPlanName {
  return AGENCY_PLAN_NAMES.find((name) => AGENCY_PLANS[name].plan === plan) ?? 'standard';
}

/** A registration link is valid this long. */
export const REGISTRATION_HOURS = 48;

/** The most an operator may set (a guard against typing slips, not a business rule). */
export const MAX_ACCOUNT_LIMIT = 1_000_000;
export const MAX_DISK_QUOTA_MB = 10_000_000;
