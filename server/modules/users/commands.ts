/**
 * What changes users, as named verbs, each checked by policy.ts: create a
 * user with a role (within the tenant's account limit; without a password
 * the user is sent a reset link to choose one), change one (a deactivated
 * user is signed out at once), delete one, unlock an account locked by
 * failed sign-ins, send a reset link. The writes to the users table are one
 * transaction each; the reset link is queued after it, in its own.
 */
import { randomBytes } from 'node:crypto';
import { emailSchema } from '../../../core/auth.js';
import type { Db } from '../../db/pool.js';
import { AppError } from '../../errors.js';
import type { Actor } from '../acl/policy.js';
import { assertAccountAvailable, hashPassword, sendResetLink } from '../auth/commands.js';
import { endOtherSessions } from '../auth/sessions.js';
import { assertRoleAssignable, assertUserAction } from './policy.js';
import { clearLock, findUser, insertUser, lockUser, removeUser, roleOfTenant, updateUser, type UserRow } from './repo.js';
import type { CreateUser, UpdateUser } from './schema.js';

/** Where reset links point and whether mail can leave (the app's configuration). */
export interface MailEnv {
  publicUrl: string;
  smtpConfigured: boolean;
}

const record = (u: UserRow) => ({ id: u.id, superAdmin: u.role_super_admin });
/** The user as a reset link is addressed. */
const linkTo = (actor: Actor, u: UserRow) => ({ id: u.id, entity_id: actor.entityId, email: u.email, name: u.name, language: u.language });

export async function createUser(db: Db, mail: MailEnv, actor: Actor, b: CreateUser): Promise<number> {
  assertRoleAssignable(actor, await roleOfTenant(db, actor, b.roleId));
  const passwordHash = await hashPassword(b.password ?? randomBytes(24).toString('base64url'));
  const id = await db.transaction().execute(async (trx) => {
    await assertAccountAvailable(trx, actor.entityId);
    return insertUser(trx, actor, { ...b, docnumber: b.docnumber || null, passwordHash });
  });
  if (!b.password) await sendResetLink(db, linkTo(actor, await findUser(db, actor, id)), mail.publicUrl, mail.smtpConfigured);
  return id;
}

/** Changes a user; the role, if it changes, must be assignable; a deactivated user's sessions end. */
export async function changeUser(db: Db, actor: Actor, id: number, b: UpdateUser): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const current = await lockUser(trx, actor, id);
    assertUserAction(actor, record(current), 'edit');
    if (b.roleId !== current.role_id) {
      assertRoleAssignable(actor, await roleOfTenant(trx, actor, b.roleId));
      assertUserAction(actor, record(current), 'changeRole');
    }
    if (!b.active) assertUserAction(actor, record(current), 'deactivate');
    await updateUser(trx, actor, current.id, { ...b, docnumber: b.docnumber || null });
    // A deactivated user is signed out at once.
    if (!b.active) await endOtherSessions(trx, current.id, null);
  });
}

export async function deleteUser(db: Db, actor: Actor, id: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const current = await lockUser(trx, actor, id);
    assertUserAction(actor, record(current), 'delete');
    await removeUser(trx, actor, current.id);
  });
}

/** Unlocks an account locked by failed sign-ins, and forgets the failures counted against its email. */
export async function unlockUser(db: Db, actor: Actor, id: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const current = await lockUser(trx, actor, id);
    assertUserAction(actor, record(current), 'unlock');
    await clearLock(trx, actor, current);
  });
}

/** Emails the user a password-reset link; returns the address it went to. */
export async function sendUserResetLink(db: Db, mail: MailEnv, actor: Actor, id: number): Promise<string> {
  const user = await findUser(db, actor, id, 'USER_NOT_FOUND');
  assertUserAction(actor, record(user), 'resetLink');
  if (!emailSchema.safeParse(user.email).success) throw new AppError('NO_VALID_EMAIL');
  await sendResetLink(db, linkTo(actor, user), mail.publicUrl, mail.smtpConfigured);
  return user.email;
}
