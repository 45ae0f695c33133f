/**
 * The access-control SQL: the three catalogues (actions, modules, roles)
 * and the rules (role x module -> actions). Every finder takes the actor and
 * reads its tenant only: another tenant's row answers NOT_FOUND. Rows are
 * mapped to the API's shapes here, with the actions the actor has on each.
 */
import { sql, type Transaction } from 'kysely';
import type { Db } from '../../db/pool.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import { containsPattern, type Page, paginate } from '../../lib/list.js';
import { type Actor, catalogActions, type Doer, type Target } from './policy.js';
import type { CatalogBody } from './schema.js';

type Trx = Transaction<Database>;
type Executor = Db | Trx;

export type CatalogTable = 'acl_actions' | 'acl_modules' | 'acl_roles';

/** Each catalogue and the target that guards it. */
export const CATALOG_TARGET: Record<CatalogTable, Target> = { acl_actions: 'acl_acciones', acl_modules: 'acl_objetos', acl_roles: 'acl_roles' };

/** A catalogue row as the commands act on it. */
export interface CatalogRow {
  id: number;
  code: string;
  name: string;
  description: string;
  system: boolean;
  created_at: Date;
  /** Roles only. */
  super_admin?: boolean;
  users?: number;
}

function rows(db: Executor, doer: Doer, table: CatalogTable) {
  // One query shape for the three tables (the columns they share); roles also say how many users hold them.
  const q = db.selectFrom(`${table} as t` as 'acl_roles as t').where('t.entity_id', '=', doer.entityId);
  return q.select([
    't.id', 't.code', 't.name', 't.description', 't.system', 't.created_at',
    ...(table === 'acl_roles' ? [sql<boolean>`t.super_admin`.as('super_admin'), sql<number>`(select count(*) from users u where u.role_id = t.id)::int`.as('users')] : []),
  ]);
}

function catalogView(actor: Actor, table: CatalogTable, r: CatalogRow) {
  const base = {
    id: r.id,
    code: r.code,
    name: r.name,
    description: r.description,
    system: r.system,
    createdAt: r.created_at,
    actions: catalogActions(actor, CATALOG_TARGET[table], { system: r.system, users: r.users, super_admin: r.super_admin }),
  };
  return table === 'acl_roles' ? { ...base, superAdmin: r.super_admin as boolean, users: r.users as number } : base;
}

export async function listCatalog(db: Db, actor: Actor, table: CatalogTable, f: Page & { search?: string; sortBy?: 'code' | 'name' | 'created_at'; descending?: boolean }) {
  let q = rows(db, actor, table);
  if (f.search) {
    const p = containsPattern(f.search);
    q = q.where((eb) => eb.or([eb('t.code', 'ilike', p), eb('t.name', 'ilike', p)]));
  }
  q = q.orderBy(`t.${f.sortBy ?? 'code'}`, f.descending ? 'desc' : 'asc').orderBy('t.id');
  const page = await paginate(q, f);
  return { items: page.rows.map((r) => catalogView(actor, table, r as CatalogRow)), total: page.total };
}

/** A row of the doer's tenant, NOT_FOUND otherwise. */
export async function findCatalogRow(db: Executor, doer: Doer, table: CatalogTable, id: number): Promise<CatalogRow> {
  const row = await rows(db, doer, table).where('t.id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND');
  return row as CatalogRow;
}

/** The row, locked for update, of the doer's tenant. */
export async function lockCatalogRow(trx: Trx, doer: Doer, table: CatalogTable, id: number): Promise<CatalogRow> {
  const locked = await trx.selectFrom(table).where('id', '=', id).where('entity_id', '=', doer.entityId).select('id').forUpdate().executeTakeFirst();
  if (!locked) throw new AppError('NOT_FOUND');
  return findCatalogRow(trx, doer, table, id);
}

export async function catalogDetail(db: Executor, actor: Actor, table: CatalogTable, id: number) {
  return catalogView(actor, table, await findCatalogRow(db, actor, table, id));
}

export async function insertCatalogRow(db: Executor, doer: Doer, table: CatalogTable, b: CatalogBody): Promise<number> {
  const row = await db.insertInto(table).values({ entity_id: doer.entityId, code: b.code, name: b.name, description: b.description }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateCatalogRow(db: Executor, doer: Doer, table: CatalogTable, id: number, b: CatalogBody): Promise<void> {
  await db.updateTable(table).set({ code: b.code, name: b.name, description: b.description }).where('id', '=', id).where('entity_id', '=', doer.entityId).execute();
}

export async function removeCatalogRow(db: Executor, doer: Doer, table: CatalogTable, id: number): Promise<void> {
  await db.deleteFrom(table).where('id', '=', id).where('entity_id', '=', doer.entityId).execute();
}

// ---------------------------------------------------------------- rules

/** The roles whose rules can be edited, by name. */
export function ruleRoles(db: Db, actor: Actor) {
  return db.selectFrom('acl_roles').where('entity_id', '=', actor.entityId).select(['id', 'code', 'name']).orderBy('name').execute();
}

/** A role's rules with every module and action of the tenant; NOT_FOUND for a role of another tenant. */
export async function rulesOf(db: Executor, doer: Doer, roleId: number) {
  const role = await db.selectFrom('acl_roles').where('id', '=', roleId).where('entity_id', '=', doer.entityId).select(['id', 'code', 'name', 'super_admin']).executeTakeFirst();
  if (!role) throw new AppError('NOT_FOUND');
  const [modules, actions, granted] = await Promise.all([
    db.selectFrom('acl_modules').where('entity_id', '=', doer.entityId).select(['id', 'code', 'name']).orderBy('code').execute(),
    db.selectFrom('acl_actions').where('entity_id', '=', doer.entityId).select(['id', 'code', 'name']).orderBy('id').execute(),
    db
      .selectFrom('acl_rules as x')
      .innerJoin('acl_modules as m', 'm.id', 'x.module_id')
      .innerJoin('acl_actions as a', 'a.id', 'x.action_id')
      .where('x.role_id', '=', roleId)
      .where('x.entity_id', '=', doer.entityId)
      .select(['m.code as module', 'a.code as action'])
      // A stable order (by code): without it the rows come in whatever order the plan reads them.
      .orderBy('m.code')
      .orderBy('a.code')
      .execute(),
  ]);
  const byModule: Record<string, string[]> = {};
  for (const r of granted) (byModule[r.module] ??= []).push(r.action);
  return { role: { id: role.id, code: role.code, name: role.name, superAdmin: role.super_admin }, modules, actions, granted: byModule };
}

/** Replaces every rule of a role (the role found in the doer's tenant by the caller). */
export async function replaceRules(trx: Trx, doer: Doer, roleId: number, rules: Array<{ moduleId: number; actionId: number }>): Promise<void> {
  await trx.deleteFrom('acl_rules').where('role_id', '=', roleId).where('entity_id', '=', doer.entityId).execute();
  if (rules.length) await trx.insertInto('acl_rules').values(rules.map((r) => ({ entity_id: doer.entityId, role_id: roleId, module_id: r.moduleId, action_id: r.actionId }))).execute();
}
