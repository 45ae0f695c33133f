/**
 * A protocol's workflow: the task templates a case goes through, who does
 * each, what form each needs, and where a case goes on accept (one or more
 * next tasks, each optionally guarded by a condition on form values) or on
 * reject (back to a named earlier task, or the end as not eligible).
 * `parseProtocolDefinition` checks what a schema cannot: a start, known
 * targets, rejects that go back, and no loop that could never end.
 */
import { z } from 'zod';
import { ADHOC_TASK_CODE } from './adhoc.js';
import { checkCondition } from '../forms/expr.js';
import { PARTY_ROLES } from '../parties.js';

export const EXPIRATION_UNITS = ['calendar', 'business'] as const;
export type ExpirationUnit = (typeof EXPIRATION_UNITS)[number];

const code = z.string().regex(/^[a-z][a-z0-9_-]{0,62}$/, 'protocols.def.badCode');

/** The task events whose message a protocol task may choose (the default template of the event otherwise). */
export const TASK_MAIL_EVENTS = ['task_assigned', 'task_due_soon', 'task_overdue'] as const;
export type TaskMailEvent = (typeof TASK_MAIL_EVENTS)[number];

export const responsibleSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('user'), userId: z.number().int().positive() }),
  z.object({ kind: z.literal('team'), teamId: z.number().int().positive() }),
  z.object({ kind: z.literal('owner') }),
  z.object({ kind: z.literal('task'), task: code }),
]);
export type Responsible = z.infer<typeof responsibleSchema>;

export const taskTemplateSchema = z.object({
  code: code.refine((c) => c !== ADHOC_TASK_CODE, 'protocols.def.reservedCode'),
  name: z.string().trim().min(1, 'validation.required').max(200),
  name_en: z.string().trim().max(200).optional(),
  /** The task's form (its current version is frozen when the protocol is published); null: no form to fill. */
  formId: z.number().int().positive().nullable().default(null),
  formVersionId: z.number().int().positive().optional(),
  responsible: responsibleSchema,
  expirationDays: z.number().int().min(0).max(3650).nullable().default(null),
  /** What `expirationDays` counts: days of the calendar (absent, as in protocols saved before it existed), or working days of the tenant's business calendar. */
  expirationUnit: z.enum(EXPIRATION_UNITS).optional(),
  /** Per event, the email template this task sends (one of the tenant's templates of that event); absent: the event's default. */
  mailTemplates: z.partialRecord(z.enum(TASK_MAIL_EVENTS), z.number().int().positive()).optional(),
  /**
   * Escalation past the due date: the team's leaders are told at once; `role`
   * (a role code of the tenant) is told `afterDays` days later if the task is
   * still open. Absent: the leaders only.
   */
  escalation: z.object({ role: z.string().trim().min(1).max(63), afterDays: z.number().int().min(0).max(365).default(1) }).optional(),
  /** Issue 23: this task sets the case's award (its accept carries the award, checked against the protocol's `awardCaps`). */
  award: z.boolean().optional(),
  /** Issue 23: this task may be accepted only once the party of that role has submitted their form (or the protocol's deadline for them passed). */
  waitsForParty: z.enum(PARTY_ROLES).optional(),
  /** 'all': wait until every predecessor that has started is accepted. */
  join: z.enum(['any', 'all']).default('any'),
  onAccept: z.array(z.object({ to: code, when: z.string().max(2000).optional() })).max(20).default([]),
  onReject: z.union([z.object({ to: code }), z.object({ notEligible: z.literal(true) })]).nullable().default(null),
});
export type TaskTemplate = z.infer<typeof taskTemplateSchema>;

export const protocolDefinitionSchema = z.object({
  start: z.array(code).max(20).default([]),
  tasks: z.array(taskTemplateSchema).max(200),
  /** Main-form fields that identify an applicant (duplicate detection). */
  duplicateFields: z.array(z.string().max(63)).max(10).default([]),
  /** A main-form file field that must hold at least one file before the case opens. */
  requiredDocumentsField: z.string().max(63).nullable().default(null),
  /** Which main-form fields fill the spec's pending-task columns. */
  pendingColumns: z
    .object({
      requireIncome: z.array(z.string().max(63)).max(5).default([]),
      section8: z.string().max(63).nullable().default(null),
      thirdParty: z.string().max(63).nullable().default(null),
    })
    .default({ requireIncome: [], section8: null, thirdParty: null }),
  /**
   * Issue 23: the parties a case of this protocol invites (those named in the
   * main form's "party" fields), each role's own form, the attestation the
   * party signs, the days they have, reminders, and whether the programme may
   * pay the tenant directly once that deadline passed.
   */
  parties: z
    .array(
      z.object({
        role: z.enum(PARTY_ROLES),
        formId: z.number().int().positive().nullable().default(null),
        formVersionId: z.number().int().positive().optional(),
        attestation: z.object({ en: z.string().trim().max(4000).default(''), es: z.string().trim().max(4000).default('') }).default({ en: '', es: '' }),
        deadlineDays: z.number().int().min(1).max(365).default(14),
        remindEveryDays: z.number().int().min(1).max(60).nullable().default(3),
        payTenantAfterDeadline: z.boolean().default(false),
      }),
    )
    .max(PARTY_ROLES.length)
    .default([]),
  /** Issue 23: the most an award may give (amounts in cents); null: no award on this protocol. */
  awardCaps: z
    .object({
      maxArrearsMonths: z.number().int().min(0).max(60).default(12),
      maxAheadMonths: z.number().int().min(0).max(24).default(3),
      maxMonthlyRent: z.number().int().min(0).max(100_000_00).nullable().default(null),
      maxUtilities: z.number().int().min(0).max(100_000_00).default(0),
      // A total cap of nothing would refuse every award: the editor's empty box is required.
      maxTotal: z.number().int().min(1, 'validation.required').max(1_000_000_00),
    })
    .nullable()
    .default(null),
  /** The main form's version, frozen at publishing. */
  mainFormVersionId: z.number().int().positive().optional(),
});
export type ProtocolDefinition = z.infer<typeof protocolDefinitionSchema>;

export interface ProtocolProblem {
  path: string;
  reason: string;
  params?: Record<string, unknown>;
}

export class ProtocolDefinitionError extends Error {
  constructor(readonly problems: ProtocolProblem[]) {
    super(problems.map((p) => `${p.path}: ${p.reason}`).join('; '));
    this.name = 'ProtocolDefinitionError';
  }
}

/** Codes of the tasks with an accept edge into `target`. */
export function predecessors(def: Pick<ProtocolDefinition, 'tasks'>, target: string): string[] {
  return def.tasks.filter((t) => t.onAccept.some((e) => e.to === target)).map((t) => t.code);
}

export function parseProtocolDefinition(input: unknown): ProtocolDefinition {
  const parsed = protocolDefinitionSchema.safeParse(input);
  if (!parsed.success) {
    throw new ProtocolDefinitionError(parsed.error.issues.map((i) => ({ path: i.path.join('.') || 'definition', reason: i.message.includes('.') ? i.message : 'protocols.def.invalid', params: { detail: i.message } })));
  }
  const def = parsed.data;
  const problems: ProtocolProblem[] = [];
  const byCode = new Map(def.tasks.map((t) => [t.code, t]));
  const seen = new Set<string>();
  def.tasks.forEach((t) => {
    if (seen.has(t.code)) problems.push({ path: `tasks.${t.code}`, reason: 'protocols.def.duplicateCode', params: { code: t.code } });
    seen.add(t.code);
  });
  if (def.tasks.length === 0) problems.push({ path: 'tasks', reason: 'protocols.def.noTasks' });
  if (def.start.length === 0) problems.push({ path: 'start', reason: 'protocols.def.noStart' });
  for (const s of def.start) if (!byCode.has(s)) problems.push({ path: 'start', reason: 'protocols.def.unknownTask', params: { code: s } });

  // Accept edges: where each task can lead, and what is reachable from the start.
  const reachable = new Set<string>();
  const visit = (c: string) => {
    if (reachable.has(c) || !byCode.has(c)) return;
    reachable.add(c);
    for (const e of byCode.get(c)?.onAccept ?? []) visit(e.to);
  };
  def.start.forEach(visit);

  for (const t of def.tasks) {
    const path = `tasks.${t.code}`;
    t.onAccept.forEach((e, i) => {
      if (!byCode.has(e.to)) problems.push({ path: `${path}.onAccept.${i}`, reason: 'protocols.def.unknownTask', params: { code: e.to } });
      if (e.to === t.code) problems.push({ path: `${path}.onAccept.${i}`, reason: 'protocols.def.acceptToSelf' });
      if (e.when !== undefined) {
        const err = checkCondition(e.when);
        if (err) problems.push({ path: `${path}.onAccept.${i}.when`, reason: 'protocols.def.badCondition', params: { message: { key: err.key, params: err.params }, position: err.position + 1 } });
      }
    });
    if (t.onReject && 'to' in t.onReject) {
      const to = t.onReject.to;
      if (!byCode.has(to)) problems.push({ path: `${path}.onReject`, reason: 'protocols.def.unknownTask', params: { code: to } });
      // "Back to a named earlier task": one from which this task can be reached.
      else if (to === t.code || !leadsTo(def, to, t.code)) problems.push({ path: `${path}.onReject`, reason: 'protocols.def.rejectNotEarlier', params: { code: to } });
    }
    if (t.responsible.kind === 'task' && !byCode.has(t.responsible.task)) problems.push({ path: `${path}.responsible`, reason: 'protocols.def.unknownTask', params: { code: t.responsible.task } });
    if (byCode.size && def.start.length && !reachable.has(t.code)) problems.push({ path, reason: 'protocols.def.unreachable' });
  }

  // Every reachable task must be able to lead to an end (a task with no accept edge),
  // or a loop would keep a case going round for ever.
  const canEnd = new Set(def.tasks.filter((t) => t.onAccept.length === 0).map((t) => t.code));
  for (let changed = true; changed; ) {
    changed = false;
    for (const t of def.tasks) {
      if (!canEnd.has(t.code) && t.onAccept.some((e) => canEnd.has(e.to))) {
        canEnd.add(t.code);
        changed = true;
      }
    }
  }
  for (const c of reachable) if (!canEnd.has(c)) problems.push({ path: `tasks.${c}`, reason: 'protocols.def.neverEnds' });

  // Issue 23: one award per case, set by one task; a task waits only for a party the protocol invites, each role once.
  const awardTasks = def.tasks.filter((t) => t.award);
  for (const t of awardTasks.slice(1)) problems.push({ path: `tasks.${t.code}.award`, reason: 'protocols.def.secondAward', params: { code: awardTasks[0]?.code } });
  const roles = new Set<string>();
  def.parties.forEach((p, i) => {
    if (roles.has(p.role)) problems.push({ path: `parties.${i}.role`, reason: 'protocols.def.duplicatePartyRole', params: { role: p.role } });
    roles.add(p.role);
  });
  for (const t of def.tasks) {
    if (t.waitsForParty && !roles.has(t.waitsForParty)) problems.push({ path: `tasks.${t.code}.waitsForParty`, reason: 'protocols.def.unknownPartyRole', params: { role: t.waitsForParty } });
  }

  if (problems.length) throw new ProtocolDefinitionError(problems);
  return def;
}

function leadsTo(def: ProtocolDefinition, from: string, to: string): boolean {
  const byCode = new Map(def.tasks.map((t) => [t.code, t]));
  const seen = new Set<string>();
  const stack = [from];
  while (stack.length) {
    const c = stack.pop() as string;
    if (c === to && c !== from) return true;
    if (seen.has(c)) continue;
    seen.add(c);
    for (const e of byCode.get(c)?.onAccept ?? []) stack.push(e.to);
  }
  return false;
}
