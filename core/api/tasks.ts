/**
 * The tasks API's contract, shared by the server (its routes validate and
 * serialise with these) and the browser (which takes its types from them
 * through `Wire`). Request bodies the browser never builds by itself live in
 * `server/modules/tasks/schema.ts`.
 */
import { z } from 'zod';
import { TASK_STATES } from '../workflow/states.js';
import { dayText, listQuery, listResponse } from './list.js';

const stateEnum = z.enum(TASK_STATES);

/** One row of a task list (GET /api/tasks). */
export const taskItemSchema = z.object({
  id: z.number(),
  code: z.string(),
  name: z.string(),
  state: stateEnum,
  caseId: z.number(),
  caseNumber: z.string().nullable(),
  protocolName: z.string(),
  responsibleId: z.number().nullable(),
  responsibleName: z.string().nullable(),
  teamId: z.number().nullable(),
  teamName: z.string().nullable(),
  dueAt: z.date().nullable(),
  overdue: z.boolean(),
  createdAt: z.date(),
});

/** What an actor may do on one task (tasks/policy.ts decides; the web shows buttons from it). */
export const TASK_ACTION_NAMES = ['accept', 'reject', 'restart', 'assign', 'save'] as const;
export type TaskActionName = (typeof TASK_ACTION_NAMES)[number];

/** GET /api/tasks's filters, which the browser builds from the list's filter bar. */
export const taskFiltersSchema = listQuery(['created_at', 'due_at', 'name', 'state']).extend({
  state: z.union([stateEnum, z.array(stateEnum)]).optional(),
  protocolId: z.coerce.number().int().positive().optional(),
  teamId: z.coerce.number().int().positive().optional(),
  responsibleId: z.coerce.number().int().positive().optional(),
  caseId: z.coerce.number().int().positive().optional(),
  overdue: z.enum(['true', 'false']).transform((v) => v === 'true').optional(),
  /** true: only ad-hoc tasks (the /tareas list); false: only the protocol's tasks. */
  adhoc: z.enum(['true', 'false']).transform((v) => v === 'true').optional(),
  /** One task of the protocols (its code), as the reports group them. */
  code: z.string().regex(/^[a-z][a-z0-9_-]{0,62}$/, 'validation.pattern').optional(),
  /** Created on these days of the tenant's time zone (YYYY-MM-DD), both ends included. */
  from: dayText.optional(),
  to: dayText.optional(),
  /** The person who decided the task, or who holds it while it is undecided (the reports' "user"). */
  handledBy: z.coerce.number().int().positive().optional(),
});
export type TaskFilters = z.infer<typeof taskFiltersSchema>;
export const taskListSchema = listResponse(taskItemSchema);

/** GET /api/tasks/pending's query. */
export const pendingQuerySchema = listQuery(['due_at', 'created_at']);

/** One of my pending tasks, with the spec's columns and what I may do from the list. */
export const pendingItemSchema = taskItemSchema.extend({
  possibleDuplicated: z.boolean(),
  requireIncome: z.boolean(),
  section8: z.boolean(),
  thirdParty: z.boolean(),
  actions: z.array(z.enum(TASK_ACTION_NAMES)),
});
export const pendingListSchema = listResponse(pendingItemSchema);

/** GET /api/tasks/:id: everything the task page shows, and the actions this actor has on the task. */
export const taskDetailSchema = taskItemSchema.extend({
  version: z.number(),
  data: z.record(z.string(), z.unknown()),
  reason: z.string().nullable(),
  /** What an ad-hoc task asks for (null for protocol tasks). */
  instructions: z.string().nullable(),
  form: z.object({ versionId: z.number(), definition: z.unknown() }).nullable(),
  case: z.object({
    id: z.number(),
    number: z.string().nullable(),
    state: z.string(),
    ownerName: z.string(),
    data: z.record(z.string(), z.unknown()),
    mainForm: z.unknown(),
    possibleDuplicated: z.boolean(),
    docDate: z.date().nullable(),
    /** Names of the master items the case data holds, by field and code. */
    optionLabels: z.record(z.string(), z.record(z.string(), z.string())),
  }),
  next: z.array(z.object({ code: z.string(), name: z.string(), when: z.string().nullable() })),
  onReject: z.union([z.object({ to: z.string(), name: z.string() }), z.object({ notEligible: z.literal(true) })]).nullable(),
  /** Issue 23: this task sets the case's award (its template's `award: true`): the page shows the award panel and the accept carries `award`. */
  award: z.boolean().optional(),
  actions: z.array(z.enum(TASK_ACTION_NAMES)),
});

/** GET /api/cases/:id/timeline: the tasks of one case, oldest first. */
export const caseTimelineSchema = z.object({
  caseId: z.number(),
  number: z.string().nullable(),
  state: z.string(),
  tasks: z.array(taskItemSchema.extend({ reason: z.string().nullable(), decidedAt: z.date().nullable(), decidedBy: z.string().nullable() })),
});

/** What a decision answers: the tasks it started. */
export const decidedSchema = z.object({ ok: z.literal(true), created: z.array(z.number()) });
export const rejectedSchema = decidedSchema.extend({ notEligible: z.boolean() });

/** What a bulk action did: the tasks it changed, and why the others were not. */
export const taskBulkResultSchema = z.object({ done: z.array(z.number()), failed: z.array(z.object({ id: z.number(), message: z.string() })) });
