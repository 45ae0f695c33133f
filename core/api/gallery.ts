/**
 * The gallery's contract and the project bundle format, shared by the server
 * (its routes validate and serialise with these) and the browser.
 *
 * A bundle (`format: "casebook.project/1"`) is one application as a file:
 * the project's settings, its forms (current definitions), the masters its
 * forms use that are not a tenant's built-in ones (with their items), the
 * teams its protocols name, the email templates its tasks send and its
 * protocols (published definitions with their public page, both languages).
 * Nothing in it is an id of a tenant: forms, masters, teams and templates
 * are named by code (templates by `key`), users by email. The gallery's
 * applications are bundles kept in `server/modules/gallery/apps/`, and a
 * project's export is one.
 */
import { z } from 'zod';
import { PARTY_ROLES } from '../parties.js';
import { caseTypeSchema, publicPageSchema } from './protocols.js';
import { PDF_MAX_BYTES, PRINT_KINDS } from './printing.js';
import { MAIL_EVENTS } from './templates.js';

export const BUNDLE_FORMAT = 'casebook.project';
export const BUNDLE_VERSION = 1;
/** What this version writes and reads; `casebook.project/2` and later are refused as newer. */
export const BUNDLE_FORMAT_ID = `${BUNDLE_FORMAT}/${BUNDLE_VERSION}` as const;
/** The cap of an imported file (the route's body limit says the same): room for a few print templates' PDFs in base64. */
export const BUNDLE_MAX_BYTES = 16 * 1024 * 1024;

const code = z.string().regex(/^[a-z][a-z0-9_-]{0,62}$/, 'masters.badCode');
const text = (max: number) => z.string().max(max, { error: 'validation.tooLong' });
const bilingual = (max: number) => z.object({ en: text(max), es: text(max) });
const colour = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'validation.invalidValue');

export const bundleProjectSchema = z.object({
  uid: z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'gallery.badUid'),
  title: text(200).min(1),
  description: text(2000).default(''),
  colors: z.object({ primary: colour, secondary: colour, accent: colour, text: colour }),
  supportPhone: text(60).default(''),
  timeZone: text(64).default('America/Bogota'),
  language: z.enum(['en', 'es']).default('en'),
  idleTimeoutSeconds: z.number().int().positive().max(86_400).default(3000),
  autosaveSeconds: z.number().int().positive().max(86_400).default(300),
  newApplicationsDeadline: z.string().max(40).nullable().default(null),
  allowNewApplications: z.boolean().default(true),
});

export const bundleFormSchema = z.object({ code, definition: z.unknown() });

export const bundleMasterSchema = z.object({
  code,
  name: text(200).min(1),
  description: text(2000).default(''),
  public: z.boolean().default(false),
  /** The parent master's code: one of the bundle's, or a built-in one. */
  parent: code.nullable().default(null),
  items: z
    .array(
      z.object({
        code: text(60).min(1),
        name: text(500).min(1),
        nameEn: text(500).default(''),
        /** The parent item's code, in the parent master. */
        parent: text(60).nullable().default(null),
        active: z.boolean().default(true),
        extra: z.record(z.string(), z.unknown()).default({}),
      }),
    )
    .max(5000),
});

/** A team by code (teams are matched by name in the tenant: an existing team of that name is reused). */
export const bundleTeamSchema = z.object({
  code,
  name: text(200).min(1),
  description: text(2000).default(''),
  assignment: z.enum(['round_robin', 'least_loaded']).default('least_loaded'),
});

export const bundleMailTemplateSchema = z.object({
  key: code,
  name: text(120).min(1),
  event: z.enum(MAIL_EVENTS),
  subjectEn: text(200),
  subjectEs: text(200),
  htmlEn: text(100 * 1024),
  htmlEs: text(100 * 1024),
});

/** Who does a task, without ids: a team or template by code, a user by email. */
export const bundleResponsibleSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('team'), team: code }),
  z.object({ kind: z.literal('user'), email: z.string().max(320) }),
  z.object({ kind: z.literal('owner') }),
  z.object({ kind: z.literal('task'), task: code }),
]);

/** A task of a bundle's protocol: core/workflow/protocol.ts's task with `form` (a code) for `formId`, and templates by key. */
export const bundleTaskSchema = z.looseObject({
  code,
  form: code.nullable().default(null),
  responsible: bundleResponsibleSchema,
  mailTemplates: z.record(z.string(), code).optional(),
});

/** A party role of a bundle's protocol (issue 23): core/workflow/protocol.ts's with `form` (a code) for `formId`. */
export const bundlePartySchema = z.looseObject({
  role: z.enum(PARTY_ROLES),
  form: code.nullable().default(null),
});

export const bundleProtocolSchema = z.object({
  code,
  name: text(200).min(1),
  nameEn: text(200).default(''),
  description: text(2000).default(''),
  caseType: caseTypeSchema,
  public: z.boolean().default(false),
  mainForm: code,
  publicPage: publicPageSchema.default({ titleEn: '', titleEs: '', descriptionEn: '', descriptionEs: '', eligibilityEn: '', eligibilityEs: '' }),
  definition: z.looseObject({ tasks: z.array(bundleTaskSchema).max(200), parties: z.array(bundlePartySchema).max(PARTY_ROLES.length).default([]) }),
});

/**
 * A print template of the bundle (issue 20; not the built-in ones, which
 * every tenant has): for one of the bundle's protocols (by code) or for
 * every protocol (null); an AcroForm's PDF in base64 with its mapping, or a
 * letter's bodies.
 */
export const bundlePrintTemplateSchema = z.object({
  key: code,
  kind: z.enum(PRINT_KINDS),
  name: text(120).min(1),
  nameEn: text(120).default(''),
  protocol: code.nullable().default(null),
  mapping: z.record(z.string().max(200), z.string().max(200)).default({}),
  htmlEn: text(100 * 1024).default(''),
  htmlEs: text(100 * 1024).default(''),
  pdf: z.base64().max(Math.ceil(PDF_MAX_BYTES / 3) * 4).nullable().default(null),
  pdfName: text(200).nullable().default(null),
});

/**
 * The items of a built-in master the bundle's forms choose from (the places
 * of `departamentos` and `municipios`): installed only into a tenant whose
 * list is empty, so a new agency's forms have something to choose, and an
 * agency's own list is never touched.
 */
export const bundleBuiltInItemsSchema = z.object({
  master: code,
  items: z
    .array(z.object({ code: z.string().min(1).max(60), name: text(200).min(1), nameEn: text(200).default(''), parent: text(60).nullable().default(null) }))
    .max(5000),
});

/** What a gallery card says about an application (absent from a plain export). */
export const bundleAppSchema = z.object({ key: code, title: bilingual(200), description: bilingual(2000) });

export const bundleSchema = z.object({
  format: z.literal(BUNDLE_FORMAT_ID),
  exportedAt: z.string().max(40).optional(),
  app: bundleAppSchema.optional(),
  project: bundleProjectSchema,
  forms: z.array(bundleFormSchema).max(200),
  masters: z.array(bundleMasterSchema).max(100).default([]),
  teams: z.array(bundleTeamSchema).max(100).default([]),
  mailTemplates: z.array(bundleMailTemplateSchema).max(100).default([]),
  protocols: z.array(bundleProtocolSchema).max(50),
  printTemplates: z.array(bundlePrintTemplateSchema).max(50).default([]),
  builtInItems: z.array(bundleBuiltInItemsSchema).max(10).default([]),
});
export type Bundle = z.output<typeof bundleSchema>;
export type BundleInput = z.input<typeof bundleSchema>;

// ---------------------------------------------------------------- API

const counts = z.object({ forms: z.number(), masters: z.number(), protocols: z.number(), tasks: z.number(), teams: z.number(), mailTemplates: z.number() });

/** One application of GET /api/gallery. */
export const galleryAppSchema = z.object({
  key: z.string(),
  title: z.object({ en: z.string(), es: z.string() }),
  description: z.object({ en: z.string(), es: z.string() }),
  contains: counts,
  protocols: z.array(z.object({ code: z.string(), name: z.string(), nameEn: z.string() })),
});
export const galleryListSchema = z.object({ items: z.array(galleryAppSchema) });
export const galleryKeyParams = z.strictObject({ app: code });

/** The new project of an install: its uid and title (the bundle's when left out). */
export const installTargetSchema = z.strictObject({
  uid: z.string().trim().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'gallery.badUid'),
  title: z.string().trim().min(1, 'validation.required').max(200, 'validation.tooLong'),
});

export const PLAN_KINDS = ['form', 'master', 'protocol', 'team', 'mailTemplate', 'printTemplate'] as const;
/**
 * create: as named; rename: its code or name is taken, created under `as`; reuse: the tenant's own of that name is used;
 * fill: a built-in master of the tenant, empty, gets the bundle's `as` items; keep: it has items of its own, kept (the bundle's `as` are left out).
 */
export const PLAN_ACTIONS = ['create', 'rename', 'reuse', 'fill', 'keep'] as const;

/** What an install or import will do (the preview and the dry run answer this; the install answers it with the new project). */
export const installPlanSchema = z.object({
  project: z.object({ uid: z.string(), title: z.string(), uidTaken: z.boolean() }),
  items: z.array(z.object({ kind: z.enum(PLAN_KINDS), code: z.string(), name: z.string(), action: z.enum(PLAN_ACTIONS), as: z.string() })),
  /** Problems that stop the install (each path and message in the caller's language). */
  problems: z.array(z.object({ path: z.string(), message: z.string() })),
  ok: z.boolean(),
});

export const installedSchema = installPlanSchema.extend({
  projectId: z.number(),
  protocols: z.array(z.object({ id: z.number(), code: z.string(), name: z.string(), publicUrl: z.string() })),
});

export const projectUidParams = z.strictObject({ uid: z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'gallery.badUid') });

export const importBodySchema = z.strictObject({
  bundle: z.unknown(),
  /** The new project's uid and title; the file's when left out. */
  uid: z.string().trim().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'gallery.badUid').optional(),
  title: z.string().trim().min(1, 'validation.required').max(200, 'validation.tooLong').optional(),
  dryRun: z.boolean().default(true),
});
