/**
 * The one place that decides what an actor may do. Rules are the spec's map
 * target -> allowed actions, per role; a super-admin role may do everything.
 * Record-level checks (task responsible, case participant) live in each
 * domain's policy.ts and call `can` first.
 */
import type { CatalogActionName } from '../../../core/api/acl.js';
import type { Action, Target } from '../../../core/targets.js';
import { AppError } from '../../errors.js';

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
  /** The language the person reads this request in (the page's `lang` cookie, else their profile's): names kept in two languages follow it. */
  language: 'en' | 'es';
  /** The language saved in their profile, when the page's differs (the session's answer reports this one). */
  profileLanguage?: 'en' | 'es';
  timeZone: string;
  sessionId: number;
  projectId: number | null;
  idleSeconds: number;
  /** A platform operator (migration 0030): above the tenants, for the agencies routes only (`access: 'operator'`); no tenant right comes with it. */
  platformOperator?: boolean;
  /** Set when the request came with an API token (Authorization: Bearer) rather than a session: which one, and whether it may only read. */
  apiToken?: { id: number; readOnly: boolean };
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

// ---------------------------------------------------------------- the catalogues (actions, modules, roles)

/** A row of a catalogue: seeded (system) rows keep their code and stay, since the server's own checks name them; a role stays while users hold it. */
export interface CatalogRecord {
  system: boolean;
  /** Roles only: a super-admin role, which only a super-admin changes or deletes. */
  super_admin?: boolean;
  /** Roles only: how many users hold it. */
  users?: number;
}

/** What the actor may do on a row of the catalogue guarded by `target`. */
export function catalogActions(actor: Actor, target: Target, row: CatalogRecord): CatalogActionName[] {
  const out: CatalogActionName[] = [];
  if (row.super_admin && !actor.role.superAdmin) return out;
  if (can(actor, target, 'update')) {
    out.push('edit');
    if (!row.system) out.push('changeCode');
  }
  if (can(actor, target, 'delete') && !row.system && !row.users) out.push('delete');
  return out;
}

/** Refuses an action the actor does not have on the row: SYSTEM_RECORD for a system row's code or deletion, IN_USE for a role users hold, FORBIDDEN without the right. */
export function assertCatalogAction(actor: Actor, target: Target, row: CatalogRecord, action: CatalogActionName): void {
  if (catalogActions(actor, target, row).includes(action)) return;
  const right = action === 'delete' ? 'delete' : 'update';
  if (!can(actor, target, right) || (row.super_admin && !actor.role.superAdmin)) throw new AppError('FORBIDDEN');
  if (row.system) throw new AppError('SYSTEM_RECORD');
  throw new AppError('IN_USE');
}

// ---------------------------------------------------------------- the rules of a role

/**
 * Whether the actor may replace the rules of this role with `granted`. Only
 * a super-admin changes a super-admin role, or their own role (holding
 * acl_reglas must not let anyone widen their own rights); anyone else may
 * grant only what their own role holds, and take away anything. A grant the
 * role already has is kept as it is.
 */
export function assertRulesChange(
  actor: Actor,
  role: { id: number; superAdmin: boolean },
  before: Record<string, string[]>,
  granted: Record<string, string[]>,
): void {
  if (actor.role.superAdmin) return;
  if (role.superAdmin || role.id === actor.role.id) throw new AppError('FORBIDDEN');
  const details = Object.entries(granted)
    .filter(([target, actions]) => actions.some((a) => !before[target]?.includes(a) && !actor.rules.get(target)?.has(a)))
    .map(([target]) => ({ path: `granted.${target}`, message: 'acl.grantNotHeld' }));
  if (details.length) throw new AppError('VALIDATION', {}, details);
}
