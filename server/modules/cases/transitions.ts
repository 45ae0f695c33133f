/**
 * The one writer of a case's state. Every change of state, asked for by a
 * person (commands.ts) or caused by the task engine (a flagged
 * inconsistency, a rejection, a restarted task), goes through `setCaseState`
 * inside the caller's transaction, with the case locked: the state table of
 * core/workflow/states.ts decides, the history records it, and the
 * applicant (the case's owner) is told when their case is completed or
 * closed (notifications/commands.ts). A case that ends (completed, closed,
 * rejected) cancels the correction its applicant was asked for, if any.
 */
import { sql, type Transaction } from 'kysely';
import { type CaseAction, type CaseState, nextCaseState } from '../../../core/workflow/states.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import type { Doer } from '../acl/policy.js';
import type { NotificationKind } from '../../../core/api/comments.js';
import { notify, type NotifyEnv } from '../notifications/commands.js';
import { recordEvent } from './history.js';
import { type CaseRow, cancelOpenCorrection } from './repo.js';

const FINAL: ReadonlySet<CaseState> = new Set(['CLOSED', 'REJECTED', 'SUCCESS']);

/** The notification each change of state sends its case's owner. */
const TOLD: Partial<Record<CaseAction, NotificationKind>> = { complete: 'case_completed', close: 'case_closed', reject: 'case_closed' };

export async function setCaseState(
  trx: Transaction<Database>,
  env: NotifyEnv,
  c: CaseRow,
  action: CaseAction,
  doer: Doer | null,
  detail: Record<string, unknown> = {},
  data?: Record<string, unknown>,
): Promise<void> {
  const next = nextCaseState(c.state as CaseState, action);
  if (!next) throw new AppError('INVALID_TRANSITION', { state: c.state, action });
  await trx
    .updateTable('cases')
    .set({ state: next, version: sql`version + 1`, updated_at: new Date(), ...(FINAL.has(next) ? { closed_at: new Date() } : {}), ...(data ? { data: JSON.stringify(data) } : {}) })
    .where('id', '=', c.id)
    .execute();
  await recordEvent(trx, { entityId: c.entity_id, caseId: c.id, doer, number: c.serial, action: `case_${action}`, type: 'case', detail: { from: c.state, to: next, ...detail } });
  // A case that ends no longer waits for its applicant's correction.
  if (FINAL.has(next)) {
    const ended = await cancelOpenCorrection(trx, c);
    if (ended) await recordEvent(trx, { entityId: c.entity_id, caseId: c.id, doer, number: c.serial, action: 'correction_cancelled', type: 'case', detail: { correction: ended, because: `case_${action}` } });
  }
  c.state = next;
  const event = TOLD[action];
  if (event && c.owner_id) {
    const reason = typeof detail.reason === 'string' ? detail.reason : null;
    await notify(trx, env, { event, entityId: c.entity_id, caseId: c.id, byUserId: doer && !('system' in doer) ? doer.userId : null, to: [c.owner_id], reason });
  }
}
