/**
 * Who may see and change which master. A master whose code is a permission
 * target of the spec (definiciones, departamentos, municipios) is guarded by
 * that target; any other by menu_maestros. The master itself (its name,
 * parent, public flag; deleting it) is menu_maestros work; its items follow
 * the master's target. The finders of repo.ts apply `visibleMasters` and
 * `assertMasterRead`; the commands check `assertMasterAction`; the actions
 * are sent with each master.
 */
import type { ExpressionBuilder } from 'kysely';
import type { MasterActionName } from '../../../core/api/masters.js';
import { type Action, TARGETS, type Target } from '../../../core/targets.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import { type Actor, can } from '../acl/policy.js';

/** The masters guarded by a target of their own in the list (the spec's three). */
const OWN_TARGET_MASTERS = ['definiciones', 'departamentos', 'municipios'] as const;

export function masterTarget(code: string): Target {
  return (TARGETS as readonly string[]).includes(code) ? (code as Target) : 'menu_maestros';
}

export function assertMasterAccess(actor: Actor, code: string, action: Action): void {
  if (!can(actor, masterTarget(code), action)) throw new AppError('FORBIDDEN');
}

/** A master and its items may be read by whoever may show its target. */
export function assertMasterRead(actor: Actor, m: { code: string }): void {
  assertMasterAccess(actor, m.code, 'show');
}

/**
 * A condition on `m` (masters) limiting the list to what the actor may see:
 * with menu_maestros every master but the spec's three whose own target it
 * lacks; without it, those of the three it may show. The tenant is applied
 * by the finder.
 */
export function visibleMasters(actor: Actor) {
  return (eb: ExpressionBuilder<Database & { m: Database['masters'] }, 'm'>) => {
    if (can(actor, 'menu_maestros', 'show')) {
      const hidden = OWN_TARGET_MASTERS.filter((t) => !can(actor, t, 'show'));
      return hidden.length ? eb('m.code', 'not in', hidden) : eb.val(true);
    }
    const shown = OWN_TARGET_MASTERS.filter((t) => can(actor, t, 'show'));
    return shown.length ? eb('m.code', 'in', shown) : eb.val(false);
  };
}

/** What the actor may do on a master it can see. */
export function masterActions(actor: Actor, m: { code: string; system: boolean }): MasterActionName[] {
  const target = masterTarget(m.code);
  const out: MasterActionName[] = [];
  if (can(actor, 'menu_maestros', 'update')) out.push('edit');
  if (can(actor, 'menu_maestros', 'delete') && !m.system) out.push('delete');
  if (can(actor, target, 'create')) out.push('addItems');
  if (can(actor, target, 'update')) out.push('editItems');
  if (can(actor, target, 'delete')) out.push('deleteItems');
  return out;
}

/** Refuses an action the actor does not have on this master: a system master cannot be deleted (SYSTEM_RECORD); missing rights are FORBIDDEN. */
export function assertMasterAction(actor: Actor, m: { code: string; system: boolean }, action: MasterActionName): void {
  if (masterActions(actor, m).includes(action)) return;
  if (action === 'delete' && m.system && can(actor, 'menu_maestros', 'delete')) throw new AppError('SYSTEM_RECORD');
  throw new AppError('FORBIDDEN');
}
