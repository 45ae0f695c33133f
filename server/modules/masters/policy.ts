import { type Action, TARGETS, type Target } from '../../../core/targets.js';
import type { Db } from '../../db/pool.js';
import { AppError } from '../../errors.js';
import { type Actor, can } from '../acl/policy.js';

/**
 * A master whose code is a permission target of the spec (definiciones,
 * departamentos, municipios) is guarded by it; any other master by
 * menu_maestros.
 */
export function masterTarget(code: string): Target {
  return (TARGETS as readonly string[]).includes(code) ? (code as Target) : 'menu_maestros';
}

export function assertMasterAccess(actor: Actor, code: string, action: Action): void {
  if (!can(actor, masterTarget(code), action)) throw new AppError('FORBIDDEN');
}

/** The master codes the actor may list, or 'all'. */
export async function visibleMasterCodes(db: Db, actor: Actor): Promise<string[] | 'all'> {
  if (can(actor, 'menu_maestros', 'show')) {
    // Masters guarded by their own target still need it.
    const own = TARGETS.filter((t) => t === 'definiciones' || t === 'departamentos' || t === 'municipios').filter((t) => !can(actor, t, 'show'));
    if (own.length === 0) return 'all';
    const rows = await db.selectFrom('masters').where('entity_id', '=', actor.entityId).where('code', 'not in', own).select('code').execute();
    return rows.map((r) => r.code);
  }
  return (['definiciones', 'departamentos', 'municipios'] as const).filter((t) => can(actor, t, 'show'));
}
