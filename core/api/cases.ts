/**
 * The cases API's contract, shared by the server (its routes validate and
 * serialise with these) and the browser (which takes its types from them
 * through `Wire`). Request-only schemas that the browser never builds live in
 * `server/modules/cases/schema.ts`.
 */
import { z } from 'zod';
import { searchFiltersParam } from '../cases/search.js';
import { formDataSchema } from '../forms/data.js';
import { PUBLIC_EVENTS, PUBLIC_STATUSES } from '../cases/portal.js';
import { CASE_STATES } from '../workflow/states.js';
import { dayText, listQuery, listResponse } from './list.js';

const dateText = dayText;

/** One row of the case list. */
export const caseItemSchema = z.object({
  id: z.number(),
  number: z.string().nullable(),
  state: z.enum(CASE_STATES),
  protocolId: z.number(),
  protocolName: z.string(),
  caseType: z.string(),
  ownerId: z.number(),
  ownerName: z.string(),
  applicant: z.string(),
  docDate: z.date().nullable(),
  possibleDuplicated: z.boolean(),
  openTasks: z.number(),
  createdAt: z.date(),
  updatedAt: z.date(),
});

/**
 * What an actor may do on one case (policy.ts of the cases module decides; the web shows buttons from it).
 * `returnForCorrection` and `cancelCorrection` are staff's; `resubmit` is the owner's while a correction is open.
 */
export const CASE_ACTIONS = ['open', 'complete', 'close', 'activate', 'changeOwner', 'participants', 'editData', 'returnForCorrection', 'cancelCorrection', 'resubmit'] as const;
export type CaseActionName = (typeof CASE_ACTIONS)[number];

// ---------------------------------------------------------------- returned for correction (issue 18)

/** Longest reason (characters, after trimming); most fields and documents one return may ask for. */
export const CORRECTION_REASON_MAX = 2000;
export const CORRECTION_MAX_FIELDS = 200;
export const CORRECTION_MAX_DOCUMENTS = 30;
/** Most files the applicant may give for one asked document. */
export const CORRECTION_MAX_FILES = 10;

export const CORRECTION_STATES = ['open', 'resubmitted', 'cancelled'] as const;

/**
 * A request to the applicant to correct an open application: the reason,
 * the names of the form's fields to fix and the checklist documents to give
 * (codes of the `definiciones` master, with their names). Open until the
 * applicant resubmits or staff cancel it.
 */
export const correctionSchema = z.object({
  id: z.number(),
  state: z.enum(CORRECTION_STATES),
  reason: z.string(),
  fields: z.array(z.string()),
  documents: z.array(z.object({ code: z.string(), name: z.string() })),
  requestedBy: z.string().nullable(),
  requestedAt: z.date(),
  resubmittedAt: z.date().nullable(),
});

/** POST /api/cases/:id/correction: send the application back to its applicant. The form's `version` is the case's. */
export const returnForCorrectionBody = z
  .strictObject({
    reason: z
      .string({ error: 'validation.required' })
      .trim()
      .min(1, { error: 'validation.required' })
      .max(CORRECTION_REASON_MAX, { error: 'validation.tooLong' }),
    fields: z.array(z.string().trim().min(1).max(63)).max(CORRECTION_MAX_FIELDS).default([]),
    documents: z.array(z.string().trim().min(1).max(100)).max(CORRECTION_MAX_DOCUMENTS).default([]),
    version: z.number().int().positive(),
  })
  .refine((b) => b.fields.length + b.documents.length > 0, { error: 'caseCorrection.errors.nothingAsked', path: ['fields'] });
export type ReturnForCorrection = z.input<typeof returnForCorrectionBody>;

/** A file the applicant uploaded (POST /api/files) for an asked document. */
const uploadedFile = z.strictObject({ id: z.string().uuid(), name: z.string().trim().min(1).max(200), size: z.number().int().nonnegative().optional() });

/**
 * POST /api/cases/:id/correction/resubmit (the applicant): the form's values
 * (only asked fields may differ from what is saved) and, for each asked
 * document, the files uploaded for it.
 */
export const resubmitCorrectionBody = z.strictObject({
  data: formDataSchema,
  documents: z
    .array(z.strictObject({ code: z.string().trim().min(1).max(100), files: z.array(uploadedFile).min(1, { error: 'caseCorrection.errors.noFiles' }).max(CORRECTION_MAX_FILES) }))
    .max(CORRECTION_MAX_DOCUMENTS)
    .default([]),
  version: z.number().int().positive(),
});
export type ResubmitCorrection = z.input<typeof resubmitCorrectionBody>;

/** GET /api/cases/:id. */
export const caseDetailSchema = caseItemSchema.extend({
  data: z.record(z.string(), z.unknown()),
  /** Names of the master items the data holds, by field and code. */
  optionLabels: z.record(z.string(), z.record(z.string(), z.string())),
  form: z.unknown(),
  formId: z.number(),
  version: z.number(),
  participants: z.array(z.object({ id: z.number(), name: z.string() })),
  actions: z.array(z.enum(CASE_ACTIONS)),
  /** The open request to correct the application, if any (staff and the applicant see it). */
  correction: correctionSchema.nullable(),
  canSeeHistory: z.boolean(),
  canSeeSimilar: z.boolean(),
});

/** The list's filters, shared by the list, its count, the export and saved searches. */
export const caseFiltersSchema = listQuery(['doc_date', 'serial', 'state', 'created_at', 'updated_at']).extend({
  state: z.union([z.enum(CASE_STATES), z.array(z.enum(CASE_STATES))]).optional(),
  protocolId: z.coerce.number().int().positive().optional(),
  ownerId: z.coerce.number().int().positive().optional(),
  teamId: z.coerce.number().int().positive().optional(),
  /** Days in the tenant's time zone (YYYY-MM-DD), both ends included. */
  from: dateText.optional(),
  to: dateText.optional(),
  possibleDuplicated: z.enum(['true', 'false']).transform((v) => v === 'true').optional(),
  /** The advanced search: a JSON list of [column, operator, value] rows (core/cases/search.ts), each value parsed for its column. */
  filters: searchFiltersParam.optional(),
});
export type CaseFilters = z.infer<typeof caseFiltersSchema>;

const capped = z.boolean().describe('true when the total is a floor: more rows match than were counted');
export const caseListSchema = listResponse(caseItemSchema).extend({ capped });
export const caseCountSchema = z.object({ total: z.number().int(), capped });

/** GET /api/cases/:id/history: every transition and field change, with who and when. */
export const caseEventSchema = z.object({
  id: z.number(),
  action: z.string(),
  type: z.string(),
  userName: z.string().nullable(),
  taskName: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()),
  at: z.date(),
});

/** A draft: GET /api/cases/drafts/:id (and what POST /api/cases/drafts answers). */
export const draftSchema = z.object({
  id: z.number(),
  protocolId: z.number(),
  protocolName: z.string(),
  formId: z.number(),
  data: z.record(z.string(), z.unknown()),
  form: z.unknown(),
  version: z.number(),
  updatedAt: z.date(),
});

/** GET /api/cases/new-options: what a new application can start from, and whether applications are open. */
export const newOptionsSchema = z.object({
  open: z.boolean(),
  /** The project's maintenance flag: the form shows a maintenance notice instead (and the server refuses, 503 MAINTENANCE). */
  maintenance: z.boolean(),
  autosaveSeconds: z.number(),
  protocols: z.array(z.object({ id: z.number(), name: z.string(), caseType: z.string(), formId: z.number(), form: z.unknown() })),
});

/** A background export and its progress. */
export const caseExportSchema = z.object({
  id: z.string(),
  state: z.enum(['running', 'done', 'failed']),
  format: z.enum(['csv', 'xlsx']),
  done: z.number(),
  total: z.number(),
  filename: z.string().nullable(),
  error: z.string().nullable(),
});

export const savedSearchSchema = z.object({ id: z.number(), name: z.string(), query: z.record(z.string(), z.unknown()) });

/** What a bulk action did: the cases it changed, and why the others were not. */
export const bulkResultSchema = z.object({ done: z.array(z.number()), failed: z.array(z.object({ id: z.number(), message: z.string() })) });

// ---------------------------------------------------------------- the applicant's portal (issue 18)

/** A document the applicant is asked for: by an open correction, or marked missing in a comment they see. */
export const requestedDocumentSchema = z.object({ code: z.string(), name: z.string(), source: z.enum(['correction', 'checklist']) });

/**
 * GET /api/cases/:id/public-timeline: where an application stands in plain
 * words and its public steps, oldest first; built from the history without
 * task names, staff's names or notes (for the owner, and staff who see it).
 */
export const publicTimelineSchema = z.object({
  status: z.enum(PUBLIC_STATUSES),
  submittedAt: z.date().nullable(),
  updatedAt: z.date(),
  events: z.array(z.object({ kind: z.enum(PUBLIC_EVENTS), at: z.date(), documents: z.array(z.string()) })),
  requestedDocuments: z.array(requestedDocumentSchema),
});

/** Most cases one GET /api/cases/public-statuses names: a page of the applicant's list. */
export const PUBLIC_STATUSES_MAX = 50;

/** GET /api/cases/public-statuses?ids=1,2,3: the plain-words status of each listed case the caller may read (the applicant's list). */
export const publicStatusesQuery = z.object({
  ids: z
    .string()
    .regex(/^\d{1,10}(,\d{1,10})*$/)
    .transform((text) => [...new Set(text.split(',').map(Number))])
    .refine((ids) => ids.length <= PUBLIC_STATUSES_MAX, { message: `At most ${PUBLIC_STATUSES_MAX} ids` }),
});
export const publicStatusesSchema = z.object({ items: z.array(z.object({ id: z.number().int(), status: z.enum(PUBLIC_STATUSES) })) });
