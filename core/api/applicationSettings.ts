/**
 * The application settings API's contract (issue 20, `/configuracion`): one
 * project's branding and behaviour as its tenant's administrators edit them
 * (GET/PUT /api/settings/application), its logo and favicon uploads, and the
 * tenant's plan state. What any visitor reads of a project is
 * core/project-schema.ts.
 */
import { z } from 'zod';
import { isTimeZone } from '../auth.js';

/** Bounds of the idle sign-out (1 minute to 24 hours) and of the autosave interval (10 s to 1 hour), in seconds. */
export const IDLE_BOUNDS = { min: 60, max: 86_400 } as const;
export const AUTOSAVE_BOUNDS = { min: 10, max: 3_600 } as const;
export const TITLE_MAX = 120;
export const DESCRIPTION_MAX = 500;
export const PHONE_MAX = 40;

/** Upload caps: the logo 1 MB, the favicon 256 KB. */
export const BRANDING_LIMITS = { logo: 1024 * 1024, favicon: 256 * 1024 } as const;
export const BRANDING_KINDS = ['logo', 'favicon'] as const;
export type BrandingKind = (typeof BRANDING_KINDS)[number];
/** Image types each upload takes, told by content (never SVG: it can carry script). */
export const BRANDING_TYPES: Record<BrandingKind, readonly string[]> = {
  logo: ['PNG', 'JPEG', 'WebP', 'GIF'],
  favicon: ['PNG', 'JPEG', 'WebP', 'GIF', 'ICO'],
};

/** The share of a plan's limit past which the page warns. */
export const PLAN_WARNING_SHARE = 0.9;

const color = z.string().regex(/^#[0-9A-Fa-f]{6}$/, 'appSettings.errors.color');
const bounded = (b: { min: number; max: number }) =>
  z
    .number({ error: 'validation.number' })
    .int('validation.number')
    .refine((n) => n >= b.min, { message: 'validation.min', params: { min: b.min } })
    .refine((n) => n <= b.max, { message: 'validation.max', params: { max: b.max } });

/** A wall-clock moment without a zone, as the deadline is stored (US Eastern): 2026-12-01T17:00 or with seconds. */
function isWallClock(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(text);
  if (!m) return false;
  const [y, mo, d, h, mi, s] = m.slice(1).map((x) => Number(x ?? 0));
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d && h < 24 && mi < 60 && s < 60 && y >= 2000 && y <= 2100;
}

export const applicationSettingsBody = z.strictObject({
  title: z.string().trim().min(1, 'validation.required').max(TITLE_MAX, 'validation.tooLong'),
  description: z.string().trim().max(DESCRIPTION_MAX, 'validation.tooLong'),
  colors: z.strictObject({ primary: color, secondary: color, accent: color, text: color }),
  supportPhone: z.string().trim().max(PHONE_MAX, 'validation.tooLong').regex(/^[0-9+()\-.\s]*$/, 'validation.invalidPhone'),
  language: z.enum(['en', 'es'], { error: 'validation.chooseOption' }),
  timeZone: z.string().max(64).refine(isTimeZone, { error: 'validation.chooseOption' }),
  idleTimeoutSeconds: bounded(IDLE_BOUNDS),
  autosaveSeconds: bounded(AUTOSAVE_BOUNDS),
  /** US Eastern wall clock after which new applications close (unless allowed), or none. */
  newApplicationsDeadline: z.string().refine(isWallClock, { error: 'validation.invalidDate' }).nullable(),
  allowNewApplications: z.boolean(),
  maintenance: z.boolean(),
  blockIndexing: z.boolean(),
});
export type ApplicationSettingsBody = z.infer<typeof applicationSettingsBody>;

/** `?project=<uid>`: another project of the caller's tenant (the default project without it). */
export const applicationSettingsQuery = z.strictObject({
  project: z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'validation.invalidValue').optional(),
});

export const applicationSettingsSchema = z.object({
  /** The project's uid. */
  project: z.string(),
  /** The tenant's projects, to choose which one to edit (the default first). */
  projects: z.array(z.object({ uid: z.string(), title: z.string(), isDefault: z.boolean() })),
  title: z.string(),
  description: z.string(),
  colors: z.object({ primary: z.string(), secondary: z.string(), accent: z.string(), text: z.string() }),
  logo: z.string().nullable(),
  favicon: z.string().nullable(),
  supportPhone: z.string(),
  language: z.enum(['en', 'es']),
  timeZone: z.string(),
  idleTimeoutSeconds: z.number(),
  autosaveSeconds: z.number(),
  newApplicationsDeadline: z.string().nullable(),
  allowNewApplications: z.boolean(),
  maintenance: z.boolean(),
  blockIndexing: z.boolean(),
});
export type ApplicationSettingsView = z.infer<typeof applicationSettingsSchema>;

export const brandingParams = z.strictObject({ kind: z.enum(BRANDING_KINDS) });

/**
 * GET /api/settings/plan: the contracted plan, accounts used and left, and the
 * disk used by files and by the database (an estimate refreshed at most
 * every few minutes: `databaseMeasuredAt`) against the quota, with which
 * limits are past 90 %.
 */
export const planStateSchema = z.object({
  plan: z.number(),
  accountLimit: z.number(),
  accountsUsed: z.number(),
  accountsAvailable: z.number(),
  diskQuotaMb: z.number(),
  filesMb: z.number(),
  databaseMb: z.number(),
  databaseMeasuredAt: z.date(),
  warnings: z.array(z.enum(['accounts', 'disk'])),
});
export type PlanState = z.infer<typeof planStateSchema>;
