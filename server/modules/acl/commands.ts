/**
 * What changes the access-control catalogues and rules, as named verbs, one
 * transaction each, checked by policy.ts: change and delete a catalogue row
 * (a system row keeps its code and stays; a role users hold stays), and
 * replace a role's rules (every module and action named must be the
 * tenant's; nothing changes otherwise). Creating a row is a repo.ts insert.
 * Every change moves the tenant's ACL version (a trigger), so the next
 * request of any user sees it.
 */
import type { Db } from '../../db/pool.js';
import { AppError } from '../../errors.js';
import { type Actor, assertCatalogAction, assertRulesChange } from './policy.js';
import { CATALOG_TARGET, type CatalogTable, lockCatalogRow, removeCatalogRow, replaceRules, rulesOf, updateCatalogRow } from './repo.js';
import type { CatalogBody, RulesBody } from './schema.js';

export function changeCatalogRow(db: Db, actor: Actor, table: CatalogTable, id: number, b: CatalogBody): Promise<void> {
  return db.transaction().execute(async (trx) => {
    const current = await lockCatalogRow(trx, actor, table, id);
    assertCatalogAction(actor, CATALOG_TARGET[table], current, current.code === b.code ? 'edit' : 'changeCode');
    await updateCatalogRow(trx, actor, table, id, b);
  });
}

export function deleteCatalogRow(db: Db, actor: Actor, table: CatalogTable, id: number): Promise<void> {
  return db.transaction().execute(async (trx) => {
    const current = await lockCatalogRow(trx, actor, table, id);
    assertCatalogAction(actor, CATALOG_TARGET[table], current, 'delete');
    await removeCatalogRow(trx, actor, table, id);
  });
}

/** Replaces the rules of a role with `granted` (module code -> action codes). */
export function setRoleRules(db: Db, actor: Actor, roleId: number, body: RulesBody): Promise<void> {
  return db.transaction().execute(async (trx) => {
    await lockCatalogRow(trx, actor, 'acl_roles', roleId);
    const current = await rulesOf(trx, actor, roleId);
    assertRulesChange(actor, current.role, current.granted, body.granted);
    const modules = new Map(current.modules.map((m) => [m.code, m.id]));
    const actions = new Map(current.actions.map((a) => [a.code, a.id]));
    const rules: Array<{ moduleId: number; actionId: number }> = [];
    for (const [moduleCode, actionCodes] of Object.entries(body.granted)) {
      const moduleId = modules.get(moduleCode);
      if (moduleId === undefined) throw new AppError('VALIDATION', {}, [{ path: `granted.${moduleCode}`, message: 'acl.unknownModule' }]);
      for (const actionCode of new Set(actionCodes)) {
        const actionId = actions.get(actionCode);
        if (actionId === undefined) throw new AppError('VALIDATION', {}, [{ path: `granted.${moduleCode}`, message: 'acl.unknownAction' }]);
        rules.push({ moduleId, actionId });
      }
    }
    await replaceRules(trx, actor, roleId, rules);
  });
}
