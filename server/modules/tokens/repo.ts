/**
 * The SQL of API tokens and service accounts. Every function takes the
 * acting user and applies their tenant; a person's own tokens are theirs
 * alone, and a service account is one of the tenant's users flagged
 * `service_account`.
 */
import { sql, type Transaction } from 'kysely';
import type { Db } from '../../db/pool.js';
import type { Database } from '../../db/types.js';
import type { Actor, Doer } from '../acl/policy.js';

type Executor = Db | Transaction<Database>;

const tokenColumns = ['t.id', 't.name', 't.prefix', 't.read_only', 't.expires_at', 't.last_used_at', 't.created_at'] as const;

type TokenRow = { id: number; name: string; prefix: string; read_only: boolean; expires_at: Date | null; last_used_at: Date | null; created_at: Date };

export const tokenView = (t: TokenRow) => ({
  id: t.id,
  name: t.name,
  prefix: t.prefix,
  readOnly: t.read_only,
  expiresAt: t.expires_at,
  lastUsedAt: t.last_used_at,
  createdAt: t.created_at,
  expired: t.expires_at !== null && t.expires_at.getTime() <= Date.now(),
});

/** The tokens of one user of the actor's tenant, newest first. */
export async function tokensOf(db: Db, actor: Actor, userId: number) {
  const rows = await db
    .selectFrom('api_tokens as t')
    .where('t.entity_id', '=', actor.entityId)
    .where('t.user_id', '=', userId)
    .select(tokenColumns)
    .orderBy('t.created_at', 'desc')
    .orderBy('t.id', 'desc')
    .execute();
  return rows.map(tokenView);
}

export async function insertToken(
  db: Executor,
  actor: Actor,
  v: { userId: number; name: string; tokenHash: string; prefix: string; readOnly: boolean; expiresAt: Date | null },
) {
  const row = await db
    .insertInto('api_tokens')
    .values({ entity_id: actor.entityId, user_id: v.userId, name: v.name, token_hash: v.tokenHash, prefix: v.prefix, read_only: v.readOnly, expires_at: v.expiresAt, created_by: actor.userId })
    .returning(['id', 'name', 'prefix', 'read_only', 'expires_at', 'last_used_at', 'created_at'])
    .executeTakeFirstOrThrow();
  return tokenView(row);
}

/** Deletes one token of that user; false when there is none (another user's, another tenant's, or gone). */
export async function deleteToken(db: Executor, actor: Actor, userId: number, tokenId: number): Promise<boolean> {
  const r = await db.deleteFrom('api_tokens').where('entity_id', '=', actor.entityId).where('user_id', '=', userId).where('id', '=', tokenId).executeTakeFirst();
  return r.numDeletedRows > 0n;
}

/** Live tokens of a user: a cap keeps a leaked session from minting thousands. */
export async function countTokens(db: Executor, actor: Actor, userId: number): Promise<number> {
  const r = await db.selectFrom('api_tokens').where('entity_id', '=', actor.entityId).where('user_id', '=', userId).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(r.n);
}

// ---------------------------------------------------------------- service accounts

function serviceAccounts(db: Executor, doer: Doer) {
  return db
    .selectFrom('users as u')
    .innerJoin('acl_roles as r', 'r.id', 'u.role_id')
    .where('u.entity_id', '=', doer.entityId)
    .where('u.service_account', '=', true)
    .select((eb) => [
      'u.id', 'u.name', 'u.role_id', 'r.name as role_name', 'r.super_admin as role_super_admin', 'u.active', 'u.created_at',
      eb.selectFrom('api_tokens as t').whereRef('t.user_id', '=', 'u.id').whereRef('t.entity_id', '=', 'u.entity_id').select(sql<number>`count(*)::int`.as('n')).as('tokens'),
      eb.selectFrom('api_tokens as t').whereRef('t.user_id', '=', 'u.id').whereRef('t.entity_id', '=', 'u.entity_id').select(sql<Date | null>`max(t.last_used_at)`.as('m')).as('last_used_at'),
    ]);
}

type AccountRow = { id: number; name: string; role_id: number; role_name: string; role_super_admin: boolean; active: boolean; created_at: Date; tokens: number | null; last_used_at: Date | null };

export const accountView = (a: AccountRow) => ({
  id: a.id,
  name: a.name,
  roleId: a.role_id,
  roleName: a.role_name,
  active: a.active,
  createdAt: a.created_at,
  tokens: a.tokens ?? 0,
  lastUsedAt: a.last_used_at,
});

export async function listServiceAccounts(db: Db, actor: Actor) {
  return (await serviceAccounts(db, actor).orderBy('u.name').orderBy('u.id').execute()).map(accountView);
}

/** One service account of the tenant; undefined for a person or another tenant's. */
export async function findServiceAccount(db: Executor, actor: Actor, id: number) {
  return serviceAccounts(db, actor).where('u.id', '=', id).executeTakeFirst();
}

/** Locks the row first, so two changes of one account do not cross. */
export async function lockServiceAccount(db: Executor, actor: Actor, id: number) {
  const locked = await db.selectFrom('users').where('id', '=', id).where('entity_id', '=', actor.entityId).where('service_account', '=', true).select('id').forUpdate().executeTakeFirst();
  return locked && findServiceAccount(db, actor, id);
}

export async function insertServiceAccount(db: Executor, actor: Actor, v: { name: string; email: string; roleId: number; active: boolean; passwordHash: string }): Promise<number> {
  const row = await db
    .insertInto('users')
    .values({
      entity_id: actor.entityId, email: v.email, name: v.name, role_id: v.roleId, active: v.active, password_hash: v.passwordHash,
      service_account: true, language: actor.language, time_zone: actor.timeZone,
      // Nothing is mailed to a service account.
      digest: false, email_events: [],
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateServiceAccount(db: Executor, actor: Actor, id: number, v: { name: string; roleId: number; active: boolean }): Promise<void> {
  await db
    .updateTable('users')
    .set({ name: v.name, role_id: v.roleId, active: v.active, updated_at: new Date() })
    .where('id', '=', id)
    .where('entity_id', '=', actor.entityId)
    .where('service_account', '=', true)
    .execute();
}
