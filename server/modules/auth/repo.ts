/**
 * The accounts' SQL for signing in, signing up, recovering and changing a
 * password, and the profile. Before sign-in there is no actor: the page's
 * project names the tenant (`resolveProject`), and sign-in by email looks
 * across tenants, as an email is unique. Once signed in, every function takes
 * the actor and reads only its own account. Sessions, the failure throttle
 * and the captcha keep their SQL in sessions.ts, throttle.ts and captcha.ts.
 */
import { sql, type Transaction } from 'kysely';
import { MAX_FAILED_LOGINS } from '../../../core/auth.js';
import type { Db } from '../../db/pool.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import type { Actor } from '../acl/policy.js';

type Trx = Transaction<Database>;
type Executor = Db | Trx;

// ---------------------------------------------------------------- projects

export interface ProjectRef {
  id: number;
  entityId: number;
  idleSeconds: number;
}

/** The project a sign-in page names (or the default), of an active tenant: branding and the session's idle time. */
export async function resolveProject(db: Db, uid: string | undefined): Promise<ProjectRef | undefined> {
  let q = db
    .selectFrom('projects')
    .innerJoin('entities', 'entities.id', 'projects.entity_id')
    .where('entities.active', '=', true)
    .select(['projects.id', 'projects.entity_id', 'projects.idle_timeout_seconds']);
  q = uid && uid !== 'default' ? q.where('projects.uid', '=', uid) : q.orderBy('projects.is_default', 'desc').orderBy('projects.id').limit(1);
  const row = await q.executeTakeFirst();
  return row && { id: row.id, entityId: row.entity_id, idleSeconds: row.idle_timeout_seconds };
}

/** The project a user's session belongs to: the one they signed in at if it is their tenant's, else their tenant's first. */
export async function sessionProject(db: Db, entityId: number, named: ProjectRef | undefined): Promise<ProjectRef | undefined> {
  if (named && named.entityId === entityId) return named;
  const row = await db
    .selectFrom('projects')
    .where('entity_id', '=', entityId)
    .orderBy('is_default', 'desc')
    .orderBy('id')
    .select(['id', 'entity_id', 'idle_timeout_seconds'])
    .executeTakeFirst();
  return row && { id: row.id, entityId: row.entity_id, idleSeconds: row.idle_timeout_seconds };
}

/** The uid of the project the actor's session belongs to. */
export async function sessionProjectUid(db: Db, actor: Actor): Promise<string | null> {
  if (!actor.projectId) return null;
  const row = await db.selectFrom('projects').where('id', '=', actor.projectId).where('entity_id', '=', actor.entityId).select('uid').executeTakeFirst();
  return row?.uid ?? null;
}

// ---------------------------------------------------------------- signing in

/** The account a sign-in names: by email in any tenant, or by document number in the page's project's tenant. Never a service account (tokens only). */
export async function findLogin(db: Db, by: { email: string } | { docnumber: string; entityId: number }) {
  let q = db
    .selectFrom('users as u')
    .innerJoin('entities as e', 'e.id', 'u.entity_id')
    .where('u.service_account', '=', false)
    .select(['u.id', 'u.entity_id', 'u.password_hash', 'u.active', 'u.locked', 'u.failed_logins', 'e.active as entity_active']);
  q = 'email' in by ? q.where(sql<string>`lower(u.email)`, '=', by.email.trim().toLowerCase()) : q.where('u.docnumber', '=', by.docnumber.trim()).where('u.entity_id', '=', by.entityId);
  return q.executeTakeFirst();
}

/** Counts a wrong password against the account; MAX_FAILED_LOGINS in a row lock it. */
export async function recordFailedLogin(db: Db, user: { id: number; failed_logins: number }): Promise<void> {
  const failed = user.failed_logins + 1;
  await db
    .updateTable('users')
    .set(failed >= MAX_FAILED_LOGINS ? { failed_logins: failed, locked: true, locked_at: new Date() } : { failed_logins: failed })
    .where('id', '=', user.id)
    .execute();
}

export async function clearFailedLogins(db: Db, userId: number): Promise<void> {
  await db.updateTable('users').set({ failed_logins: 0 }).where('id', '=', userId).execute();
}

// ---------------------------------------------------------------- signing up

/** The tenant's applicant role, which sign-up gives; none means the tenant takes no sign-ups. */
export async function applicantRoleId(trx: Trx, entityId: number): Promise<number | undefined> {
  const role = await trx.selectFrom('acl_roles').where('entity_id', '=', entityId).where('code', '=', 'applicant').select('id').executeTakeFirst();
  return role?.id;
}

/**
 * The plan's account limit and the accounts in use, with the tenant locked
 * until the transaction ends, so two new accounts cannot both take the last
 * place.
 */
export async function lockAccountCount(db: Executor, entityId: number): Promise<{ limit: number; used: number }> {
  const entity = await db.selectFrom('entities').where('id', '=', entityId).select('account_limit').forUpdate().executeTakeFirstOrThrow();
  const { n } = await db
    .selectFrom('users')
    .where('entity_id', '=', entityId)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return { limit: entity.account_limit, used: Number(n) };
}

/** A new applicant account; undefined when the address, or the document number in the tenant, has one already. */
export async function insertApplicant(
  trx: Trx,
  account: { entityId: number; roleId: number; email: string; name: string; docnumber: string | null; passwordHash: string; language: 'en' | 'es' },
): Promise<number | undefined> {
  const created = await trx
    .insertInto('users')
    .values({
      entity_id: account.entityId,
      email: account.email,
      name: account.name,
      docnumber: account.docnumber,
      role_id: account.roleId,
      password_hash: account.passwordHash,
      language: account.language,
    })
    // Either unique index (the address, or the document number in the tenant) says who is there already.
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst();
  return created?.id;
}

/** The account holding an address, in any tenant (addresses are unique). */
export async function accountByEmail(db: Executor, email: string, options: { activeOnly?: boolean } = {}) {
  let q = db.selectFrom('users').where(sql<string>`lower(email)`, '=', email.trim().toLowerCase());
  // A password link is for people: a service account has none.
  if (options.activeOnly) q = q.where('active', '=', true).where('service_account', '=', false);
  return q.select(['id', 'entity_id', 'email', 'name', 'language', 'locked']).executeTakeFirst();
}

// ---------------------------------------------------------------- passwords

/** Reset links sent to the user in the last hour. */
export async function recentResetLinks(db: Db, userId: number): Promise<number> {
  const recent = await db
    .selectFrom('password_resets')
    .where('user_id', '=', userId)
    .where('created_at', '>', new Date(Date.now() - 3600_000))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(recent.n);
}

export async function insertResetLink(trx: Trx, userId: number, tokenHash: string, expiresAt: Date): Promise<void> {
  await trx.insertInto('password_resets').values({ user_id: userId, token_hash: tokenHash, expires_at: expiresAt }).execute();
}

/** Marks an unused, unexpired reset link used and answers its user; undefined for any other link. */
export async function useResetLink(trx: Trx, tokenHash: string): Promise<number | undefined> {
  const reset = await trx
    .updateTable('password_resets')
    .set({ used_at: new Date() })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', new Date())
    .returning('user_id')
    .executeTakeFirst();
  return reset?.user_id;
}

/** Every unused reset link of the user ends. */
export async function endResetLinks(trx: Trx, userId: number): Promise<void> {
  await trx.updateTable('password_resets').set({ used_at: new Date() }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
}

/** A new password from a reset link, which also unlocks the account; answers what the user signs in with. */
export async function setPasswordAndUnlock(trx: Trx, userId: number, passwordHash: string) {
  return trx
    .updateTable('users')
    .set({ password_hash: passwordHash, locked: false, locked_at: null, failed_logins: 0, updated_at: new Date() })
    .where('id', '=', userId)
    .returning(['email', 'docnumber'])
    .executeTakeFirstOrThrow();
}

/** The actor's password hash. */
export async function passwordHashOf(db: Db, actor: Actor): Promise<string> {
  const user = await db.selectFrom('users').where('id', '=', actor.userId).where('entity_id', '=', actor.entityId).select('password_hash').executeTakeFirstOrThrow();
  return user.password_hash;
}

export async function setPassword(trx: Trx, actor: Actor, passwordHash: string): Promise<void> {
  await trx.updateTable('users').set({ password_hash: passwordHash, updated_at: new Date() }).where('id', '=', actor.userId).where('entity_id', '=', actor.entityId).execute();
}

// ---------------------------------------------------------------- the profile

const PROFILE = ['name', 'email', 'docnumber', 'language', 'time_zone'] as const;
type ProfileRow = { name: string; email: string; docnumber: string | null; language: 'en' | 'es'; time_zone: string };
const profileView = (u: ProfileRow) => ({ name: u.name, email: u.email, docnumber: u.docnumber, language: u.language, timeZone: u.time_zone });

export async function findProfile(db: Db, actor: Actor) {
  return profileView(await db.selectFrom('users').where('id', '=', actor.userId).where('entity_id', '=', actor.entityId).select(PROFILE).executeTakeFirstOrThrow());
}

export async function updateProfile(db: Db, actor: Actor, p: { name: string; language: 'en' | 'es'; timeZone: string }) {
  const u = await db
    .updateTable('users')
    .set({ name: p.name, language: p.language, time_zone: p.timeZone, updated_at: new Date() })
    .where('id', '=', actor.userId)
    .where('entity_id', '=', actor.entityId)
    .returning(PROFILE)
    .executeTakeFirst();
  if (!u) throw new AppError('NOT_FOUND');
  return profileView(u);
}
