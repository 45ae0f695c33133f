import { type ProtocolDefinition, ProtocolDefinitionError, parseProtocolDefinition, type TaskTemplate } from '../../../../../core/workflow/protocol.js';
import type { PartyRole } from '../../../../../core/parties.js';
import type { ApiErrorDetail } from '../../../lib/api.js';

export function emptyDefinition(): ProtocolDefinition {
  return { start: [], tasks: [], duplicateFields: [], requiredDocumentsField: null, pendingColumns: { requireIncome: [], section8: null, thirdParty: null }, parties: [], awardCaps: null };
}

/** A stored definition with the defaults the editor relies on. */
export function normalizeDefinition(input: Partial<ProtocolDefinition> | null | undefined): ProtocolDefinition {
  const base = emptyDefinition();
  return {
    ...base,
    ...input,
    start: input?.start ?? [],
    tasks: (input?.tasks ?? []).map((t) => ({ ...t, onAccept: t.onAccept ?? [], onReject: t.onReject ?? null, join: t.join ?? 'any', formId: t.formId ?? null, expirationDays: t.expirationDays ?? null })),
    pendingColumns: { ...base.pendingColumns, ...input?.pendingColumns },
    parties: input?.parties ?? [],
    awardCaps: input?.awardCaps ?? null,
  };
}

export type PartySettings = ProtocolDefinition['parties'][number];
export type AwardCaps = NonNullable<ProtocolDefinition['awardCaps']>;

/** A role just added to the protocol: the schema's defaults, no form yet. */
export const newParty = (role: PartyRole): PartySettings => ({ role, formId: null, attestation: { en: '', es: '' }, deadlineDays: 14, remindEveryDays: 3, payTenantAfterDeadline: false });

/** Caps just turned on: the schema's defaults; the total (which has none) is left for the coordinator to set. */
export const newAwardCaps = (): AwardCaps => ({ maxArrearsMonths: 12, maxAheadMonths: 3, maxMonthlyRent: null, maxUtilities: 0, maxTotal: 0 });

/** Removes a party role, and the waiting for it of the tasks that waited (nothing would ever come). */
export function removeParty(def: ProtocolDefinition, role: PartyRole): ProtocolDefinition {
  return {
    ...def,
    parties: def.parties.filter((p) => p.role !== role),
    tasks: def.tasks.map((t) => {
      if (t.waitsForParty !== role) return t;
      const { waitsForParty: _gone, ...rest } = t;
      return rest;
    }),
  };
}

/** Codes of the tasks from which an accept path leads to `code`: where a reject of `code` may go back to. */
export function earlierTasks(tasks: readonly TaskTemplate[], code: string): string[] {
  const into = new Map<string, string[]>();
  for (const t of tasks) for (const e of t.onAccept) into.set(e.to, [...(into.get(e.to) ?? []), t.code]);
  const seen = new Set<string>();
  const stack = [...(into.get(code) ?? [])];
  while (stack.length) {
    const c = stack.pop() as string;
    if (seen.has(c) || c === code) continue;
    seen.add(c);
    stack.push(...(into.get(c) ?? []));
  }
  return tasks.map((t) => t.code).filter((c) => seen.has(c));
}

/** Adds a task, or replaces the one coded `previous`; a changed code is changed wherever the definition names it. */
export function putTask(def: ProtocolDefinition, previous: string | null, task: TaskTemplate): ProtocolDefinition {
  if (previous === null) return { ...def, tasks: [...def.tasks, task], start: def.start.length === 0 && def.tasks.length === 0 ? [task.code] : def.start };
  const rename = (c: string) => (c === previous ? task.code : c);
  return {
    ...def,
    start: def.start.map(rename),
    tasks: def.tasks.map((t) => {
      if (t.code === previous) return task;
      return {
        ...t,
        onAccept: t.onAccept.map((e) => ({ ...e, to: rename(e.to) })),
        onReject: t.onReject && 'to' in t.onReject ? { to: rename(t.onReject.to) } : t.onReject,
        responsible: t.responsible.kind === 'task' ? { kind: 'task', task: rename(t.responsible.task) } : t.responsible,
      };
    }),
  };
}

/** Removes a task with the start entries and accept edges that named it; other references stay for the checks to name. */
export function removeTask(def: ProtocolDefinition, code: string): ProtocolDefinition {
  return {
    ...def,
    start: def.start.filter((c) => c !== code),
    tasks: def.tasks.filter((t) => t.code !== code).map((t) => ({ ...t, onAccept: t.onAccept.filter((e) => e.to !== code) })),
  };
}

export function moveTask(def: ProtocolDefinition, from: number, to: number): ProtocolDefinition {
  const tasks = [...def.tasks];
  const [moved] = tasks.splice(from, 1);
  if (!moved) return def;
  tasks.splice(to, 0, moved);
  return { ...def, tasks };
}

/**
 * The problems core/workflow finds in a draft, as the server would name
 * them (it also checks forms, teams and users, which only it can). The
 * editor shows these once a save has failed, so fixes show at once.
 */
export function checkDraft(def: ProtocolDefinition, translate: (key: string, params?: Record<string, unknown>) => string): ApiErrorDetail[] {
  try {
    parseProtocolDefinition(def);
    return [];
  } catch (error) {
    if (!(error instanceof ProtocolDefinitionError)) throw error;
    return error.problems.map((p) => ({ path: p.path, message: translate(p.reason, p.params) }));
  }
}
