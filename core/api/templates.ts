/**
 * The email templates API's contract, shared by the server (its routes
 * validate and serialise with these) and the browser (which takes its types
 * from them through `Wire`).
 *
 * A template serves one event and has a subject and an HTML body in English
 * and Spanish; the server stores the body sanitised (an allow-list) and the
 * plain-text part generated from it. One template per tenant and event is
 * the default, the one the notifications send. Placeholders are
 * `{{name}}`s of core/templates/render.ts's catalogue, nothing else.
 */
import { z } from 'zod';
import { listQuery, listResponse } from './list.js';

/** The events a template may serve (the notifications of issue 16). Others import this list. */
export const MAIL_EVENTS = [
  'application_submitted',
  'task_assigned',
  'task_due_soon',
  'task_overdue',
  'case_returned',
  'case_completed',
  'case_closed',
  'comment_visible',
  'mention',
  'digest',
  'tasks_imported',
  'import_done',
  'case_resubmitted',
  'correction_cancelled',
  'webhook_disabled',
  // Issue 23: a case's party is invited by link, reminded, and the staff told when they submit.
  'party_invited',
  'party_reminder',
  'party_submitted',
] as const;
export type MailEvent = (typeof MAIL_EVENTS)[number];

export const TEMPLATE_LANGUAGES = ['en', 'es'] as const;
export type TemplateLanguage = (typeof TEMPLATE_LANGUAGES)[number];

/** Longest subject (characters) and HTML body (bytes of UTF-8) accepted. */
export const SUBJECT_MAX = 200;
export const BODY_HTML_MAX = 100 * 1024;

/** What an actor may do on one template (templates/policy.ts decides; the web shows buttons from it). */
export const TEMPLATE_ACTIONS = ['edit', 'delete', 'makeDefault'] as const;
export type TemplateActionName = (typeof TEMPLATE_ACTIONS)[number];

const subject = z
  .string({ error: 'validation.required' })
  .trim()
  .min(1, { error: 'validation.required' })
  .max(SUBJECT_MAX, { error: 'templates.errors.subjectTooLong' })
  // A line break in a subject would start a new mail header (header injection).
  .refine((s) => !/[\r\n]/.test(s), { error: 'templates.errors.subjectLineBreak' });

const bodyHtml = z
  .string({ error: 'validation.required' })
  .refine((s) => new TextEncoder().encode(s).length <= BODY_HTML_MAX, { error: 'templates.errors.bodyTooLarge' });

/** What the editor saves. The server sanitises the HTML and checks the placeholders. */
export const templateBody = z.strictObject({
  name: z.string({ error: 'validation.required' }).trim().min(1, { error: 'validation.required' }).max(120, { error: 'validation.tooLong' }),
  event: z.enum(MAIL_EVENTS, { error: 'validation.chooseOption' }),
  subjectEn: subject,
  subjectEs: subject,
  bodyHtmlEn: bodyHtml,
  bodyHtmlEs: bodyHtml,
  isDefault: z.boolean().default(false),
  /** A print template of the tenant whose PDF, made for the email's case, goes with it as an attachment (issue 20). */
  printTemplateId: z.number({ error: 'validation.chooseOption' }).int().positive().max(Number.MAX_SAFE_INTEGER).nullable().default(null),
});
export type TemplateBody = z.infer<typeof templateBody>;

/** A change also carries the version it was made on (a stale one is 409 CONFLICT). */
export const templateUpdateBody = templateBody.extend({ version: z.number().int().positive() });
export type TemplateUpdateBody = z.infer<typeof templateUpdateBody>;

export const templateSummarySchema = z.object({
  id: z.number(),
  name: z.string(),
  event: z.enum(MAIL_EVENTS),
  subjectEn: z.string(),
  subjectEs: z.string(),
  isDefault: z.boolean(),
  updatedAt: z.date(),
  actions: z.array(z.enum(TEMPLATE_ACTIONS)),
});

export const templateSchema = templateSummarySchema.extend({
  printTemplateId: z.number().nullable(),
  bodyHtmlEn: z.string(),
  bodyHtmlEs: z.string(),
  bodyTextEn: z.string(),
  bodyTextEs: z.string(),
  version: z.number(),
  createdAt: z.date(),
});

export const templateListQuery = listQuery(['name', 'event', 'updated_at']).extend({
  event: z.enum(MAIL_EVENTS).optional(),
});
export const templateListSchema = listResponse(templateSummarySchema);

/**
 * Preview: the template as the editor holds it (not yet saved), filled with
 * a real case's data of the tenant, in both languages.
 */
export const templatePreviewBody = templateBody.pick({ subjectEn: true, subjectEs: true, bodyHtmlEn: true, bodyHtmlEs: true }).extend({
  caseId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).nullable().default(null),
});
export type TemplatePreviewBody = z.infer<typeof templatePreviewBody>;

export const renderedMailSchema = z.object({ subject: z.string(), html: z.string(), text: z.string() });
export type RenderedMail = z.infer<typeof renderedMailSchema>;
export const templatePreviewSchema = z.object({ en: renderedMailSchema, es: renderedMailSchema });

/** Send a test: the editor's template filled (with a case's data when one is chosen), in one language, to the signed-in user. */
export const templateTestBody = templatePreviewBody.extend({ language: z.enum(TEMPLATE_LANGUAGES) });
export const templateTestSchema = z.object({ to: z.string() });

/** A case of the tenant to preview with. */
export const templateCaseOptionSchema = z.object({ id: z.number(), caseNumber: z.string().nullable(), applicantName: z.string() });
export const templateCaseOptionsQuery = z.strictObject({ search: z.string().trim().max(100).optional() });
