/**
 * The protocols API's contract, shared by the server (its routes validate
 * and serialise with these) and the browser (which takes its types from them
 * through `Wire`). Request-only schemas that the browser never builds live in
 * `server/modules/protocols/schema.ts`.
 */
import { z } from 'zod';
import { listQuery, listResponse } from './list.js';

export const CASE_TYPES = ['RADICACION_INTERNA', 'RADICACION_PUBLICA', 'RADICACION_AUTOMATICA'] as const;
export const caseTypeSchema = z.enum(CASE_TYPES, { error: 'validation.chooseOption' });
const code = z.string().regex(/^[a-z][a-z0-9_-]{0,62}$/, 'masters.badCode');

/** The caps of a protocol's public page texts (migration 0022 checks the same). */
export const PUBLIC_TITLE_MAX = 200;
export const PUBLIC_TEXT_MAX = 4000;
const publicText = (max: number) => z.string().trim().max(max, { error: 'validation.tooLong' }).default('');

/**
 * A protocol's public page (`/publico/{entity}/{code}`) in both languages:
 * its title (the protocol's name when empty), what the programme is and who
 * may apply. Plain text; line breaks are kept.
 */
export const publicPageSchema = z.object({
  titleEn: publicText(PUBLIC_TITLE_MAX),
  titleEs: publicText(PUBLIC_TITLE_MAX),
  descriptionEn: publicText(PUBLIC_TEXT_MAX),
  descriptionEs: publicText(PUBLIC_TEXT_MAX),
  eligibilityEn: publicText(PUBLIC_TEXT_MAX),
  eligibilityEs: publicText(PUBLIC_TEXT_MAX),
});
export type PublicPage = z.output<typeof publicPageSchema>;

/** One protocol of the list (GET /api/protocols). */
export const protocolSummarySchema = z.object({
  id: z.number(),
  code: z.string(),
  /** The Spanish name (as a form field's `label`), shown when the English one is empty. */
  name: z.string(),
  /** The English name; '' when there is none. */
  nameEn: z.string(),
  description: z.string(),
  caseType: caseTypeSchema,
  public: z.boolean(),
  mainFormId: z.number(),
  mainFormName: z.string(),
  publishedVersion: z.number().nullable(),
  tasks: z.number(),
  cases: z.number(),
  publicUrl: z.string(),
});

export const protocolListQuery = listQuery(['name', 'code']);
export const protocolListSchema = listResponse(protocolSummarySchema);

/** One protocol with its draft and published versions (GET /api/protocols/:id, and what every write answers). */
export const protocolDetailSchema = protocolSummarySchema.extend({
  publicPage: z.object({
    titleEn: z.string(),
    titleEs: z.string(),
    descriptionEn: z.string(),
    descriptionEs: z.string(),
    eligibilityEn: z.string(),
    eligibilityEs: z.string(),
  }),
  definition: z.unknown(),
  versions: z.array(z.object({ version: z.number(), publishedAt: z.date(), publishedBy: z.string().nullable() })),
  changedSincePublished: z.boolean(),
});

/** The body of POST and PUT /api/protocols: the draft is checked by the server (core/workflow/protocol.ts). */
export const protocolBodySchema = z.object({
  code,
  name: z.string({ error: 'validation.required' }).trim().min(1, { error: 'validation.required' }).max(200, { error: 'validation.tooLong' }),
  /** Left out: a saved protocol's English name stays as it was. */
  nameEn: z.string().trim().max(200, { error: 'validation.tooLong' }).optional(),
  description: z.string().trim().max(2000, { error: 'validation.tooLong' }).default(''),
  caseType: caseTypeSchema,
  public: z.boolean().default(false),
  mainFormId: z.number({ error: 'validation.chooseOption' }).int().positive(),
  /** Left out: a new protocol's public page is empty, a saved one's stays as it was. */
  publicPage: publicPageSchema.optional(),
  definition: z.unknown(),
});

/** The export format: the protocol with its forms, and responsibles by team name or user email (ids differ between tenants). */
export const protocolFileSchema = z.object({
  format: z.literal('casebook-protocol'),
  formatVersion: z.literal(1),
  protocol: z.object({
    code,
    name: z.string().min(1).max(200),
    nameEn: z.string().max(200).optional(),
    description: z.string().max(2000),
    caseType: caseTypeSchema,
    public: z.boolean(),
    mainForm: z.string(),
    // Files exported before the public page existed have none.
    publicPage: publicPageSchema.optional(),
    definition: z.unknown(),
  }),
  forms: z.array(z.object({ code, definition: z.unknown() })).max(100),
  teams: z.record(z.string(), z.string()).default({}),
  users: z.record(z.string(), z.string()).default({}),
});

/** The groups of GET /api/protocols/:id/tasks. */
export const PROTOCOL_TASK_GROUPS = ['REJECTED', 'PENDING', 'BLOCKED', 'UNASSIGNED', 'ACCEPTED'] as const;

export const protocolTasksQuery = z.strictObject({
  state: z.enum(PROTOCOL_TASK_GROUPS).default('PENDING'),
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

/** A protocol's tasks in one group, with the count of every group. */
export const protocolTasksSchema = z.object({
  counts: z.record(z.string(), z.number()),
  items: z.array(
    z.object({
      id: z.number(),
      code: z.string(),
      name: z.string(),
      caseId: z.number(),
      caseNumber: z.string().nullable(),
      responsibleName: z.string().nullable(),
      teamName: z.string().nullable(),
      dueAt: z.date().nullable(),
      overdue: z.boolean(),
    }),
  ),
  total: z.number(),
});

/**
 * What a task of a protocol may name besides forms, teams and users: the
 * tenant's email templates of the task events and its roles (escalation).
 * GET /api/protocols/task-options, for whoever may read protocols.
 */
export const protocolTaskOptionsSchema = z.object({
  templates: z.array(z.object({ id: z.number(), name: z.string(), event: z.string(), isDefault: z.boolean() })),
  roles: z.array(z.object({ code: z.string(), name: z.string() })),
});
