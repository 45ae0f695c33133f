/**
 * Making and revoking a case's landing link. A code is 32 random bytes
 * (256 bits, base64url); only its SHA-256 is kept, so the address is shown
 * once, when made. One live link per case: a new one revokes the one before.
 */
import { randomBytes } from 'node:crypto';
import { type LandingLinkCreated, type LandingLinkState, landingPath } from '../../../core/api/landing.js';
import type { Db } from '../../db/pool.js';
import type { Actor } from '../acl/policy.js';
import { assertMayManageLandingLinks } from './policy.js';
import { findLinkableCase, hashCode, liveLink } from './repo.js';

export async function landingLinkState(db: Db, actor: Actor, caseId: number): Promise<LandingLinkState> {
  assertMayManageLandingLinks(actor);
  await findLinkableCase(db, actor, caseId);
  const link = await liveLink(db, actor, caseId);
  return { active: !!link, createdAt: link?.created_at ?? null };
}

export async function createLandingLink(db: Db, actor: Actor, caseId: number): Promise<LandingLinkCreated> {
  assertMayManageLandingLinks(actor);
  const code = randomBytes(32).toString('base64url');
  return db.transaction().execute(async (trx) => {
    const c = await findLinkableCase(trx, actor, caseId);
    const now = new Date();
    await trx.updateTable('case_landing_links').set({ revoked_at: now }).where('entity_id', '=', actor.entityId).where('case_id', '=', c.id).where('revoked_at', 'is', null).execute();
    const row = await trx
      .insertInto('case_landing_links')
      .values({ entity_id: actor.entityId, case_id: c.id, code_hash: hashCode(code), created_by: actor.userId, created_at: now })
      .returning('created_at')
      .executeTakeFirstOrThrow();
    return { active: true as const, createdAt: row.created_at, path: landingPath(c.docnumber, c.slug, code) };
  });
}

export async function revokeLandingLink(db: Db, actor: Actor, caseId: number): Promise<LandingLinkState> {
  assertMayManageLandingLinks(actor);
  await db.transaction().execute(async (trx) => {
    const c = await findLinkableCase(trx, actor, caseId);
    await trx.updateTable('case_landing_links').set({ revoked_at: new Date() }).where('entity_id', '=', actor.entityId).where('case_id', '=', c.id).where('revoked_at', 'is', null).execute();
  });
  return { active: false, createdAt: null };
}
