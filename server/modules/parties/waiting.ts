/**
 * Where a case's parties stand, for the other modules (issue 23): the task
 * engine's gate on a task that waits for a party (`assertPartyNotAwaited`,
 * called by workflow/engine.ts `acceptTask`) and the award's default payee
 * (`partyDeadlinePassed`: the landlord's deadline passed without their side,
 * so the programme may pay the tenant). Only reads; kept apart from
 * commands.ts so that the engine imports no more than this.
 */
import type { Transaction } from 'kysely';
import type { PartyRole } from '../../../core/parties.js';
import type { TaskTemplate } from '../../../core/workflow/protocol.js';
import type { Db } from '../../db/pool.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import { partiesOfRole } from './repo.js';

type Trx = Transaction<Database>;

/** Whether the party of `role` of a case is past their deadline without having submitted (the award then defaults its payee to the tenant). */
export async function partyDeadlinePassed(db: Db | Trx, caseId: number, role: PartyRole, now = new Date()): Promise<boolean> {
  const parties = await partiesOfRole(db, caseId, role);
  if (parties.length === 0 || parties.some((p) => p.state === 'submitted')) return false;
  return parties.every((p) => p.state === 'expired' || (p.deadline_at !== null && p.deadline_at <= now));
}

/**
 * The engine's gate on accepting a task whose template waits for a party
 * (`waitsForParty`): refused (409 PARTY_NOT_SUBMITTED) while a party of that
 * role was invited and has neither submitted nor passed their deadline. A
 * case that names no such party does not wait.
 */
export async function assertPartyNotAwaited(trx: Trx, caseId: number, task: Pick<TaskTemplate, 'waitsForParty'>, now = new Date()): Promise<void> {
  const role = task.waitsForParty;
  if (!role) return;
  const parties = await partiesOfRole(trx, caseId, role);
  if (parties.length === 0 || parties.some((p) => p.state === 'submitted')) return;
  if (parties.every((p) => p.state === 'expired' || (p.deadline_at !== null && p.deadline_at <= now))) return;
  throw new AppError('PARTY_NOT_SUBMITTED', { role: { key: `parties.role.${role}` } });
}

