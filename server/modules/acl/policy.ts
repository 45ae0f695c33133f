/**
 * The one place that decides what an actor may do. Rules are the spec's map
 * target -> allowed actions, per role; a super-admin role may do everything.
 * Record-level checks (task responsible, case participant) live in each
 * domain's policy.ts and call `can` first.
 */
import type { Action, Target } from '../../../core/targets.js';

export type { Action, Target };

export interface Actor {
  userId: number;
  entityId: number;
  entity: { docnumber: string; name: string };
  name: string;
  email: string;
  role: { id: number; code: string; name: string; superAdmin: boolean };
  /** target -> allowed actions */
  rules: ReadonlyMap<string, ReadonlySet<string>>;
  language: 'en' | 'es';
  timeZone: string;
  sessionId: number;
  projectId: number | null;
  idleSeconds: number;
}

/** Who acted: a person, or the system (jobs, imports, the seed). */
export type Doer = Actor | { system: true; entityId: number };

export function can(actor: Actor | null | undefined, target: Target, action: Action): boolean {
  if (!actor) return false;
  if (actor.role.superAdmin) return true;
  return actor.rules.get(target)?.has(action) ?? false;
}

/** The rules as the browser receives them, and the targets the menu follows. */
export function rulesView(actor: Actor): { rules: Record<string, string[]>; targets: string[] } {
  const rules: Record<string, string[]> = {};
  for (const [target, actions] of actor.rules) if (actions.size > 0) rules[target] = [...actions].sort();
  return { rules, targets: Object.keys(rules).sort() };
}
