/**
 * Who may see and do what on a task. Routes check the target of the route
 * first (`config.access`); these answer for one task: which tasks an actor
 * sees (applied by every finder and lock of repo.ts, so no handler or
 * command can forget it), and which actions the actor has on a task (sent
 * with the task; the engine's commands check the same answer).
 *
 * The rules: deciding (accept, reject) and saving the form are for the
 * task's responsible and the members of its team, or task administrators;
 * restarting is for task administrators, or the responsible and team with
 * restart_task; assigning is for task administrators, the leader of the
 * task's team, or the responsible handing it on.
 */
import type { ExpressionBuilder } from 'kysely';
import type { TaskActionName } from '../../../core/api/tasks.js';
import { nextTaskState, type TaskState } from '../../../core/workflow/states.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import { type Actor, can } from '../acl/policy.js';
import { isStaff, visibleCases } from '../cases/policy.js';

/** How an actor stands to one task. */
export interface TaskRelation {
  /** The actor is the task's responsible user. */
  responsible: boolean;
  /** The actor's role in the task's team (active members only), if any. */
  team: 'leader' | 'member' | null;
}

export const NO_RELATION: TaskRelation = { responsible: false, team: null };

/** Task administrators: every task of their tenant, whoever it is for. */
export function isTaskAdmin(actor: Actor): boolean {
  return can(actor, 'admintasks', 'show') || can(actor, 'admintasks', 'update') || can(actor, 'admintasks', 'restart_task');
}

/**
 * A condition on `t` (tasks) and `c` (its case) limiting them to what the
 * actor may see: a task of a case the actor may see, or one it is
 * responsible for or in the team of. The tenant is applied by the finder.
 */
export function visibleTasks(actor: Actor) {
  return (eb: ExpressionBuilder<Database & { t: Database['tasks']; c: Database['cases'] }, 't' | 'c'>) =>
    isStaff(actor) || isTaskAdmin(actor)
      ? eb.val(true)
      : eb.or([
          eb('t.responsible_user_id', '=', actor.userId),
          eb('t.responsible_team_id', 'in', eb.selectFrom('team_members').where('user_id', '=', actor.userId).where('active', '=', true).select('team_id')),
          visibleCases(actor)(eb as never),
        ]);
}

/**
 * A condition on `t` (tasks): the actor's pending work, as its pending list
 * shows it: open tasks it is responsible for, and the unassigned ones of its
 * teams (the dashboard counts the same).
 */
export function pendingFor(actor: Actor) {
  return (eb: ExpressionBuilder<Database & { t: Database['tasks'] }, 't'>) =>
    eb.and([
      eb('t.state', 'in', ['PENDING', 'UNASSIGNED', 'INCONSISTENCY']),
      eb.or([
        eb('t.responsible_user_id', '=', actor.userId),
        eb.and([eb('t.responsible_user_id', 'is', null), eb('t.responsible_team_id', 'in', eb.selectFrom('team_members').where('user_id', '=', actor.userId).where('active', '=', true).select('team_id'))]),
      ]),
    ]);
}

const involved = (r: TaskRelation) => r.responsible || r.team !== null;

/** Whether the actor may do this to a task it stands to as `r`, whatever the task's state. */
export function mayActOnTask(actor: Actor, r: TaskRelation, action: TaskActionName): boolean {
  switch (action) {
    case 'accept':
    case 'reject':
      return can(actor, 'wf_tareas', action) && (involved(r) || can(actor, 'admintasks', 'update'));
    case 'save':
      return can(actor, 'wf_tareas', 'update') && (involved(r) || can(actor, 'admintasks', 'update'));
    case 'restart':
      return can(actor, 'admintasks', 'restart_task') || (can(actor, 'wf_tareas', 'restart_task') && involved(r));
    case 'assign':
      return can(actor, 'admintasks', 'update') || r.team === 'leader' || (r.responsible && can(actor, 'wf_tareas', 'update'));
  }
}

const stateAllows = (state: TaskState, action: TaskActionName) => (action === 'save' ? state === 'PENDING' || state === 'INCONSISTENCY' : nextTaskState(state, action) !== undefined);

/**
 * What the actor may do on a task it can see, in its state. The task must
 * have come through a finder of repo.ts: seeing it is not checked here.
 */
export function taskActions(actor: Actor, task: { state: string }, r: TaskRelation): TaskActionName[] {
  const out: TaskActionName[] = [];
  for (const a of ['accept', 'reject', 'restart', 'assign', 'save'] as const) if (stateAllows(task.state as TaskState, a) && mayActOnTask(actor, r, a)) out.push(a);
  return out;
}

/**
 * Refuses an actor who may not do this to the task, whatever its state (the
 * engine checks the state after, as it always has). Deciding or saving
 * someone else's task is the spec's 'You cannot accept or reject this task.'
 * (TASK_NOT_YOURS); missing rights are FORBIDDEN.
 */
export function assertMayActOnTask(actor: Actor, r: TaskRelation, action: TaskActionName): void {
  if (mayActOnTask(actor, r, action)) return;
  if (action === 'accept' || action === 'reject' || action === 'save') {
    const target = action === 'save' ? 'update' : action;
    if (can(actor, 'wf_tareas', target)) throw new AppError('TASK_NOT_YOURS');
  }
  throw new AppError('FORBIDDEN');
}
