/**
 * The users' SQL. Every finder takes the actor and reads its tenant only: a
 * user of another tenant answers NOT_FOUND. Rows are mapped to the API's
 * shapes here, with the actions the actor has on each user (policy.ts).
 */
import { sql, type Transaction } from 'kysely';
import type { Db } from '../../db/pool.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import { containsPattern, type Page, paginate } from '../../lib/list.js';
import type { Actor, Doer } from '../acl/policy.js';
import { userActions } from './policy.js';

type Trx = Transaction<Database>;
type Executor = Db | Trx;

function users(db: Executor, doer: Doer) {
  return db
    .selectFrom('users as u')
    .innerJoin('acl_roles as r', 'r.id', 'u.role_id')
    .where('u.entity_id', '=', doer.entityId)
    .select([
      'u.id', 'u.email', 'u.name', 'u.docnumber', 'u.role_id', 'r.name as role_name', 'r.super_admin as role_super_admin', 'u.active', 'u.locked', 'u.locked_at',
      'u.failed_logins', 'u.language', 'u.time_zone', 'u.created_at',
    ]);
}
export type UserRow = Awaited<ReturnType<ReturnType<typeof users>['executeTakeFirstOrThrow']>>;

const userView = (actor: Actor, u: UserRow) => ({
  id: u.id, email: u.email, name: u.name, docnumber: u.docnumber, roleId: u.role_id, roleName: u.role_name, active: u.active,
  locked: u.locked, lockedAt: u.locked_at, failedLogins: u.failed_logins, language: u.language, timeZone: u.time_zone, createdAt: u.created_at,
  actions: userActions(actor, { id: u.id, superAdmin: u.role_super_admin }),
});

type ListFilters = Page & { search?: string; sortBy?: 'name' | 'email' | 'created_at' | 'locked_at'; descending?: boolean };

async function page(db: Db, actor: Actor, q: ReturnType<typeof users>, f: ListFilters, sortBy: NonNullable<ListFilters['sortBy']>, descending: boolean) {
  if (f.search) {
    const p = containsPattern(f.search);
    q = q.where((eb) => eb.or([eb('u.name', 'ilike', p), eb('u.email', 'ilike', p), eb('u.docnumber', 'ilike', p)]));
  }
  q = q.orderBy(`u.${sortBy}`, descending ? 'desc' : 'asc').orderBy('u.id');
  const { rows, total } = await paginate(q, f);
  return { items: rows.map((u) => userView(actor, u)), total };
}

export function listUsers(db: Db, actor: Actor, f: ListFilters & { locked?: boolean }) {
  let q = users(db, actor);
  if (f.locked !== undefined) q = q.where('u.locked', '=', f.locked);
  return page(db, actor, q, f, f.sortBy ?? 'name', f.descending ?? false);
}

/** Accounts locked by failed sign-ins, the most recently locked first. */
export function listBlocked(db: Db, actor: Actor, f: ListFilters) {
  return page(db, actor, users(db, actor).where('u.locked', '=', true), f, f.sortBy ?? 'locked_at', f.descending ?? true);
}

/** A user of the doer's tenant; `notFound` is the code answered otherwise. */
export async function findUser(db: Executor, doer: Doer, id: number, notFound: 'NOT_FOUND' | 'USER_NOT_FOUND' = 'NOT_FOUND'): Promise<UserRow> {
  const u = await users(db, doer).where('u.id', '=', id).executeTakeFirst();
  if (!u) throw new AppError(notFound);
  return u;
}

/** The user, locked for update, of the doer's tenant. */
export async function lockUser(trx: Trx, doer: Doer, id: number): Promise<UserRow> {
  const locked = await trx.selectFrom('users').where('id', '=', id).where('entity_id', '=', doer.entityId).select('id').forUpdate().executeTakeFirst();
  if (!locked) throw new AppError('NOT_FOUND');
  return findUser(trx, doer, id);
}

/** GET /api/users/:id and what the writes answer. */
export async function userDetail(db: Executor, actor: Actor, id: number) {
  return userView(actor, await findUser(db, actor, id));
}

/** The tenant's roles, by name. */
export async function rolesOfTenant(db: Db, actor: Actor) {
  const roles = await db.selectFrom('acl_roles').where('entity_id', '=', actor.entityId).select(['id', 'code', 'name', 'super_admin']).orderBy('name').execute();
  return roles.map((r) => ({ id: r.id, code: r.code, name: r.name, superAdmin: r.super_admin }));
}

/** A role of the doer's tenant, or undefined. */
export async function roleOfTenant(db: Executor, doer: Doer, roleId: number): Promise<{ superAdmin: boolean } | undefined> {
  const role = await db.selectFrom('acl_roles').where('id', '=', roleId).where('entity_id', '=', doer.entityId).select('super_admin').executeTakeFirst();
  return role && { superAdmin: role.super_admin };
}

export interface UserValues {
  email: string;
  name: string;
  docnumber: string | null;
  roleId: number;
  active: boolean;
  language: 'en' | 'es';
  timeZone: string;
}

export async function insertUser(db: Executor, doer: Doer, v: UserValues & { passwordHash: string }): Promise<number> {
  const row = await db
    .insertInto('users')
    .values({
      entity_id: doer.entityId, email: v.email, name: v.name, docnumber: v.docnumber, role_id: v.roleId, active: v.active,
      language: v.language, time_zone: v.timeZone, password_hash: v.passwordHash,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateUser(db: Executor, doer: Doer, id: number, v: UserValues): Promise<void> {
  await db
    .updateTable('users')
    .set({ email: v.email, name: v.name, docnumber: v.docnumber, role_id: v.roleId, active: v.active, language: v.language, time_zone: v.timeZone, updated_at: new Date() })
    .where('id', '=', id)
    .where('entity_id', '=', doer.entityId)
    .execute();
}

export async function removeUser(db: Executor, doer: Doer, id: number): Promise<void> {
  await db.deleteFrom('users').where('id', '=', id).where('entity_id', '=', doer.entityId).execute();
}

/** Clears the lock and the failure count of an account, and the failures counted against its email. */
export async function clearLock(db: Executor, doer: Doer, u: { id: number; email: string }): Promise<void> {
  await db.updateTable('users').set({ locked: false, locked_at: null, failed_logins: 0, updated_at: new Date() }).where('id', '=', u.id).where('entity_id', '=', doer.entityId).execute();
  await db.deleteFrom('auth_throttle').where('key', '=', `account:${u.email.toLowerCase()}`).execute();
}

/** The tenant's plan: accounts used of the allowed number, disk used of the quota. */
export async function planOf(db: Db, actor: Actor) {
  const e = await db
    .selectFrom('entities')
    .where('id', '=', actor.entityId)
    .select([
      'plan', 'account_limit', 'disk_quota_mb',
      sql<number>`(select count(*) from users where entity_id = entities.id)::int`.as('used'),
      sql<string>`(select coalesce(sum(size), 0) from files where entity_id = entities.id)`.as('disk'),
    ])
    .executeTakeFirstOrThrow();
  const diskUsedMb = Math.round((Number(e.disk) / (1024 * 1024)) * 100) / 100;
  return { plan: e.plan, accountLimit: e.account_limit, accountsUsed: e.used, diskQuotaMb: e.disk_quota_mb, diskUsedMb };
}
