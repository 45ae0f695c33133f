/**
 * Accounts, as named verbs: sign in, sign up, ask for and use a password
 * reset link, change a password. Each takes the database and what it needs
 * (before sign-in there is no actor; a password change takes the actor);
 * the routes and the users module (an administrator's new account and reset
 * link) call these same functions. Their SQL is in repo.ts.
 */
import { hash, verify } from '@node-rs/argon2';
import { RESET_TOKEN_MINUTES } from '../../../core/auth.js';
import type { Db } from '../../db/pool.js';
import { AppError } from '../../errors.js';
import { translate } from '../../i18n.js';
import type { Actor } from '../acl/policy.js';
import { queueMail } from '../mail/outbox.js';
import {
  accountByEmail,
  applicantRoleId,
  clearFailedLogins,
  endResetLinks,
  findLogin,
  insertApplicant,
  insertResetLink,
  lockAccountCount,
  passwordHashOf,
  recentResetLinks,
  recordFailedLogin,
  resolveProject,
  sessionProject,
  setPassword,
  setPasswordAndUnlock,
  useResetLink,
} from './repo.js';
import { createSession, endOtherSessions } from './sessions.js';
import { accountKey, ACCOUNT_LIMIT, ADDRESS_LIMIT, addressKey, assertNotThrottled, clearThrottle, countEvent, recordFailure } from './throttle.js';
import { hashToken, newToken } from './tokens.js';

export const hashPassword = (password: string) => hash(password);

// Verifying against this when no account matches keeps the answer time the same.
let dummyHash: Promise<string> | undefined;
const dummy = () => (dummyHash ??= hash('not-a-real-password-0'));

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
  if (!('email' in input.by) && !project) throw new AppError('INVALID_CREDENTIALS');
  const user = await findLogin(db, 'email' in input.by ? input.by : { docnumber: input.by.docnumber, entityId: (project as { entityId: number }).entityId });
  const ok = await verify(user?.password_hash ?? (await dummy()), input.password).catch(() => false);

  if (!user || !ok) {
    await recordFailure(db, keys.map(([k]) => k));
    if (user && !user.locked) await recordFailedLogin(db, user);
    throw new AppError('INVALID_CREDENTIALS');
  }
  if (user.locked) throw new AppError('ACCOUNT_LOCKED');
  if (!user.active || !user.entity_active) throw new AppError('ACCOUNT_INACTIVE');

  await clearFailedLogins(db, user.id);
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
    const roleId = await applicantRoleId(trx, project.entityId);
    if (!roleId) throw new AppError('SIGNUP_CLOSED');
    await assertAccountAvailable(trx, project.entityId);
    const created = await insertApplicant(trx, { entityId: project.entityId, roleId, email, name: input.name, docnumber: input.docnumber || null, passwordHash, language: input.language });
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
    const owner = await accountByEmail(trx, email);
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

/**
 * The plan's account limit: refuses a new account once every allowed one is
 * in use. Call it inside the transaction that creates the account: the
 * tenant stays locked until it ends.
 */
export async function assertAccountAvailable(db: Db, entityId: number): Promise<void> {
  const { limit, used } = await lockAccountCount(db, entityId);
  if (used >= limit) throw new AppError('ACCOUNT_LIMIT', { limit });
}

/**
 * Emails a single-use reset link when the account exists and may sign in;
 * the caller answers the same either way. Links are built from PUBLIC_URL
 * only, never from request headers.
 */
export async function requestPasswordReset(db: Db, input: { email: string; publicUrl: string; smtpConfigured: boolean }): Promise<{ queued: boolean }> {
  // A locked account gets its link too: a new password is how its owner unlocks it.
  const user = await accountByEmail(db, input.email, { activeOnly: true });
  if (!user) return { queued: false };
  await sendResetLink(db, user, input.publicUrl, input.smtpConfigured);
  return { queued: true };
}

/** Queues a reset link to the user (at most 5 an hour per account, so the form cannot flood a mailbox). */
export async function sendResetLink(
  db: Db,
  user: { id: number; entity_id: number; email: string; name: string; language: 'en' | 'es'; locked?: boolean },
  publicUrl: string,
  smtpConfigured: boolean,
): Promise<void> {
  if ((await recentResetLinks(db, user.id)) >= 5) return;
  const { token, hash: tokenHash } = newToken();
  const link = `${publicUrl}/change-password/${token}`;
  await db.transaction().execute(async (trx) => {
    await insertResetLink(trx, user.id, tokenHash, new Date(Date.now() + RESET_TOKEN_MINUTES * 60_000));
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
    const userId = await useResetLink(trx, hashToken(token));
    if (userId === undefined) throw new AppError('INVALID_RESET_LINK');
    const user = await setPasswordAndUnlock(trx, userId, passwordHash);
    // Other links of the same user die with this one.
    await endResetLinks(trx, userId);
    await endOtherSessions(trx, userId, null);
    return user;
  });
  // The failures counted against the account's logins end with the old password.
  await clearThrottle(db, accountKey(user.email));
  if (user.docnumber) await clearThrottle(db, accountKey(`doc:${user.docnumber}`));
}

/** The actor's own password change: the current password is required; the actor's other sessions end. */
export async function changePassword(db: Db, actor: Actor, current: string, password: string): Promise<void> {
  if (!(await verify(await passwordHashOf(db, actor), current).catch(() => false))) throw new AppError('WRONG_PASSWORD');
  const passwordHash = await hashPassword(password);
  await db.transaction().execute(async (trx) => {
    await setPassword(trx, actor, passwordHash);
    await endOtherSessions(trx, actor.userId, actor.sessionId);
  });
}
