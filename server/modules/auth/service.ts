/**
 * Sign-in, sign-up, password recovery and change: named commands that take
 * the database and what they need, called by the routes.
 */
import { hash, verify } from '@node-rs/argon2';
import { sql } from 'kysely';
import { MAX_FAILED_LOGINS, RESET_TOKEN_MINUTES } from '../../../core/auth.js';
import type { Db } from '../../db/pool.js';
import { AppError } from '../../errors.js';
import { translate } from '../../i18n.js';
import { queueMail } from '../mail/outbox.js';
import { createSession, endOtherSessions } from './sessions.js';
import { accountKey, ACCOUNT_LIMIT, ADDRESS_LIMIT, addressKey, assertNotThrottled, clearThrottle, recordFailure } from './throttle.js';
import { hashToken, newToken } from './tokens.js';

export const hashPassword = (password: string) => hash(password);

// Verifying against this when no account matches keeps the answer time the same.
let dummyHash: Promise<string> | undefined;
const dummy = () => (dummyHash ??= hash('not-a-real-password-0'));

interface ProjectRef {
  id: number;
  entityId: number;
  idleSeconds: number;
}

/** The project a sign-in page names (or the default), for branding and the session's idle time. */
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
async function sessionProject(db: Db, entityId: number, named: ProjectRef | undefined): Promise<ProjectRef | undefined> {
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

export interface SignInInput {
  /** How the user is found: by email anywhere, or by document number within the page's project. */
  by: { email: string } | { docnumber: string };
  password: string;
  project?: string;
  ip: string;
}

/**
 * Checks the password and opens a session. Unknown account and wrong
 * password answer alike; a locked account says so only to someone who knows
 * its password; N wrong passwords in a row lock it.
 */
export async function signIn(db: Db, input: SignInInput): Promise<{ token: string; idleSeconds: number }> {
  const login = 'email' in input.by ? input.by.email : `doc:${input.by.docnumber}`;
  const keys: Array<[string, number]> = [
    [accountKey(login), ACCOUNT_LIMIT],
    [addressKey(input.ip), ADDRESS_LIMIT],
  ];
  await assertNotThrottled(db, keys);
  const project = await resolveProject(db, input.project);

  let q = db
    .selectFrom('users as u')
    .innerJoin('entities as e', 'e.id', 'u.entity_id')
    .select(['u.id', 'u.entity_id', 'u.password_hash', 'u.active', 'u.locked', 'u.failed_logins', 'e.active as entity_active']);
  if ('email' in input.by) {
    q = q.where(sql<string>`lower(u.email)`, '=', input.by.email.trim().toLowerCase());
  } else {
    if (!project) throw new AppError('INVALID_CREDENTIALS');
    q = q.where('u.docnumber', '=', input.by.docnumber.trim()).where('u.entity_id', '=', project.entityId);
  }
  const user = await q.executeTakeFirst();
  const ok = await verify(user?.password_hash ?? (await dummy()), input.password).catch(() => false);

  if (!user || !ok) {
    await recordFailure(db, keys.map(([k]) => k));
    if (user && !user.locked) {
      const failed = user.failed_logins + 1;
      await db
        .updateTable('users')
        .set(failed >= MAX_FAILED_LOGINS ? { failed_logins: failed, locked: true, locked_at: new Date() } : { failed_logins: failed })
        .where('id', '=', user.id)
        .execute();
    }
    throw new AppError('INVALID_CREDENTIALS');
  }
  if (user.locked) throw new AppError('ACCOUNT_LOCKED');
  if (!user.active || !user.entity_active) throw new AppError('ACCOUNT_INACTIVE');

  await db.updateTable('users').set({ failed_logins: 0 }).where('id', '=', user.id).execute();
  await clearThrottle(db, accountKey(login));
  const sessionOf = await sessionProject(db, user.entity_id, project);
  const idleSeconds = sessionOf?.idleSeconds ?? 3000;
  const token = await createSession(db, user.id, sessionOf?.id ?? null, idleSeconds);
  return { token, idleSeconds };
}

export interface SignUpInput {
  name: string;
  email: string;
  docnumber?: string;
  password: string;
  project?: string;
}

/** An applicant account in the tenant of the page's project; role, tenant and state are never taken from the request. */
export async function signUp(db: Db, input: SignUpInput): Promise<void> {
  const project = await resolveProject(db, input.project);
  if (!project) throw new AppError('NOT_FOUND');
  const passwordHash = await hashPassword(input.password);
  await db.transaction().execute(async (trx) => {
    const role = await trx
      .selectFrom('acl_roles')
      .where('entity_id', '=', project.entityId)
      .where('code', '=', 'applicant')
      .select('id')
      .executeTakeFirst();
    if (!role) throw new AppError('SIGNUP_CLOSED');
    await assertAccountAvailable(trx, project.entityId);
    const taken = await trx
      .selectFrom('users')
      .where(sql<string>`lower(email)`, '=', input.email.toLowerCase())
      .select('id')
      .executeTakeFirst();
    if (taken) throw new AppError('EMAIL_TAKEN');
    await trx
      .insertInto('users')
      .values({
        entity_id: project.entityId,
        email: input.email,
        name: input.name,
        docnumber: input.docnumber || null,
        role_id: role.id,
        password_hash: passwordHash,
      })
      .execute()
      .catch((e: { code?: string }) => {
        if (e.code === '23505') throw new AppError('EMAIL_TAKEN');
        throw e;
      });
  });
}

/** The plan's account limit: refuse a new account once every allowed one is in use. */
export async function assertAccountAvailable(db: Db, entityId: number): Promise<void> {
  // Lock the tenant row so two sign-ups cannot both take the last place.
  const entity = await db.selectFrom('entities').where('id', '=', entityId).select('account_limit').forUpdate().executeTakeFirstOrThrow();
  const { n } = await db
    .selectFrom('users')
    .where('entity_id', '=', entityId)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  if (Number(n) >= entity.account_limit) throw new AppError('ACCOUNT_LIMIT', { limit: entity.account_limit });
}

/**
 * Emails a single-use reset link when the account exists and may sign in;
 * the caller answers the same either way. Links are built from PUBLIC_URL
 * only, never from request headers.
 */
export async function requestPasswordReset(
  db: Db,
  input: { email: string; publicUrl: string; smtpConfigured: boolean },
): Promise<{ queued: boolean }> {
  const user = await db
    .selectFrom('users')
    .where(sql<string>`lower(email)`, '=', input.email.trim().toLowerCase())
    .where('active', '=', true)
    .select(['id', 'entity_id', 'email', 'name', 'language'])
    .executeTakeFirst();
  if (!user) return { queued: false };
  await sendResetLink(db, user, input.publicUrl, input.smtpConfigured);
  return { queued: true };
}

export async function sendResetLink(
  db: Db,
  user: { id: number; entity_id: number; email: string; name: string; language: 'en' | 'es' },
  publicUrl: string,
  smtpConfigured: boolean,
): Promise<void> {
  // At most 5 links an hour per account, so the form cannot flood a mailbox.
  const recent = await db
    .selectFrom('password_resets')
    .where('user_id', '=', user.id)
    .where('created_at', '>', new Date(Date.now() - 3600_000))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  if (Number(recent.n) >= 5) return;
  const { token, hash: tokenHash } = newToken();
  const link = `${publicUrl}/change-password/${token}`;
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('password_resets')
      .values({ user_id: user.id, token_hash: tokenHash, expires_at: new Date(Date.now() + RESET_TOKEN_MINUTES * 60_000) })
      .execute();
    await queueMail(
      trx,
      {
        entityId: user.entity_id,
        to: user.email,
        subject: translate(user.language, 'mail.reset.subject'),
        text: translate(user.language, 'mail.reset.body', { name: user.name, link, minutes: RESET_TOKEN_MINUTES }),
      },
      smtpConfigured,
    );
  });
}

/** Sets a new password from a reset link: once, within its hour; every session of the user ends. */
export async function resetPassword(db: Db, token: string, password: string): Promise<void> {
  const passwordHash = await hashPassword(password);
  await db.transaction().execute(async (trx) => {
    const reset = await trx
      .updateTable('password_resets')
      .set({ used_at: new Date() })
      .where('token_hash', '=', hashToken(token))
      .where('used_at', 'is', null)
      .where('expires_at', '>', new Date())
      .returning('user_id')
      .executeTakeFirst();
    if (!reset) throw new AppError('INVALID_RESET_LINK');
    await trx.updateTable('users').set({ password_hash: passwordHash, updated_at: new Date() }).where('id', '=', reset.user_id).execute();
    // Other links of the same user die with this one.
    await trx.updateTable('password_resets').set({ used_at: new Date() }).where('user_id', '=', reset.user_id).where('used_at', 'is', null).execute();
    await endOtherSessions(trx, reset.user_id, null);
  });
}

/** Profile password change: the current password is required; other sessions end. */
export async function changePassword(db: Db, userId: number, sessionId: number, current: string, password: string): Promise<void> {
  const user = await db.selectFrom('users').where('id', '=', userId).select('password_hash').executeTakeFirstOrThrow();
  if (!(await verify(user.password_hash, current).catch(() => false))) throw new AppError('WRONG_PASSWORD');
  const passwordHash = await hashPassword(password);
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('users').set({ password_hash: passwordHash, updated_at: new Date() }).where('id', '=', userId).execute();
    await endOtherSessions(trx, userId, sessionId);
  });
}
