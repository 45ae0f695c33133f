/**
 * The task engine. Every command here is one transaction with row locks on
 * the task and its case: the state change, the next tasks, their
 * responsibles and due dates, the audit rows and the queued notifications
 * commit together or not at all. Two people deciding one task: the second
 * waits for the first's lock, then finds the task decided and gets a 409.
 * REST routes, jobs and the seed call these same functions.
 */
import { sql, type Transaction } from 'kysely';
import type { FormDefinition } from '../../../core/forms/definition.js';
import { compileCondition } from '../../../core/forms/expr.js';
import { validateForm } from '../../../core/forms/validator.js';
import { ADHOC_TASK_CODE, type AdhocTaskInput } from '../../../core/workflow/adhoc.js';
import { NOT_ELIGIBLE, nextTaskState, OPEN_TASK_STATES, RETURN_KEY, type TaskAction, type TaskState } from '../../../core/workflow/states.js';
import { predecessors, type ProtocolDefinition, type TaskTemplate } from '../../../core/workflow/protocol.js';
import type { Db } from '../../db/pool.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import { translate } from '../../i18n.js';
import type { Actor, Doer } from '../acl/policy.js';
import { masterOptionValues } from '../forms/options.js';
import { notify, type NotifyEnv } from '../notifications/commands.js';
import { teamLeaders, usersWithRole } from '../notifications/repo.js';
import { recordEvent as audit } from '../cases/history.js';
import { type CaseRow, lockCase } from '../cases/repo.js';
import { setCaseState } from '../cases/transitions.js';
import { taskDueAt } from './due.js';
import type { TaskActionName } from '../../../core/api/tasks.js';
import { assertMayActOnTask, mayActOnTask } from '../tasks/policy.js';
import type { AwardInput } from '../../../core/api/payments.js';
import { setAward } from '../payments/commands.js';
import { assertPartyNotAwaited } from '../parties/waiting.js';
import { lockTask, lockTaskAndCase, relationTo, type TaskRow } from '../tasks/repo.js';

export type { CaseRow, Doer, TaskRow };

type Trx = Transaction<Database>;

export interface EngineEnv extends NotifyEnv {
  /** Called after each commit: starts delivering what was queued. */
  afterMail?: () => void;
}


const userIdOf = (d: Doer) => ('system' in d ? null : d.userId);
const roleOf = (d: Doer) => ('system' in d ? undefined : d.role.code);

// ---------------------------------------------------------------- loading and checking

/**
 * Refuses a person who may not do this to the task (tasks/policy.ts); the
 * system acts as itself. The task came through a lock of tasks/repo.ts, so the
 * person may see it. Their teams are looked up only when their rights and
 * being the responsible are not enough.
 */
async function assertMay(trx: Trx, doer: Doer, task: TaskRow, action: TaskActionName): Promise<void> {
  if ('system' in doer) return;
  if (mayActOnTask(doer, { responsible: task.responsible_user_id === doer.userId, team: null }, action)) return;
  assertMayActOnTask(doer, await relationTo(trx, doer, task), action);
}

// Published protocol versions never change: keep the parsed ones.
const protocolCache = new Map<number, ProtocolDefinition>();

async function protocolDefinition(trx: Trx, versionId: number | null): Promise<ProtocolDefinition> {
  if (!versionId) throw new AppError('CASE_NOT_OPEN');
  const cached = protocolCache.get(versionId);
  if (cached) return cached;
  const row = await trx.selectFrom('protocol_versions').where('id', '=', versionId).select('definition').executeTakeFirstOrThrow();
  if (protocolCache.size > 1000) protocolCache.clear();
  protocolCache.set(versionId, row.definition as ProtocolDefinition);
  return row.definition as ProtocolDefinition;
}

/** A task's template in its case's protocol version (null when the version no longer names it). */
async function taskTemplateOf(trx: Trx, c: Pick<CaseRow, 'protocol_version_id'>, code: string): Promise<TaskTemplate | null> {
  if (!c.protocol_version_id) return null;
  return (await protocolDefinition(trx, c.protocol_version_id)).tasks.find((x) => x.code === code) ?? null;
}

function template(def: ProtocolDefinition, code: string): TaskTemplate {
  const t = def.tasks.find((x) => x.code === code);
  if (!t) throw new AppError('INCONSISTENT_PROTOCOL', { code });
  return t;
}

function transition(state: string, action: TaskAction): TaskState {
  const next = nextTaskState(state as TaskState, action);
  if (!next) throw new AppError('INVALID_TRANSITION', { state, action });
  return next;
}

// ---------------------------------------------------------------- audit and mail


/**
 * Tells a task's responsible that it is theirs (or, for a task the applicant
 * must do after a rejection, that their application came back for
 * correction, with the reason), in the protocol task's chosen template.
 */
async function notifyAssigned(trx: Trx, env: EngineEnv, doer: Doer | null, task: { id: number; responsible_user_id: number | null }, c: CaseRow, t: TaskTemplate | null, reason?: string | null): Promise<void> {
  if (!task.responsible_user_id) return;
  const returned = Boolean(reason) && t?.responsible.kind === 'owner';
  await notify(trx, env, {
    event: returned ? 'case_returned' : 'task_assigned',
    entityId: c.entity_id,
    caseId: c.id,
    taskId: task.id,
    byUserId: doer ? userIdOf(doer) : null,
    to: [task.responsible_user_id],
    templateId: returned ? undefined : t?.mailTemplates?.task_assigned,
    reason,
  });
}

// ---------------------------------------------------------------- assignment

/** Who does a task: a user, a team's member (round-robin or least loaded), the case owner, or an earlier task's responsible. */
export async function resolveResponsible(trx: Trx, c: CaseRow, t: TaskTemplate): Promise<{ userId: number | null; teamId: number | null }> {
  const r = t.responsible;
  if (r.kind === 'owner') return { userId: await activeUser(trx, c.entity_id, c.owner_id), teamId: null };
  if (r.kind === 'user') return { userId: await activeUser(trx, c.entity_id, r.userId), teamId: null };
  if (r.kind === 'task') {
    const earlier = await trx
      .selectFrom('tasks')
      .where('entity_id', '=', c.entity_id)
      .where('case_id', '=', c.id)
      .where('code', '=', r.task)
      .orderBy('id', 'desc')
      .select(['responsible_user_id', 'responsible_team_id'])
      .executeTakeFirst();
    return { userId: earlier?.responsible_user_id ?? null, teamId: earlier?.responsible_team_id ?? null };
  }
  const picked = await pickTeamMember(trx, c.entity_id, r.teamId);
  return { userId: picked?.userId ?? null, teamId: r.teamId };
}

async function activeUser(trx: Trx, entityId: number, userId: number): Promise<number | null> {
  const u = await trx.selectFrom('users').where('id', '=', userId).where('entity_id', '=', entityId).where('active', '=', true).where('locked', '=', false).select('id').executeTakeFirst();
  return u?.id ?? null;
}

const LOAD_CAP = 100;

export interface TeamPick {
  userId: number;
}

export async function pickTeamMember(trx: Trx, entityId: number, teamId: number): Promise<TeamPick | null> {
  const members = await trx
    .selectFrom('team_members as m')
    .innerJoin('teams as tm', 'tm.id', 'm.team_id')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .where('m.team_id', '=', teamId)
    .where('tm.entity_id', '=', entityId)
    .where('tm.active', '=', true)
    .where('m.active', '=', true)
    .where('u.active', '=', true)
    .where('u.locked', '=', false)
    // Load counted up to a cap: beyond it the difference no longer matters, and the cost stays bounded.
    .select(['u.id', 'tm.assignment', sql<number>`(select count(*) from (select 1 from tasks t where t.entity_id = u.entity_id and t.responsible_user_id = u.id and t.state = 'PENDING' limit ${LOAD_CAP}) x)::int`.as('load')])
    .orderBy('u.id')
    .execute();
  if (members.length === 0) return null;
  const pick = (id: number) => {
    const m = members.find((x) => x.id === id) ?? members[0];
    return { userId: m.id };
  };
  if (members[0].assignment === 'least_loaded') return pick(leastLoaded(members));
  // Round-robin: move the team's cursor in one atomic statement. No lock is held to the end
  // of the transaction, so assignments to one team do not queue behind each other.
  const ids = members.map((m) => m.id);
  const moved = await sql<{ last_assigned_user_id: number }>`
    update teams set last_assigned_user_id = coalesce(
      (select min(x) from unnest(${ids}::bigint[]) x where x > coalesce(teams.last_assigned_user_id, 0)),
      ${ids[0]}::bigint)
    where id = ${teamId}
    returning last_assigned_user_id`.execute(trx);
  return pick(moved.rows[0]?.last_assigned_user_id ?? ids[0]);
}


/** The least loaded member (the first by id among equals). `members` are ordered by id. */
export function leastLoaded(members: ReadonlyArray<{ id: number; load: number }>): number {
  return members.reduce((best, m) => (m.load < best.load ? m : best)).id;
}

/** Round-robin: the member after `cursor` (by id), or the first. `ids` ascending. */
export function nextRoundRobin(ids: readonly number[], cursor: number | null): number {
  return ids.find((x) => x > (cursor ?? 0)) ?? ids[0];
}

export { LOAD_CAP };

// ---------------------------------------------------------------- creating tasks

async function createTask(
  trx: Trx,
  env: EngineEnv,
  doer: Doer | null,
  c: CaseRow,
  t: TaskTemplate,
  options: { blocked?: boolean; data?: Record<string, unknown>; reason?: string | null; waitingFor?: number } = {},
): Promise<{ id: number }> {
  const who = options.blocked ? { userId: null, teamId: null } : await resolveResponsible(trx, c, t);
  const state: TaskState = options.blocked ? 'BLOCKED' : who.userId ? 'PENDING' : 'UNASSIGNED';
  const row = await trx
    .insertInto('tasks')
    .values({
      entity_id: c.entity_id,
      case_id: c.id,
      code: t.code,
      name: t.name,
      name_en: t.name_en ?? '',
      form_version_id: t.formVersionId ?? null,
      state,
      responsible_user_id: who.userId,
      responsible_team_id: who.teamId,
      data: JSON.stringify(options.data ?? {}),
      expiration_days: t.expirationDays,
      expiration_unit: t.expirationUnit ?? 'calendar',
      due_at: state === 'PENDING' ? await taskDueAt(trx, c, t.expirationDays, t.expirationUnit ?? 'calendar') : null,
      waiting_for: options.waitingFor ?? 0,
      reason: options.reason ?? null,
    })
    .returning(['id', 'name', 'name_en', 'entity_id', 'responsible_user_id'])
    .executeTakeFirstOrThrow();
  await audit(trx, { entityId: c.entity_id, caseId: c.id, taskId: row.id, doer, number: c.serial, action: 'task_created', type: 'task', detail: { code: t.code, state, responsible: who.userId, team: who.teamId } });
  if (state === 'PENDING') await notifyAssigned(trx, env, doer, row, c, t, options.reason);
  return { id: row.id };
}

/** Opens a submitted case's workflow: its start tasks. */
export async function startWorkflow(trx: Trx, env: EngineEnv, doer: Doer | null, c: CaseRow): Promise<number[]> {
  const def = await protocolDefinition(trx, c.protocol_version_id);
  const ids: number[] = [];
  for (const code of def.start) ids.push((await createTask(trx, env, doer, c, template(def, code))).id);
  return ids;
}

/** Follows the accept edges of a decided task: next tasks start, joins wait for all their started predecessors. */
async function advance(trx: Trx, env: EngineEnv, doer: Doer, c: CaseRow, def: ProtocolDefinition, from: TaskTemplate, values: Record<string, unknown>): Promise<number[]> {
  if (from.onAccept.length === 0) return [];
  const scope = { values, role: roleOf(doer) };
  const edges = from.onAccept.filter((e) => compileCondition(e.when)(scope));
  if (edges.length === 0) {
    // The protocol has no way on for these values: a person must look at it.
    await setCaseState(trx, env, c, 'flag', doer, { reason: 'no_transition', task: from.code });
    return [];
  }
  const created: number[] = [];
  for (const edge of edges) {
    const next = template(def, edge.to);
    if (next.join === 'all') {
      const preds = predecessors(def, next.code);
      const latest = await trx
        .selectFrom('tasks')
        .where('entity_id', '=', c.entity_id)
        .where('case_id', '=', c.id)
        .where('code', 'in', preds)
        .select(['code', 'state'])
        .distinctOn('code')
        .orderBy('code')
        .orderBy('id', 'desc')
        .execute();
      const waiting = latest.filter((p) => p.state !== 'ACCEPTED').length;
      const blocked = await trx.selectFrom('tasks').where('entity_id', '=', c.entity_id).where('case_id', '=', c.id).where('code', '=', next.code).where('state', '=', 'BLOCKED').select('id').forUpdate().executeTakeFirst();
      if (blocked) {
        if (waiting === 0) await unblock(trx, env, doer, c, next, blocked.id);
        else await trx.updateTable('tasks').set({ waiting_for: waiting }).where('id', '=', blocked.id).execute();
        continue;
      }
      created.push((await createTask(trx, env, doer, c, next, { blocked: waiting > 0, waitingFor: waiting })).id);
      continue;
    }
    created.push((await createTask(trx, env, doer, c, next)).id);
  }
  return created;
}

async function unblock(trx: Trx, env: EngineEnv, doer: Doer, c: CaseRow, t: TaskTemplate, taskId: number): Promise<void> {
  const who = await resolveResponsible(trx, c, t);
  const state: TaskState = who.userId ? transition('BLOCKED', 'unblock') : 'UNASSIGNED';
  const row = await trx
    .updateTable('tasks')
    .set({ state, waiting_for: 0, responsible_user_id: who.userId, responsible_team_id: who.teamId, due_at: who.userId ? await taskDueAt(trx, c, t.expirationDays, t.expirationUnit ?? 'calendar') : null, version: sql`version + 1`, updated_at: new Date() })
    .where('id', '=', taskId)
    .returning(['id', 'name', 'entity_id', 'responsible_user_id'])
    .executeTakeFirstOrThrow();
  await audit(trx, { entityId: c.entity_id, caseId: c.id, taskId, doer, number: c.serial, action: 'task_unblocked', type: 'task', detail: { state } });
  if (state === 'PENDING') await notifyAssigned(trx, env, doer, row, c, t);
}


/** Ends the open tasks of a case (it was closed, rejected, or sent back). */
export async function closeOpenTasks(trx: Trx, c: CaseRow, doer: Doer | null, except: number[] = []): Promise<void> {
  let q = trx
    .updateTable('tasks')
    .set({ state: 'CLOSED', version: sql`version + 1`, updated_at: new Date() })
    .where('entity_id', '=', c.entity_id)
    .where('case_id', '=', c.id)
    .where('state', 'in', [...OPEN_TASK_STATES]);
  if (except.length) q = q.where('id', 'not in', except);
  const closed = await q.returning('id').execute();
  for (const t of closed) await audit(trx, { entityId: c.entity_id, caseId: c.id, taskId: t.id, doer, number: c.serial, action: 'task_closed', type: 'task' });
}

// ---------------------------------------------------------------- commands

// A task's form version is in use, so it never changes either.
const formCache = new Map<number, FormDefinition>();

async function taskForm(trx: Trx, versionId: number): Promise<FormDefinition> {
  const cached = formCache.get(versionId);
  if (cached) return cached;
  const form = await trx.selectFrom('form_versions').where('id', '=', versionId).where('in_use', '=', true).select('definition').executeTakeFirst();
  if (!form) return (await trx.selectFrom('form_versions').where('id', '=', versionId).select('definition').executeTakeFirstOrThrow()).definition as FormDefinition;
  if (formCache.size > 1000) formCache.clear();
  formCache.set(versionId, form.definition as FormDefinition);
  return form.definition as FormDefinition;
}

async function validateTaskData(trx: Trx, entityId: number, task: TaskRow, data: Record<string, unknown>, doer: Doer, lang: 'en' | 'es'): Promise<Record<string, unknown>> {
  if (!task.form_version_id) return {};
  const def = await taskForm(trx, task.form_version_id);
  const options = await masterOptionValues(trx, entityId, def);
  const result = validateForm(def, data, { role: roleOf(doer), options });
  if (!result.success) throw new AppError('VALIDATION', {}, result.issues.map((i) => ({ path: i.path, message: translate(lang, i.key, i.params) })));
  return result.data;
}

export interface DecideInput {
  /** The task form's values; omitted: the values saved on the task. */
  data?: Record<string, unknown>;
  /** The task version the person saw: a stale one is refused. */
  version?: number;
  lang?: 'en' | 'es';
  /** Issue 23: the award, for the task whose template sets it (`award: true`). */
  award?: AwardInput;
}

export async function acceptTask(db: Db, env: EngineEnv, actor: Doer, taskId: number, input: DecideInput = {}): Promise<{ created: number[] }> {
  const result = await db.transaction().execute(async (trx) => {
    const { task, c } = await lockTaskAndCase(trx, actor, taskId);
    await assertMay(trx, actor, task, 'accept');
    if (input.version !== undefined && input.version !== task.version) throw new AppError('STALE_TASK');
    const next = transition(task.state, 'accept');
    if (c.state !== 'PENDING') throw new AppError('CASE_NOT_OPEN');
    // Issue 23: a task that waits for a party is refused until that party submitted or their deadline passed.
    if (task.code !== ADHOC_CODE) await assertPartyNotAwaited(trx, c.id, template(await protocolDefinition(trx, c.protocol_version_id), task.code));
    const data = await validateTaskData(trx, actor.entityId, task, input.data ?? task.data, actor, input.lang ?? 'en');
    await trx
      .updateTable('tasks')
      .set({ state: next, data: JSON.stringify(data), decided_by: userIdOf(actor), decided_at: new Date(), version: sql`version + 1`, updated_at: new Date() })
      .where('id', '=', task.id)
      .execute();
    await audit(trx, { entityId: c.entity_id, caseId: c.id, taskId: task.id, doer: actor, number: c.serial, action: 'task_accepted', type: 'task', detail: { code: task.code } });
    // An ad-hoc task is outside the protocol: deciding it moves nothing else.
    if (task.code === ADHOC_CODE) return { created: [] };
    const def = await protocolDefinition(trx, c.protocol_version_id);
    // Issue 23: the task that sets the award carries it; over a cap this throws and nothing of the accept is written.
    if (template(def, task.code).award) await setAward(trx, actor, { c, taskId: task.id, def, award: input.award });
    const created = await advance(trx, env, actor, c, def, template(def, task.code), { ...c.data, ...data });
    return { created };
  });
  env.afterMail?.();
  return result;
}

export interface RejectInput {
  reason: string;
  version?: number;
  data?: Record<string, unknown>;
}

/** Back to a named earlier task (its data kept, the reason shown), or the end as not eligible (tarea_retorno = -1). */
export async function rejectTask(db: Db, env: EngineEnv, actor: Doer, taskId: number, input: RejectInput): Promise<{ created: number[]; notEligible: boolean }> {
  const result = await db.transaction().execute(async (trx) => {
    const { task, c } = await lockTaskAndCase(trx, actor, taskId);
    await assertMay(trx, actor, task, 'reject');
    if (input.version !== undefined && input.version !== task.version) throw new AppError('STALE_TASK');
    const next = transition(task.state, 'reject');
    if (c.state !== 'PENDING') throw new AppError('CASE_NOT_OPEN');
    await trx
      .updateTable('tasks')
      .set({ state: next, reason: input.reason, data: JSON.stringify(input.data ?? task.data), decided_by: userIdOf(actor), decided_at: new Date(), version: sql`version + 1`, updated_at: new Date() })
      .where('id', '=', task.id)
      .execute();
    await audit(trx, { entityId: c.entity_id, caseId: c.id, taskId: task.id, doer: actor, number: c.serial, action: 'task_rejected', type: 'task', detail: { code: task.code, reason: input.reason } });
    if (task.code === ADHOC_CODE) return { created: [], notEligible: false };
    const def = await protocolDefinition(trx, c.protocol_version_id);
    const target = template(def, task.code).onReject;
    if (!target || 'notEligible' in target) {
      await closeOpenTasks(trx, c, actor);
      await setCaseState(trx, env, c, 'reject', actor, { reason: input.reason, task: task.code }, { ...c.data, [RETURN_KEY]: NOT_ELIGIBLE });
      return { created: [], notEligible: true };
    }
    const earlier = await trx.selectFrom('tasks').where('entity_id', '=', c.entity_id).where('case_id', '=', c.id).where('code', '=', target.to).orderBy('id', 'desc').select('data').executeTakeFirst();
    await closeOpenTasks(trx, c, actor);
    const created = await createTask(trx, env, actor, c, template(def, target.to), { data: earlier?.data ?? {}, reason: input.reason });
    return { created: [created.id], notEligible: false };
  });
  env.afterMail?.();
  return result;
}

/** Gives a decided or flagged task back to work. */
export async function restartTask(db: Db, env: EngineEnv, actor: Actor, taskId: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    // The task and its case: one the actor may see, whether or not it may see the case by itself (its team's task).
    const { task, c } = await lockTaskAndCase(trx, actor, taskId);
    await assertMay(trx, actor, task, 'restart');
    const next = transition(task.state, 'restart');
    if (c.state === 'INCONSISTENCY') await setCaseState(trx, env, c, 'activate', actor, { reason: 'task_restarted' });
    if (c.state !== 'PENDING') throw new AppError('CASE_NOT_OPEN');
    await trx
      .updateTable('tasks')
      .set({ state: next, decided_by: null, decided_at: null, overdue: false, reminded_at: null, escalation_level: 0, escalate_at: null, due_at: await taskDueAt(trx, c, task.expiration_days, task.expiration_unit), version: sql`version + 1`, updated_at: new Date() })
      .where('id', '=', task.id)
      .execute();
    await audit(trx, { entityId: c.entity_id, caseId: c.id, taskId: task.id, doer: actor, number: c.serial, action: 'task_restarted', type: 'task', detail: { from: task.state } });
  });
  env.afterMail?.();
}

/** Changes who does a task: a named user of the tenant, or the next member of a team. */
export async function assignTask(db: Db, env: EngineEnv, actor: Actor, taskId: number, to: { userId?: number; teamId?: number }): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const { task, c } = await lockTaskAndCase(trx, actor, taskId);
    await assertMay(trx, actor, task, 'assign');
    const next = transition(task.state, 'assign');
    let userId: number | null = null;
    let teamId: number | null = to.teamId ?? task.responsible_team_id;
    if (to.userId !== undefined) {
      userId = await activeUser(trx, actor.entityId, to.userId);
      if (!userId) throw new AppError('VALIDATION', {}, [{ path: 'userId', message: 'validation.chooseOption' }]);
      if (to.teamId === undefined) teamId = task.responsible_team_id;
    } else if (to.teamId !== undefined) {
      userId = (await pickTeamMember(trx, actor.entityId, to.teamId))?.userId ?? null;
      if (!userId) throw new AppError('TEAM_EMPTY');
    } else {
      throw new AppError('VALIDATION', {}, [{ path: 'userId', message: 'validation.chooseOption' }]);
    }
    if (teamId !== null) {
      const team = await trx.selectFrom('teams').where('id', '=', teamId).where('entity_id', '=', actor.entityId).select('id').executeTakeFirst();
      if (!team) throw new AppError('VALIDATION', {}, [{ path: 'teamId', message: 'validation.chooseOption' }]);
    }
    const row = await trx
      .updateTable('tasks')
      .set({ state: next, responsible_user_id: userId, responsible_team_id: teamId, due_at: task.state === 'PENDING' ? undefined : await taskDueAt(trx, c, task.expiration_days, task.expiration_unit), version: sql`version + 1`, updated_at: new Date() })
      .where('id', '=', task.id)
      .returning(['id', 'name', 'entity_id', 'responsible_user_id'])
      .executeTakeFirstOrThrow();
    await audit(trx, { entityId: c.entity_id, caseId: c.id, taskId: task.id, doer: actor, number: c.serial, action: 'task_assigned', type: 'task', detail: { from: task.responsible_user_id, to: userId, team: teamId } });
    await notifyAssigned(trx, env, actor, row, c, task.code === ADHOC_CODE ? null : await taskTemplateOf(trx, c, task.code));
  });
  env.afterMail?.();
}

/** The code of tasks created by hand on a case, outside its protocol. */
export const ADHOC_CODE = ADHOC_TASK_CODE;

/** An ad-hoc task on an open case (the /tareas/nuevo screen): a named piece of work for a user or a team. */
export async function createAdhocTask(db: Db, env: EngineEnv, actor: Actor, input: AdhocTaskInput): Promise<number> {
  const id = await db.transaction().execute(async (trx) => {
    // Only on a case the actor may see (a role with wf_tareas create alone is not staff).
    const c = await lockCase(trx, actor, input.caseId);
    if (c.state !== 'PENDING') throw new AppError('CASE_NOT_OPEN');
    // A team given with a user is shown with the task: it must be one of the tenant's too.
    if (input.teamId !== undefined) {
      const team = await trx.selectFrom('teams').where('id', '=', input.teamId).where('entity_id', '=', actor.entityId).select('id').executeTakeFirst();
      if (!team) throw new AppError('VALIDATION', {}, [{ path: 'teamId', message: 'validation.chooseOption' }]);
    }
    let userId: number | null = null;
    if (input.userId !== undefined) {
      userId = await activeUser(trx, actor.entityId, input.userId);
      if (!userId) throw new AppError('VALIDATION', {}, [{ path: 'userId', message: 'validation.chooseOption' }]);
    } else if (input.teamId !== undefined) {
      const picked = await pickTeamMember(trx, actor.entityId, input.teamId);
      userId = picked?.userId ?? null;
    } else {
      throw new AppError('VALIDATION', {}, [{ path: 'userId', message: 'validation.chooseOption' }]);
    }
    let formVersionId: number | null = null;
    if (input.formId) {
      // The form as it is now: later edits of the form make new versions and leave this task's alone.
      const form = await trx
        .selectFrom('forms as f')
        .innerJoin('form_versions as v', (j) => j.onRef('v.form_id', '=', 'f.id').onRef('v.version', '=', 'f.current_version'))
        .where('f.id', '=', input.formId)
        .where('f.entity_id', '=', actor.entityId)
        .select('v.id')
        .executeTakeFirst();
      if (!form) throw new AppError('VALIDATION', {}, [{ path: 'formId', message: 'validation.chooseOption' }]);
      formVersionId = form.id;
      await trx.updateTable('form_versions').set({ in_use: true }).where('id', '=', form.id).execute();
    }
    const state: TaskState = userId ? 'PENDING' : 'UNASSIGNED';
    const row = await trx
      .insertInto('tasks')
      .values({
        entity_id: c.entity_id, case_id: c.id, code: ADHOC_CODE, name: input.name, form_version_id: formVersionId, state,
        responsible_user_id: userId, responsible_team_id: input.teamId ?? null, expiration_days: input.expirationDays ?? null,
        due_at: state === 'PENDING' ? await taskDueAt(trx, c, input.expirationDays ?? null, 'calendar') : null, instructions: input.instructions || null,
      })
      .returning(['id', 'name', 'entity_id', 'responsible_user_id'])
      .executeTakeFirstOrThrow();
    await audit(trx, { entityId: c.entity_id, caseId: c.id, taskId: row.id, doer: actor, number: c.serial, action: 'task_created', type: 'task', detail: { code: ADHOC_CODE, name: input.name, state, responsible: userId, team: input.teamId ?? null } });
    if (state === 'PENDING') await notifyAssigned(trx, env, actor, row, c, null);
    return row.id;
  });
  env.afterMail?.();
  return id;
}

/** Saves task form values without deciding (a draft of the task form). */
export async function saveTaskData(db: Db, actor: Actor, taskId: number, data: Record<string, unknown>, version?: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const task = await lockTask(trx, actor, taskId);
    await assertMay(trx, actor, task, 'save');
    if (version !== undefined && version !== task.version) throw new AppError('STALE_TASK');
    if (!['PENDING', 'INCONSISTENCY'].includes(task.state)) throw new AppError('INVALID_TRANSITION', { state: task.state, action: 'save' });
    const row = await trx.updateTable('tasks').set({ data: JSON.stringify(data), version: sql`version + 1`, updated_at: new Date() }).where('id', '=', task.id).returning('version').executeTakeFirstOrThrow();
    return row.version;
  });
}

/** A reminder goes out when a task is due within this many hours (and had more than that when it was given). */
export const REMIND_BEFORE_HOURS = 24;

export interface SweepResult {
  reminded: number;
  overdue: number;
  escalated: number;
}

type SweptTask = { id: number; entity_id: number; case_id: number; code: string; responsible_user_id: number | null; responsible_team_id: number | null; due_at: Date | null };
const SWEPT = ['id', 'entity_id', 'case_id', 'code', 'responsible_user_id', 'responsible_team_id', 'due_at'] as const;

async function caseOf(trx: Trx, caseId: number): Promise<CaseRow> {
  return trx.selectFrom('cases').where('id', '=', caseId).select(['id', 'entity_id', 'project_id', 'protocol_id', 'protocol_version_id', 'owner_id', 'serial', 'state', 'data', 'version']).executeTakeFirstOrThrow();
}

/**
 * The minute sweep of deadlines (a pg-boss schedule: once a minute across
 * instances). Three steps, each a transaction whose rows are claimed with
 * SKIP LOCKED and marked in it, so that each message goes once whoever runs
 * it, and each is written to the case history:
 * 1. due soon: the responsible is reminded once, REMIND_BEFORE_HOURS ahead;
 * 2. overdue: the task is flagged, its responsible told, and its team's
 *    leaders told (escalation 1); the role named on the protocol task, if
 *    any, is due `afterDays` later;
 * 3. escalation 2: that role's users are told, once.
 */
export async function sweepDeadlines(db: Db, env: EngineEnv, limit = 500): Promise<SweepResult> {
  const now = new Date();
  const reminded = await db.transaction().execute(async (trx) => {
    const rows = await trx
      .updateTable('tasks')
      .set({ reminded_at: now })
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('tasks')
          .select('id')
          .where('state', '=', 'PENDING')
          .where('reminded_at', 'is', null)
          .where('overdue', '=', false)
          .where('due_at', '>', now)
          .where('due_at', '<=', sql<Date>`${now}::timestamptz + make_interval(hours => ${REMIND_BEFORE_HOURS})`)
          .where(sql<boolean>`created_at < due_at - make_interval(hours => ${REMIND_BEFORE_HOURS})`)
          .limit(limit)
          .forUpdate()
          .skipLocked(),
      )
      .returning(SWEPT)
      .execute();
    for (const t of rows) {
      const c = await caseOf(trx, t.case_id);
      const tpl = t.code === ADHOC_CODE ? null : await taskTemplateOf(trx, c, t.code);
      await audit(trx, { entityId: t.entity_id, caseId: t.case_id, taskId: t.id, doer: null, number: c.serial, action: 'task_reminded', type: 'task', detail: { to: t.responsible_user_id, due: t.due_at } });
      if (t.responsible_user_id) await notify(trx, env, { event: 'task_due_soon', entityId: t.entity_id, caseId: t.case_id, taskId: t.id, to: [t.responsible_user_id], templateId: tpl?.mailTemplates?.task_due_soon });
    }
    return rows.length;
  });

  const overdue = await db.transaction().execute(async (trx) => {
    const rows = await trx
      .updateTable('tasks')
      .set({ overdue: true, escalation_level: 1, updated_at: now })
      .where('id', 'in', (eb) =>
        eb.selectFrom('tasks').select('id').where('state', '=', 'PENDING').where('overdue', '=', false).where('due_at', '<', now).limit(limit).forUpdate().skipLocked(),
      )
      .returning(SWEPT)
      .execute();
    for (const t of rows) {
      const c = await caseOf(trx, t.case_id);
      const tpl = t.code === ADHOC_CODE ? null : await taskTemplateOf(trx, c, t.code);
      const templateId = tpl?.mailTemplates?.task_overdue;
      await audit(trx, { entityId: t.entity_id, caseId: t.case_id, taskId: t.id, doer: null, number: c.serial, action: 'task_overdue', type: 'task' });
      if (t.responsible_user_id) await notify(trx, env, { event: 'task_overdue', entityId: t.entity_id, caseId: t.case_id, taskId: t.id, to: [t.responsible_user_id], templateId });
      const leaders = t.responsible_team_id ? (await teamLeaders(trx, t.entity_id, t.responsible_team_id)).filter((id) => id !== t.responsible_user_id) : [];
      if (leaders.length) {
        await audit(trx, { entityId: t.entity_id, caseId: t.case_id, taskId: t.id, doer: null, number: c.serial, action: 'task_escalated', type: 'task', detail: { level: 1, to: leaders } });
        await notify(trx, env, { event: 'task_overdue', entityId: t.entity_id, caseId: t.case_id, taskId: t.id, to: leaders, templateId });
      }
      // The second step, when the protocol task names a role: its time, or the end of escalation.
      const escalateAt = tpl?.escalation && t.due_at ? new Date(t.due_at.getTime() + tpl.escalation.afterDays * 86_400_000) : null;
      await trx.updateTable('tasks').set(escalateAt ? { escalate_at: escalateAt } : { escalation_level: 2 }).where('id', '=', t.id).execute();
    }
    return rows.length;
  });

  const escalated = await db.transaction().execute(async (trx) => {
    const rows = await trx
      .updateTable('tasks')
      .set({ escalation_level: 2 })
      .where('id', 'in', (eb) =>
        eb.selectFrom('tasks').select('id').where('state', '=', 'PENDING').where('escalation_level', '=', 1).where('escalate_at', '<=', now).limit(limit).forUpdate().skipLocked(),
      )
      .returning(SWEPT)
      .execute();
    for (const t of rows) {
      const c = await caseOf(trx, t.case_id);
      const tpl = t.code === ADHOC_CODE ? null : await taskTemplateOf(trx, c, t.code);
      if (!tpl?.escalation) continue;
      const to = (await usersWithRole(trx, t.entity_id, tpl.escalation.role)).filter((id) => id !== t.responsible_user_id);
      await audit(trx, { entityId: t.entity_id, caseId: t.case_id, taskId: t.id, doer: null, number: c.serial, action: 'task_escalated', type: 'task', detail: { level: 2, role: tpl.escalation.role, to } });
      await notify(trx, env, { event: 'task_overdue', entityId: t.entity_id, caseId: t.case_id, taskId: t.id, to, templateId: tpl.mailTemplates?.task_overdue });
    }
    return rows.length;
  });

  if (reminded + overdue + escalated) env.afterMail?.();
  return { reminded, overdue, escalated };
}
