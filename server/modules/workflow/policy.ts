/**
 * Record-level rules for tasks. Routes check the target first (wf_tareas
 * accept/reject, admintasks ...); these say whether this actor may act on
 * this task: its responsible, a member of its team, or task administrators.
 */
import type { Transaction } from 'kysely';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import { type Actor, can } from '../acl/policy.js';

type Trx = Transaction<Database>;
interface TaskRef {
  responsible_user_id: number | null;
  responsible_team_id: number | null;
}

async function teamRole(trx: Trx, actor: Actor, teamId: number | null): Promise<'leader' | 'member' | null> {
  if (teamId === null) return null;
  const m = await trx.selectFrom('team_members').where('team_id', '=', teamId).where('user_id', '=', actor.userId).where('active', '=', true).select('role').executeTakeFirst();
  return m?.role ?? null;
}

export async function isInvolved(trx: Trx, actor: Actor, task: TaskRef): Promise<boolean> {
  return task.responsible_user_id === actor.userId || (await teamRole(trx, actor, task.responsible_team_id)) !== null;
}

/** Spec: 'You cannot accept or reject this task.' */
export async function assertCanDecide(trx: Trx, actor: Actor, task: TaskRef): Promise<void> {
  if (can(actor, 'admintasks', 'update')) return;
  if (!(await isInvolved(trx, actor, task))) throw new AppError('TASK_NOT_YOURS');
}

export async function assertCanRestart(trx: Trx, actor: Actor, task: TaskRef): Promise<void> {
  if (can(actor, 'admintasks', 'restart_task')) return;
  if (can(actor, 'wf_tareas', 'restart_task') && (await isInvolved(trx, actor, task))) return;
  throw new AppError('FORBIDDEN');
}

/** Task administrators, the leader of the task's team, or its responsible handing it on. */
export async function assertCanAssign(trx: Trx, actor: Actor, task: TaskRef): Promise<void> {
  if (can(actor, 'admintasks', 'update')) return;
  if ((await teamRole(trx, actor, task.responsible_team_id)) === 'leader') return;
  if (task.responsible_user_id === actor.userId && can(actor, 'wf_tareas', 'update')) return;
  throw new AppError('FORBIDDEN');
}
