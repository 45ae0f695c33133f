/**
 * The tasks' SQL for reading them and locking them. Every finder and lock
 * takes the actor and applies the tenant and the record visibility itself
 * (policy.ts `visibleTasks`): a handler or a command cannot reach a task its
 * caller may not see. Rows are mapped to the API's shapes here. The writes
 * are the engine's (workflow/engine.ts).
 */
import { type ExpressionBuilder, sql, type Transaction } from 'kysely';
import type { TaskFilters } from '../../../core/api/tasks.js';
import type { FormDefinition } from '../../../core/forms/definition.js';
import { ADHOC_TASK_CODE } from '../../../core/workflow/adhoc.js';
import type { ProtocolDefinition } from '../../../core/workflow/protocol.js';
import type { TaskState } from '../../../core/workflow/states.js';
import type { Db } from '../../db/pool.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import { containsPattern, type Page, paginate } from '../../lib/list.js';
import { type Actor, can, type Doer } from '../acl/policy.js';
import type { CaseRow } from '../cases/repo.js';
import { tenantTimeZone } from '../cases/filters.js';
import { visibleCases } from '../cases/policy.js';
import { masterLabels } from '../forms/options.js';
import { NO_RELATION, pendingFor, type TaskRelation, taskActions, visibleTasks } from './policy.js';
import { localName, localNameSql } from '../../lib/localName.js';

type Trx = Transaction<Database>;
type TC = ExpressionBuilder<Database & { t: Database['tasks']; c: Database['cases'] }, 't' | 'c'>;

/** A task as the engine's commands act on it. */
export interface TaskRow {
  id: number;
  entity_id: number;
  case_id: number;
  code: string;
  name: string;
  form_version_id: number | null;
  state: string;
  responsible_user_id: number | null;
  responsible_team_id: number | null;
  data: Record<string, unknown>;
  expiration_days: number | null;
  expiration_unit: 'calendar' | 'business';
  version: number;
}

const TASK_ROW = [
  't.id', 't.entity_id', 't.case_id', 't.code', 't.name', 't.form_version_id', 't.state', 't.responsible_user_id', 't.responsible_team_id', 't.data', 't.expiration_days', 't.expiration_unit', 't.version',
] as const;

/** The actor's role in the task's team, as a column (null: not a member). */
const myTeamRole = (actor: Actor) => (eb: TC) =>
  eb
    .selectFrom('team_members as mm')
    .whereRef('mm.team_id', '=', 't.responsible_team_id')
    .where('mm.user_id', '=', actor.userId)
    .where('mm.active', '=', true)
    .select('mm.role')
    .limit(1)
    .as('my_team_role');

const relationOf = (actor: Actor, r: { responsible_user_id: number | null; my_team_role: 'leader' | 'member' | null }): TaskRelation => ({
  responsible: r.responsible_user_id === actor.userId,
  team: r.my_team_role,
});

// ---------------------------------------------------------------- locks (for the engine's commands)

/** Tasks of the doer's tenant that it may see (the system sees its whole tenant). */
function lockable(trx: Trx, doer: Doer, taskId: number) {
  let q = trx.selectFrom('tasks as t').innerJoin('cases as c', 'c.id', 't.case_id').where('t.id', '=', taskId).where('t.entity_id', '=', doer.entityId);
  if (!('system' in doer)) q = q.where(visibleTasks(doer));
  return q;
}

/**
 * The task, locked for update, when the doer may see it; NOT_FOUND otherwise
 * (as reading it would answer). The system (jobs, the seed) acts in its
 * tenant. Its case is not locked.
 */
export async function lockTask(trx: Trx, doer: Doer, taskId: number): Promise<TaskRow> {
  const task = await lockable(trx, doer, taskId).select(TASK_ROW).forUpdate('t').executeTakeFirst();
  if (!task) throw new AppError('NOT_FOUND');
  return task;
}

/** The task and its case, both locked, in one statement; NOT_FOUND when the doer may not see the task. */
export async function lockTaskAndCase(trx: Trx, doer: Doer, taskId: number): Promise<{ task: TaskRow; c: CaseRow }> {
  const row = await lockable(trx, doer, taskId)
    .select([
      ...TASK_ROW, 'c.project_id', 'c.protocol_id', 'c.protocol_version_id', 'c.owner_id', 'c.serial', 'c.state as case_state', 'c.data as case_data', 'c.version as case_version',
    ])
    .forUpdate()
    .executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND');
  const { project_id, protocol_id, protocol_version_id, owner_id, serial, case_state, case_data, case_version, ...task } = row;
  return {
    task,
    c: { id: row.case_id, entity_id: row.entity_id, project_id, protocol_id, protocol_version_id, owner_id, serial, state: case_state, data: case_data, version: case_version },
  };
}

/** How the doer stands to a task (the system stands nowhere: it acts as itself). */
export async function relationTo(trx: Trx, doer: Doer, task: { responsible_user_id: number | null; responsible_team_id: number | null }): Promise<TaskRelation> {
  if ('system' in doer) return NO_RELATION;
  const member = task.responsible_team_id
    ? await trx.selectFrom('team_members').where('team_id', '=', task.responsible_team_id).where('user_id', '=', doer.userId).where('active', '=', true).select('role').executeTakeFirst()
    : undefined;
  return { responsible: task.responsible_user_id === doer.userId, team: member?.role ?? null };
}

// ---------------------------------------------------------------- lists

/** The tasks the actor may see, with the lists' columns. */
function visible(db: Db, actor: Actor) {
  return db
    .selectFrom('tasks as t')
    .innerJoin('cases as c', 'c.id', 't.case_id')
    .innerJoin('protocols as p', 'p.id', 'c.protocol_id')
    .leftJoin('users as u', 'u.id', 't.responsible_user_id')
    .leftJoin('teams as tm', 'tm.id', 't.responsible_team_id')
    .where('t.entity_id', '=', actor.entityId)
    .where(visibleTasks(actor) as never)
    .select([
      't.id', 't.code', localNameSql('t', actor.language).as('name'), 't.state', 't.case_id', 'c.serial', localNameSql('p', actor.language).as('protocol_name'), 't.responsible_user_id', 'u.name as responsible_name',
      't.responsible_team_id', 'tm.name as team_name', 't.due_at', 't.overdue', 't.created_at',
    ]);
}
type ListRow = Awaited<ReturnType<ReturnType<typeof visible>['executeTakeFirstOrThrow']>>;

const taskItem = (r: ListRow) => ({
  id: r.id,
  code: r.code,
  name: r.name,
  state: r.state as TaskState,
  caseId: r.case_id,
  caseNumber: r.serial,
  protocolName: r.protocol_name,
  responsibleId: r.responsible_user_id,
  responsibleName: r.responsible_name,
  teamId: r.responsible_team_id,
  teamName: r.team_name,
  dueAt: r.due_at,
  overdue: r.overdue,
  createdAt: r.created_at,
});

const searchTasks = (search: string) => (eb: TC) =>
  eb.or([eb('t.name', 'ilike', containsPattern(search)), eb('t.name_en', 'ilike', containsPattern(search)), eb('c.serial', 'ilike', containsPattern(search))]);

/** GET /api/tasks: every task the actor may see, filtered. */
export async function listTasks(db: Db, actor: Actor, f: TaskFilters) {
  const { search, sortBy = 'created_at', descending = true, state, protocolId, teamId, responsibleId, caseId, overdue, adhoc, code, from, to, handledBy } = f;
  let q = visible(db, actor);
  if (state) q = q.where('t.state', 'in', Array.isArray(state) ? state : [state]);
  if (protocolId) q = q.where('c.protocol_id', '=', protocolId);
  if (teamId) q = q.where('t.responsible_team_id', '=', teamId);
  if (responsibleId) q = q.where('t.responsible_user_id', '=', responsibleId);
  if (caseId) q = q.where('t.case_id', '=', caseId);
  if (overdue !== undefined) q = q.where('t.overdue', '=', overdue);
  if (adhoc !== undefined) q = q.where('t.code', adhoc ? '=' : '<>', ADHOC_TASK_CODE);
  if (code) q = q.where('t.code', '=', code);
  // Days of the tenant's calendar, as the reports count them (reports/dimensions.ts).
  if (from) q = q.where(sql<boolean>`t.created_at >= (${from}::date)::timestamp at time zone ${tenantTimeZone(actor)}`);
  if (to) q = q.where(sql<boolean>`t.created_at < (${to}::date + 1)::timestamp at time zone ${tenantTimeZone(actor)}`);
  if (handledBy) q = q.where(sql<boolean>`coalesce(t.decided_by, t.responsible_user_id) = ${handledBy}`);
  if (search) q = q.where(searchTasks(search) as never);
  q = q.orderBy(sortBy === 'name' ? localNameSql('t', actor.language) : sql.ref(`t.${sortBy}`), descending ? 'desc' : 'asc').orderBy('t.id', 'desc');
  const { rows, total } = await paginate(q, f);
  return { items: rows.map(taskItem), total };
}

/** GET /api/tasks/pending: the actor's open tasks, and the unassigned ones of its teams, with the spec's columns. */
export async function listPending(db: Db, actor: Actor, query: Page & { search?: string; sortBy?: 'due_at' | 'created_at'; descending?: boolean }) {
  const { search, sortBy = 'due_at', descending, page, limit } = query;
  let q = visible(db, actor)
    .innerJoin('protocol_versions as v', 'v.id', 'c.protocol_version_id')
    .select(['c.possible_duplicated', 'c.data as case_data', 'v.definition as protocol_definition'])
    .select(myTeamRole(actor) as never)
    .where(pendingFor(actor) as never);
  if (search) q = q.where(searchTasks(search) as never);
  q = q.orderBy(sql`${sql.ref(`t.${sortBy}`)} ${sql.raw(descending ? 'desc' : 'asc')} nulls last`).orderBy('t.id');
  const { rows, total } = await paginate(q, { page, limit });
  return {
    items: rows.map((r) => {
      const row = r as typeof r & { my_team_role: 'leader' | 'member' | null };
      // The protocol says which form fields fill the spec's columns.
      const cols = (r.protocol_definition as ProtocolDefinition).pendingColumns ?? { requireIncome: [], section8: null, thirdParty: null };
      const data = r.case_data as Record<string, unknown>;
      return {
        ...taskItem(r),
        possibleDuplicated: r.possible_duplicated,
        requireIncome: cols.requireIncome.some((f) => Boolean(data[f])),
        section8: cols.section8 ? Boolean(data[cols.section8]) : false,
        thirdParty: cols.thirdParty ? Boolean(data[cols.thirdParty]) : false,
        // Decided from the list: the others are on the task's page.
        actions: taskActions(actor, r, relationOf(actor, row)).filter((a) => a === 'accept' || a === 'reject'),
      };
    }),
    total,
  };
}

// ---------------------------------------------------------------- one task

/** Whether the actor may read the task (GET /api/tasks/:id would answer 200): the realtime room check. */
export async function mayReadTask(db: Db, actor: Actor, id: number): Promise<boolean> {
  if (!can(actor, 'wf_tareas', 'show')) return false;
  return (await visible(db, actor).where('t.id', '=', id).executeTakeFirst()) !== undefined;
}

/** GET /api/tasks/:id: the task with its form, its case, where it leads, and what the actor may do on it. */
export async function findTaskDetail(db: Db, actor: Actor, id: number) {
  const row = await visible(db, actor)
    .innerJoin('users as o', 'o.id', 'c.owner_id')
    .leftJoin('protocol_versions as v', 'v.id', 'c.protocol_version_id')
    .innerJoin('form_versions as mf', 'mf.id', 'c.form_version_id')
    .leftJoin('form_versions as tf', 'tf.id', 't.form_version_id')
    .select([
      't.version', 't.data', 't.reason', 't.instructions', 't.form_version_id', 'tf.definition as form_definition', 'c.state as case_state', 'c.data as case_data', 'c.possible_duplicated',
      'c.doc_date', 'o.name as owner_name', 'v.definition as protocol_definition', 'mf.definition as main_form',
    ])
    .select(myTeamRole(actor) as never)
    .where('t.id', '=', id)
    .executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND');
  const mine = row as typeof row & { my_team_role: 'leader' | 'member' | null };
  const def = row.protocol_definition as ProtocolDefinition | null;
  const tpl = def?.tasks.find((t) => t.code === row.code);
  const names = new Map((def?.tasks ?? []).map((t) => [t.code, localName(actor.language, t.name, t.name_en)]));
  return {
    ...taskItem(row),
    version: row.version,
    data: row.data as Record<string, unknown>,
    reason: row.reason,
    instructions: row.instructions,
    form: row.form_version_id ? { versionId: row.form_version_id, definition: row.form_definition as FormDefinition } : null,
    case: {
      id: row.case_id,
      number: row.serial,
      state: row.case_state,
      ownerName: row.owner_name,
      data: row.case_data as Record<string, unknown>,
      mainForm: row.main_form,
      possibleDuplicated: row.possible_duplicated,
      docDate: row.doc_date,
      optionLabels: await masterLabels(db, actor.entityId, row.main_form as FormDefinition, row.case_data as Record<string, unknown>, actor.language),
    },
    next: (tpl?.onAccept ?? []).map((e) => ({ code: e.to, name: names.get(e.to) ?? e.to, when: e.when ?? null })),
    onReject: tpl?.onReject ? ('to' in tpl.onReject ? { to: tpl.onReject.to, name: names.get(tpl.onReject.to) ?? tpl.onReject.to } : { notEligible: true as const }) : null,
    // Issue 23: the task that sets the award (its template's `award: true`); the page shows the award panel for it.
    ...(tpl?.award ? { award: true } : {}),
    actions: taskActions(actor, row, relationOf(actor, mine)),
  };
}

/** GET /api/cases/:id/timeline: the tasks of a case the actor may see, oldest first. */
export async function caseTimeline(db: Db, actor: Actor, caseId: number) {
  const c = await db
    .selectFrom('cases as c')
    .where('c.id', '=', caseId)
    .where('c.entity_id', '=', actor.entityId)
    .where(visibleCases(actor) as never)
    .select(['c.id', 'c.serial', 'c.state'])
    .executeTakeFirst();
  if (!c) throw new AppError('NOT_FOUND');
  const rows = await visible(db, actor)
    .leftJoin('users as d', 'd.id', 't.decided_by')
    .select(['t.reason', 't.decided_at', 'd.name as decided_by_name'])
    .where('t.case_id', '=', c.id)
    .orderBy('t.id')
    .execute();
  return { caseId: c.id, number: c.serial, state: c.state, tasks: rows.map((r) => ({ ...taskItem(r), reason: r.reason, decidedAt: r.decided_at, decidedBy: r.decided_by_name })) };
}
