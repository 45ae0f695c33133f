/**
 * "My tenants' applications" (GET /api/parties/mine): the caller's party
 * rows (repo.ts `myParties`) with each case's status in the applicant
 * portal's plain words (never its internal state or staff's notes).
 */
import type { z } from 'zod';
import type { myPartiesQuery, MyPartyRow } from '../../../core/api/parties.js';
import { publicStatus } from '../../../core/cases/portal.js';
import type { CaseState } from '../../../core/workflow/states.js';
import type { Db } from '../../db/pool.js';
import type { Actor } from '../acl/policy.js';
import { myParties } from './repo.js';

export async function myPartiesList(db: Db, actor: Actor, query: z.infer<typeof myPartiesQuery>): Promise<{ items: MyPartyRow[]; total: number }> {
  const { rows, total } = await myParties(db, actor, query);
  return {
    total,
    items: rows.map(({ caseId: _caseId, caseState, reviewStarted, ...r }) => ({
      ...r,
      // The list's status from the case's state and whether staff's review began; the party's page has the timeline's
      // finer steps (a correction open, documents asked for).
      caseStatus: publicStatus({ state: caseState as CaseState, correctionOpen: false, documentsMissing: false, reviewStarted }),
    })),
  };
}
