/**
 * The agencies API's contract: an agency registering itself (public, with a
 * captcha and an emailed link) and the platform operator's list and editor.
 * Request schemas validate as the browser's forms type (messages are i18n
 * keys); responses are what leaves the server.
 */
import { z } from 'zod';
import { emailSchema, passwordSchema } from '../auth.js';
import { AGENCY_PLAN_NAMES, MAX_ACCOUNT_LIMIT, MAX_DISK_QUOTA_MB } from '../agencies.js';
import { listQuery, listResponse } from './list.js';

const text = (max: number) => z.string({ error: 'validation.required' }).trim().min(1, { error: 'validation.required' }).max(max, { error: 'validation.tooLong' });

/** An agency's document number (tax id): digits, letters and dashes. */
export const agencyDocnumberSchema = text(40).regex(/^[A-Za-z0-9][A-Za-z0-9-]*$/, { error: 'agencies.errors.docnumberFormat' });
export const agencyNameSchema = text(120).regex(/[\p{L}\p{N}]/u, { error: 'agencies.errors.nameFormat' });
export const planSchema = z.enum(AGENCY_PLAN_NAMES as [string, ...string[]], { error: 'validation.chooseOption' });

export const registrationBody = z
  .object({
    docnumber: agencyDocnumberSchema,
    name: agencyNameSchema,
    adminName: text(120),
    email: emailSchema,
    password: passwordSchema,
    passwordConfirm: z.string({ error: 'validation.required' }),
    language: z.enum(['en', 'es'], { error: 'validation.chooseOption' }),
    plan: planSchema,
    captcha: z.string({ error: 'auth.captchaRequired' }).min(1, { error: 'auth.captchaRequired' }).max(20_000),
  })
  .refine((v) => v.password === v.passwordConfirm, { path: ['passwordConfirm'], error: 'auth.passwordsDoNotMatch' });

export const confirmBody = z.object({
  token: z.string({ error: 'agencies.errors.linkInvalid' }).regex(/^[A-Za-z0-9_-]{20,200}$/, { error: 'agencies.errors.linkInvalid' }),
});

/** What a confirmed registration answers: the new tenant (the administrator is signed in by the cookie). */
export const confirmedSchema = z.object({ entity: z.object({ docnumber: z.string(), name: z.string() }), project: z.string() });

export const AGENCY_STATES = ['active', 'inactive'] as const;

export const agencyListQuery = listQuery(['name', 'docnumber', 'created_at', 'plan']).extend({
  state: z.enum(AGENCY_STATES).optional(),
  plan: planSchema.optional(),
});

export const agencySchema = z.object({
  id: z.number().int(),
  docnumber: z.string(),
  name: z.string(),
  slug: z.string(),
  active: z.boolean(),
  plan: z.string(),
  accountLimit: z.number().int(),
  diskQuotaMb: z.number().int(),
  accountsUsed: z.number().int(),
  createdAt: z.date(),
});
export const agencyListSchema = listResponse(agencySchema);

const limits = {
  accountLimit: z.coerce.number({ error: 'validation.required' }).int({ error: 'agencies.errors.wholeNumber' }).min(1, { error: 'agencies.errors.atLeastOne' }).max(MAX_ACCOUNT_LIMIT, { error: 'agencies.errors.tooLarge' }),
  diskQuotaMb: z.coerce.number({ error: 'validation.required' }).int({ error: 'agencies.errors.wholeNumber' }).min(1, { error: 'agencies.errors.atLeastOne' }).max(MAX_DISK_QUOTA_MB, { error: 'agencies.errors.tooLarge' }),
};

export const agencyUpdateBody = z.object({ name: agencyNameSchema, active: z.boolean(), plan: planSchema, ...limits });
/** An agency the operator creates, with its first administrator, who is emailed a link to choose a password. */
export const agencyCreateBody = agencyUpdateBody.extend({ docnumber: agencyDocnumberSchema, adminName: text(120), adminEmail: emailSchema });
/** What the operator's editor holds: an existing agency has no administrator fields and its docnumber is fixed. */
export const agencyEditorBody = agencyUpdateBody.extend({ docnumber: z.string(), adminName: z.string().optional(), adminEmail: z.string().optional() });
