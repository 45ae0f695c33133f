/**
 * The print templates API's contract (`/configuracion/plantillas`, target
 * menu_configuracion; printing a case: wf_casos print), shared by the
 * server (its routes validate and serialise with these) and the browser.
 *
 * A template is a fillable PDF (`acroform`: the uploaded PDF and a mapping
 * of its fields to sources) or a letter (`letter`: HTML in English and
 * Spanish with the email templates' `{{placeholders}}`), for one protocol of
 * the tenant or, without one, for all of them. A source is a case field
 * (`case.number` ...) or a field of the protocol's form (`form.<name>`).
 */
import { z } from 'zod';
import { listQuery, listResponse } from './list.js';
import { BODY_HTML_MAX } from './templates.js';

export const PRINT_KINDS = ['acroform', 'letter'] as const;
export type PrintKind = (typeof PRINT_KINDS)[number];

/** The case's own fields a mapping may name; labels `printing.sources.<name after "case.">`. */
export const CASE_SOURCES = ['case.number', 'case.applicantName', 'case.applicantDocument', 'case.submittedDate', 'case.state', 'case.programName', 'case.today'] as const;
export type CaseSource = (typeof CASE_SOURCES)[number];

/** The built-in templates every tenant starts with. */
export const BUILTIN_TEMPLATES = ['complete_application', 'notification_letter'] as const;

/** Largest PDF accepted (bytes). */
export const PDF_MAX_BYTES = 5 * 1024 * 1024;
export const PDF_MAX_MB = 5;
/** Most fields a mapping holds. */
export const MAPPING_MAX = 300;

export const PRINT_TEMPLATE_ACTIONS = ['edit', 'delete'] as const;
export type PrintTemplateActionName = (typeof PRINT_TEMPLATE_ACTIONS)[number];

export const PDF_FIELD_TYPES = ['text', 'checkbox', 'dropdown', 'optionList', 'radio', 'button', 'signature'] as const;
export const pdfFieldSchema = z.object({ name: z.string(), type: z.enum(PDF_FIELD_TYPES), options: z.array(z.string()) });
export type PdfField = z.infer<typeof pdfFieldSchema>;

const name = z.string({ error: 'validation.required' }).trim().min(1, { error: 'validation.required' }).max(120, { error: 'validation.tooLong' });
const protocolId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER).nullable();
const SOURCE = /^(case\.[A-Za-z]{1,40}|form\.[A-Za-z_][A-Za-z0-9_]{0,62})$/;
const bodyHtml = z
  .string()
  .refine((s) => new TextEncoder().encode(s).length <= BODY_HTML_MAX, { error: 'templates.errors.bodyTooLarge' });

export const printTemplateCreateBody = z.strictObject({
  kind: z.enum(PRINT_KINDS, { error: 'validation.chooseOption' }),
  name,
  nameEn: name,
  protocolId: protocolId.default(null),
});
export type PrintTemplateCreateBody = z.infer<typeof printTemplateCreateBody>;

/** What the editor saves: the names, the protocol, and the mapping (acroform) or the bodies (letter). */
export const printTemplateUpdateBody = z.strictObject({
  name,
  nameEn: name,
  protocolId,
  mapping: z
    .record(z.string().min(1).max(200), z.string().regex(SOURCE, { error: 'printing.errors.badSource' }))
    .refine((m) => Object.keys(m).length <= MAPPING_MAX, { error: 'validation.tooLong' })
    .default({}),
  bodyHtmlEn: bodyHtml.default(''),
  bodyHtmlEs: bodyHtml.default(''),
  version: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});
export type PrintTemplateUpdateBody = z.infer<typeof printTemplateUpdateBody>;

export const printTemplateSummarySchema = z.object({
  id: z.number(),
  kind: z.enum(PRINT_KINDS),
  name: z.string(),
  nameEn: z.string(),
  protocolId: z.number().nullable(),
  protocolName: z.string().nullable(),
  builtin: z.string().nullable(),
  hasPdf: z.boolean(),
  updatedAt: z.date(),
  actions: z.array(z.enum(PRINT_TEMPLATE_ACTIONS)),
});

export const printTemplateSchema = printTemplateSummarySchema.extend({
  pdfName: z.string().nullable(),
  pdfFields: z.array(pdfFieldSchema),
  mapping: z.record(z.string(), z.string()),
  bodyHtmlEn: z.string(),
  bodyHtmlEs: z.string(),
  version: z.number(),
  createdAt: z.date(),
});

export const printTemplateListQuery = listQuery(['name', 'kind', 'updated_at']).extend({
  protocolId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
  kind: z.enum(PRINT_KINDS).optional(),
});
export const printTemplateListSchema = listResponse(printTemplateSummarySchema);

/** What a mapping may name for a protocol (or, without one, the case fields only). */
export const printSourcesQuery = z.strictObject({ protocolId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional() });
export const printSourceSchema = z.object({ source: z.string(), label: z.string(), labelEn: z.string(), group: z.enum(['case', 'form']) });
export const printSourcesSchema = z.object({ items: z.array(printSourceSchema) });

/** The print menu of a case: the templates of its protocol (and those for every protocol). */
export const casePrintOptionSchema = z.object({ id: z.number(), kind: z.enum(PRINT_KINDS), name: z.string(), nameEn: z.string() });
export const casePrintOptionsSchema = z.object({ items: z.array(casePrintOptionSchema) });

export const printCaseParams = z.strictObject({
  id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  templateId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});

/** Cases of the tenant to preview a template with. */
export const printCaseOptionsQuery = z.strictObject({
  search: z.string().trim().max(100).optional(),
  protocolId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
});
export const printCaseOptionSchema = z.object({ id: z.number(), caseNumber: z.string().nullable(), applicantName: z.string() });
