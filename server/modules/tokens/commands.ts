/**
 * Making and ending API tokens, and keeping service accounts (issue 22).
 * A token is `cbk_` and 32 random bytes; only its SHA-256 is kept. A person
 * makes tokens for themselves (never "never expires"); an administrator
 * (acl_usuarios) makes a service account with a role they may hand out, and
 * its tokens. Blocking a service account (active = false) ends its tokens at
 * once: every request reads the user afresh (auth/sessions.ts).
 */
import { randomBytes } from 'node:crypto';
import type { CreateTokenBody, ServiceAccountBody } from '../../../core/api/tokens.js';
import type { Db } from '../../db/pool.js';
import { AppError } from '../../errors.js';
import type { Actor } from '../acl/policy.js';
import { assertAccountAvailable, hashPassword } from '../auth/commands.js';
import { hashToken } from '../auth/tokens.js';
import { assertRoleAssignable } from '../users/policy.js';
import { roleOfTenant } from '../users/repo.js';
import { accountView, countTokens, deleteToken, findServiceAccount, insertServiceAccount, insertToken, lockServiceAccount, updateServiceAccount } from './repo.js';

/** Tokens one user may hold at once. */
export const MAX_TOKENS_PER_USER = 50;

function newApiToken(): { token: string; hash: string; prefix: string } {
  const token = `cbk_${randomBytes(32).toString('base64url')}`;
  return { token, hash: hashToken(token), prefix: token.slice(0, 10) };
}

async function makeToken(db: Db, actor: Actor, userId: number, b: CreateTokenBody) {
  const { token, hash, prefix } = newApiToken();
  const expiresAt = b.expiresInDays === null ? null : new Date(Date.now() + b.expiresInDays * 86_400_000);
  const made = await db.transaction().execute(async (trx) => {
    // Serialises the count and the insert for this user.
    await trx.selectFrom('users').where('id', '=', userId).where('entity_id', '=', actor.entityId).select('id').forUpdate().executeTakeFirstOrThrow();
    if ((await countTokens(trx, actor, userId)) >= MAX_TOKENS_PER_USER) throw new AppError('TOKEN_LIMIT', { max: MAX_TOKENS_PER_USER });
    return insertToken(trx, actor, { userId, name: b.name, tokenHash: hash, prefix, readOnly: b.readOnly, expiresAt });
  });
  return { ...made, token };
}

/** A personal token of the signed-in person. */
export function createPersonalToken(db: Db, actor: Actor, b: CreateTokenBody) {
  if (b.expiresInDays === null) throw new AppError('VALIDATION', {}, [{ path: 'expiresInDays', message: 'validation.chooseOption' }]);
  return makeToken(db, actor, actor.userId, b);
}

export async function revokePersonalToken(db: Db, actor: Actor, tokenId: number): Promise<void> {
  if (!(await deleteToken(db, actor, actor.userId, tokenId))) throw new AppError('NOT_FOUND');
}

// ---------------------------------------------------------------- service accounts

/** The service account, or 404 (a person, another tenant's); a super-admin one only for a super-admin. */
async function serviceAccountFor(db: Db, actor: Actor, id: number) {
  const account = await findServiceAccount(db, actor, id);
  if (!account) throw new AppError('NOT_FOUND');
  if (account.role_super_admin && !actor.role.superAdmin) throw new AppError('FORBIDDEN');
  return account;
}

export async function createServiceAccount(db: Db, actor: Actor, b: ServiceAccountBody) {
  assertRoleAssignable(actor, await roleOfTenant(db, actor, b.roleId));
  // Never used to sign in (findLogin skips service accounts); a random hash all the same.
  const passwordHash = await hashPassword(randomBytes(24).toString('base64url'));
  const email = `service-${randomBytes(9).toString('base64url').toLowerCase().replace(/[^a-z0-9]/g, 'x')}@service-accounts.invalid`;
  const id = await db.transaction().execute(async (trx) => {
    await assertAccountAvailable(trx, actor.entityId);
    return insertServiceAccount(trx, actor, { name: b.name, email, roleId: b.roleId, active: b.active, passwordHash });
  });
  return accountView((await findServiceAccount(db, actor, id))!);
}

export async function changeServiceAccount(db: Db, actor: Actor, id: number, b: ServiceAccountBody) {
  await db.transaction().execute(async (trx) => {
    const current = await lockServiceAccount(trx, actor, id);
    if (!current) throw new AppError('NOT_FOUND');
    if (current.role_super_admin && !actor.role.superAdmin) throw new AppError('FORBIDDEN');
    if (b.roleId !== current.role_id) assertRoleAssignable(actor, await roleOfTenant(trx, actor, b.roleId));
    await updateServiceAccount(trx, actor, id, b);
  });
  return accountView((await findServiceAccount(db, actor, id))!);
}

export async function createServiceToken(db: Db, actor: Actor, accountId: number, b: CreateTokenBody) {
  await serviceAccountFor(db, actor, accountId);
  return makeToken(db, actor, accountId, b);
}

export async function revokeServiceToken(db: Db, actor: Actor, accountId: number, tokenId: number): Promise<void> {
  await serviceAccountFor(db, actor, accountId);
  if (!(await deleteToken(db, actor, accountId, tokenId))) throw new AppError('NOT_FOUND');
}

export { serviceAccountFor };
