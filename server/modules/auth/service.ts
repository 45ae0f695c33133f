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
import { accountKey, ACCOUNT_LIMIT, ADDRESS_LIMIT, addressKey, assertNotThrottled, clearThrottle, countEvent, recordFailure } from './throttle.js';
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
  /** The language of the sign-up page: the new account's, and its welcome mail's. */
  language: 'en' | 'es';
}

/** Warnings to one address about sign-ups with it, at most this many in a throttle window. */
const SIGNUP_WARNINGS_PER_WINDOW = 3;

/**
 * An applicant account in the tenant of the page's project; role, tenant and
 * state are never taken from the request. The answer is the same whether or
 * not the address already has an account, so that it tells nobody which
 * addresses do: what happened goes by email to the address, whose owner
 * alone reads it. A new account gets a welcome; the owner of an existing one
 * is told that someone tried, with the way to recover the password; a
 * document number that another account of the tenant holds is said only to
 * the address that asked.
 */
export async function signUp(db: Db, input: SignUpInput, mail: { publicUrl: string; smtpConfigured: boolean }): Promise<void> {
  const project = await resolveProject(db, input.project);
  if (!project) throw new AppError('NOT_FOUND');
  // Hashed whatever follows, so that a known address answers as slowly as a new one.
  const passwordHash = await hashPassword(input.password);
  const email = input.email.trim();
  const loginLink = `${mail.publicUrl}/login${input.project && input.project !== 'default' ? `/${encodeURIComponent(input.project)}` : ''}`;
  const recoveryLink = `${mail.publicUrl}/user/recovery-password`;
  await db.transaction().execute(async (trx) => {
    const role = await trx
      .selectFrom('acl_roles')
      .where('entity_id', '=', project.entityId)
      .where('code', '=', 'applicant')
      .select('id')
      .executeTakeFirst();
    if (!role) throw new AppError('SIGNUP_CLOSED');
    await assertAccountAvailable(trx, project.entityId);
    const created = await trx
      .insertInto('users')
      .values({
        entity_id: project.entityId,
        email,
        name: input.name,
        docnumber: input.docnumber || null,
        role_id: role.id,
        password_hash: passwordHash,
        language: input.language,
      })
      // Either unique index (the address, or the document number in the tenant) says who is there already.
      .onConflict((oc) => oc.doNothing())
      .returning('id')
      .executeTakeFirst();
    if (created) {
      await queueMail(
        trx,
        {
          entityId: project.entityId,
          to: email,
          subject: translate(input.language, 'mail.signup.welcome.subject'),
          text: translate(input.language, 'mail.signup.welcome.body', { name: input.name, link: loginLink }),
        },
        mail.smtpConfigured,
      );
      return;
    }
    const owner = await trx
      .selectFrom('users')
      .where(sql<string>`lower(email)`, '=', email.toLowerCase())
      .select(['entity_id', 'email', 'name', 'language'])
      .executeTakeFirst();
    // Someone filling the form again and again must not fill the owner's mailbox.
    if ((await countEvent(trx, `signup:${email.toLowerCase()}`)) > SIGNUP_WARNINGS_PER_WINDOW) return;
    if (!owner && !input.docnumber) return;
    const message = owner
      ? {
          entityId: owner.entity_id,
          to: owner.email,
          subject: translate(owner.language, 'mail.signup.exists.subject'),
          text: translate(owner.language, 'mail.signup.exists.body', { name: owner.name, email: owner.email, link: recoveryLink }),
        }
      : {
          entityId: project.entityId,
          to: email,
          subject: translate(input.language, 'mail.signup.docnumberTaken.subject'),
          text: translate(input.language, 'mail.signup.docnumberTaken.body', { name: input.name, docnumber: input.docnumber, link: loginLink, recovery: recoveryLink }),
        };
    await queueMail(trx, message, mail.smtpConfigured);
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
    .select(['id', 'entity_id', 'email', 'name', 'language', 'locked'])
    .executeTakeFirst();
  // A locked account gets its link too: a new password is how its owner unlocks it.
  if (!user) return { queued: false };
  await sendResetLink(db, user, input.publicUrl, input.smtpConfigured);
  return { queued: true };
}

export async function sendResetLink(
  db: Db,
  user: { id: number; entity_id: number; email: string; name: string; language: 'en' | 'es'; locked?: boolean },
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
        text:
          translate(user.language, 'mail.reset.body', { name: user.name, link, minutes: RESET_TOKEN_MINUTES }) +
          (user.locked ? `\n\n${translate(user.language, 'mail.reset.unlocks')}` : ''),
      },
      smtpConfigured,
    );
  });
}

/**
 * Sets a new password from a reset link: once, within its hour; every
 * session of the user ends. It also unlocks an account locked by failed
 * sign-ins: whoever reads the mailbox is its owner, who need not wait for an
 * administrator (and anyone who locks an address out cannot keep it so).
 */
export async function resetPassword(db: Db, token: string, password: string): Promise<void> {
  const passwordHash = await hashPassword(password);
  const user = await db.transaction().execute(async (trx) => {
    const reset = await trx
      .updateTable('password_resets')
      .set({ used_at: new Date() })
      .where('token_hash', '=', hashToken(token))
      .where('used_at', 'is', null)
      .where('expires_at', '>', new Date())
      .returning('user_id')
      .executeTakeFirst();
    if (!reset) throw new AppError('INVALID_RESET_LINK');
    const user = await trx
      .updateTable('users')
      .set({ password_hash: passwordHash, locked: false, locked_at: null, failed_logins: 0, updated_at: new Date() })
      .where('id', '=', reset.user_id)
      .returning(['email', 'docnumber'])
      .executeTakeFirstOrThrow();
    // Other links of the same user die with this one.
    await trx.updateTable('password_resets').set({ used_at: new Date() }).where('user_id', '=', reset.user_id).where('used_at', 'is', null).execute();
    await endOtherSessions(trx, reset.user_id, null);
    return user;
  });
  // The failures counted against the account's logins end with the old password.
  await clearThrottle(db, accountKey(user.email));
  if (user.docnumber) await clearThrottle(db, accountKey(`doc:${user.docnumber}`));
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
