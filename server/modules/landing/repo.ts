/**
 * The landing links' SQL. A link is found by the SHA-256 of its code (the
 * code itself is never stored), with its case's tenant named by the address
 * (docnumber) and active, the link not revoked and the case not a draft: any
 * other answer is the same not found.
 */
import { createHash } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Db } from '../../db/pool.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import type { Actor } from '../acl/policy.js';
import { visibleCases } from '../cases/policy.js';

type Executor = Db | Transaction<Database>;

export const hashCode = (code: string) => createHash('sha256').update(code, 'utf8').digest();

/** The case (not a draft) the actor may read, with what its landing address shows; not found otherwise. */
export async function findLinkableCase(db: Executor, actor: Actor, caseId: number) {
  const row = await db
    .selectFrom('cases as c')
    .innerJoin('entities as e', 'e.id', 'c.entity_id')
    .where('c.entity_id', '=', actor.entityId)
    .where(visibleCases(actor) as never)
    .where('c.id', '=', caseId)
    .where('c.state', '!=', 'DRAFT')
    .select(['c.id', 'e.docnumber', 'e.slug'])
    .executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND');
  return row;
}

export async function liveLink(db: Executor, actor: Actor, caseId: number) {
  return db
    .selectFrom('case_landing_links')
    .where('entity_id', '=', actor.entityId)
    .where('case_id', '=', caseId)
    .where('revoked_at', 'is', null)
    .select(['id', 'created_at'])
    .executeTakeFirst();
}

/** The application a code opens, as its public page shows it; undefined for a wrong, revoked or other-entity code. */
export async function findLandingCase(db: Db, docnumber: string, code: string) {
  return db
    .selectFrom('case_landing_links as l')
    .innerJoin('cases as c', (j) => j.onRef('c.id', '=', 'l.case_id').onRef('c.entity_id', '=', 'l.entity_id'))
    .innerJoin('entities as e', 'e.id', 'l.entity_id')
    .innerJoin('protocols as p', 'p.id', 'c.protocol_id')
    .innerJoin('projects as pr', 'pr.id', 'c.project_id')
    .where('l.code_hash', '=', hashCode(code))
    .where('l.revoked_at', 'is', null)
    .where('e.docnumber', '=', docnumber)
    .where('e.active', '=', true)
    .where('c.state', '!=', 'DRAFT')
    .select([
      'c.id', 'c.state', 'c.owner_id', 'c.updated_at', 'c.serial', 'l.entity_id',
      'e.name as entity_name', 'e.docnumber', 'pr.logo',
      'p.name as protocol_name', 'p.name_en as protocol_name_en', 'p.public_title_en', 'p.public_title_es',
    ])
    .executeTakeFirst();
}
