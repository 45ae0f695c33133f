/**
 * A case's history (`case_events`): every transition, task decision and
 * changed field, with who and when. `recordEvent` is its one writer; the
 * engine and the case commands call it in their own transaction.
 */
import type { Transaction } from 'kysely';
import type { Database } from '../../db/types.js';
import type { Doer } from '../acl/policy.js';

export interface CaseEvent {
  entityId: number;
  caseId: number;
  taskId?: number | null;
  doer: Doer | null;
  number: string | null;
  action: string;
  type: 'case' | 'task' | 'field' | 'comment' | 'document';
  detail?: Record<string, unknown>;
}

export async function recordEvent(trx: Transaction<Database>, e: CaseEvent): Promise<void> {
  await recordEvents(trx, [e]);
}

/** Several events in as few statements as may be (a batch of payments: one per case), in their order. */
export async function recordEvents(trx: Transaction<Database>, events: readonly CaseEvent[]): Promise<void> {
  for (let i = 0; i < events.length; i += 1000) {
    await trx
      .insertInto('case_events')
      .values(
        events.slice(i, i + 1000).map((e) => ({
          entity_id: e.entityId,
          case_id: e.caseId,
          task_id: e.taskId ?? null,
          user_id: e.doer && !('system' in e.doer) ? e.doer.userId : null,
          application_number: e.number,
          action: e.action,
          type: e.type,
          detail: JSON.stringify(e.detail ?? {}),
        })),
      )
      .execute();
  }
}
