/**
 * Many applications opened at once (the bulk import, issue 17): the same
 * rows the one-by-one path (cases/commands.ts submitCaseInTrx, then
 * engine.ts startWorkflow) writes, in a few statements for a whole batch:
 * the cases, already numbered and PENDING; their history (created and
 * submitted); their start tasks with responsibles and due dates; the tasks'
 * history. Assignment follows the engine's rules in the order the one-by-one
 * path would meet them (row by row, start task by start task): a team's
 * round-robin cursor moves once per task, least loaded counts each task as
 * it is given. Notifications are the caller's (one summary per assignee).
 *
 * Application numbers and team cursors are reserved through `reserve`: the
 * batch's own transaction (the numbers then commit with the cases), or, for
 * an all-or-nothing import whose one transaction lasts the whole file, short
 * transactions of their own, so that other submissions never wait behind it
 * (a rolled-back import then leaves a gap in the numbers).
 */
import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import { sql, type Transaction } from 'kysely';
import type { ProtocolDefinition, TaskTemplate } from '../../../core/workflow/protocol.js';
import type { Db } from '../../db/pool.js';
import type { Database } from '../../db/types.js';
import type { Actor } from '../acl/policy.js';
import { changedFields } from '../cases/commands.js';
import { taskDueAt } from './due.js';
import { LOAD_CAP, leastLoaded, nextRoundRobin } from './engine.js';

dayjs.extend(utc);
dayjs.extend(timezone);

type Trx = Transaction<Database>;

export interface BulkCase {
  externalRef: string;
  data: Record<string, unknown>;
  possibleDuplicated: boolean;
}

export interface BulkTarget {
  protocolId: number;
  protocolVersionId: number;
  def: ProtocolDefinition;
  caseType: 'RADICACION_INTERNA' | 'RADICACION_PUBLICA' | 'RADICACION_AUTOMATICA';
  project: { id: number; timeZone: string };
}

export interface BulkOpened {
  /** Per input row, in order: the case made, or null when its reference was taken meanwhile. */
  caseIds: Array<number | null>;
  /** The PENDING tasks given to each person. */
  assigned: Map<number, number>;
}

/** Where numbers and cursors are reserved: inside the batch, or in short transactions of their own. */
export type Reserve = <T>(fn: (trx: Trx) => Promise<T>) => Promise<T>;
export const reserveIn = (trx: Trx): Reserve => (fn) => fn(trx);
export const reserveApart = (db: Db): Reserve => (fn) => db.transaction().execute(fn);

/**
 * Opens `rows` as submitted cases of `doer` (the importer owns them) with
 * their start tasks. `extraLoad`: PENDING tasks given by earlier batches
 * that are not committed yet (an all-or-nothing import), added to the loads
 * read from the database; this batch's are added to it.
 */
export async function openCasesInBulk(trx: Trx, reserve: Reserve, doer: Actor, target: BulkTarget, rows: BulkCase[], extraLoad: Map<number, number>, now = new Date()): Promise<BulkOpened> {
  const assigned = new Map<number, number>();
  if (rows.length === 0) return { caseIds: [], assigned };
  const { def } = target;
  const starts = def.start.map((code) => {
    const t = def.tasks.find((x) => x.code === code);
    if (!t) throw new Error(`protocol version ${target.protocolVersionId} has no start task ${code}`);
    return t;
  });

  // Numbers: one statement reserves the batch's run of the month's counter.
  const month = dayjs(now).tz(target.project.timeZone).format('YYYY-MM');
  const last = await reserve(async (r) =>
    (
      await r
        .insertInto('case_counters')
        .values({ project_id: target.project.id, month, last: rows.length })
        .onConflict((oc) => oc.columns(['project_id', 'month']).doUpdateSet({ last: sql`case_counters.last + ${rows.length}` }))
        .returning('last')
        .executeTakeFirstOrThrow()
    ).last,
  );
  const firstSeq = last - rows.length + 1;

  // Who does each start task of each row, in the one-by-one order.
  const picks = await planResponsibles(trx, reserve, doer, starts, rows.length, extraLoad);

  // Each insert is one statement over column arrays (unnest): a parameter per column, not per value.
  const serials = rows.map((_, i) => `${month}-${String(firstSeq + i).padStart(6, '0')}`);
  const inserted = (
    await sql<{ id: number; external_ref: string; serial: string }>`
      insert into cases (entity_id, project_id, protocol_id, protocol_version_id, form_version_id, owner_id, case_type, data, external_ref,
                         state, serial, serial_month, serial_seq, doc_date, possible_duplicated, version, created_at, updated_at)
      select ${doer.entityId}, ${target.project.id}, ${target.protocolId}, ${target.protocolVersionId}, ${def.mainFormVersionId}, ${doer.userId}, ${target.caseType},
             u.data::jsonb, u.ref, 'PENDING', u.serial, ${month}, u.seq, ${now}, u.dup,
             -- A draft (1) submitted (2), as the one-by-one path leaves it.
             2, ${now}, ${now}
      from unnest(${rows.map((r) => JSON.stringify(r.data))}::text[], ${rows.map((r) => r.externalRef)}::text[], ${serials}::text[],
                  ${rows.map((_, i) => firstSeq + i)}::int[], ${rows.map((r) => r.possibleDuplicated)}::boolean[]) as u(data, ref, serial, seq, dup)
      on conflict (entity_id, protocol_id, external_ref) where external_ref is not null do nothing
      returning id, external_ref, serial`.execute(trx)
  ).rows;
  const byRef = new Map(inserted.map((c) => [c.external_ref, c]));
  const caseIds = rows.map((r) => byRef.get(r.externalRef)?.id ?? null);
  const made = rows.flatMap((r, i) => {
    const c = byRef.get(r.externalRef);
    return c ? [{ row: r, index: i, id: Number(c.id), serial: c.serial }] : [];
  });
  if (made.length === 0) return { caseIds: caseIds.map((id) => (id === null ? null : Number(id))), assigned };

  const userId = doer.userId;
  await insertEvents(trx, doer.entityId, userId, now, [
    ...made.map((m) => ({ caseId: m.id, taskId: null, number: null, action: 'case_created', type: 'case', detail: { fields: changedFields({}, m.row.data) } })),
    ...made.map((m) => ({ caseId: m.id, taskId: null, number: m.serial, action: 'case_submit', type: 'case', detail: { from: 'DRAFT', to: 'PENDING' } })),
  ]);

  // Due dates: every case of the batch is in one project and opened at `now`, so one per start task.
  const probe = { entity_id: doer.entityId, project_id: target.project.id };
  const dues = await Promise.all(
    starts.map(async (t) => {
      const due = await taskDueAt(trx as never, probe, t.expirationDays, t.expirationUnit ?? 'calendar', now);
      if (due === null || due instanceof Date) return due;
      return (await sql<{ due: Date }>`select ${due} as due`.execute(trx)).rows[0]?.due ?? null;
    }),
  );
  const tasks = made.flatMap((m) =>
    starts.map((t, k) => {
      const who = picks[m.index]?.[k] as Pick;
      const state = who.userId ? 'PENDING' : 'UNASSIGNED';
      return { caseId: m.id, t, who, state, due: state === 'PENDING' ? dues[k] : null };
    }),
  );
  const taskRows = (
    await sql<{ id: number; case_id: number; code: string; state: string; responsible_user_id: number | null; responsible_team_id: number | null }>`
      insert into tasks (entity_id, case_id, code, name, name_en, form_version_id, state, responsible_user_id, responsible_team_id, data,
                         expiration_days, expiration_unit, due_at, waiting_for, reason, created_at, updated_at)
      select ${doer.entityId}, u.case_id, u.code, u.name, u.name_en, u.form_version_id, u.state, u.user_id, u.team_id, '{}'::jsonb,
             u.days, u.unit, u.due, 0, null, ${now}, ${now}
      from unnest(${tasks.map((x) => x.caseId)}::bigint[], ${tasks.map((x) => x.t.code)}::text[], ${tasks.map((x) => x.t.name)}::text[], ${tasks.map((x) => x.t.name_en ?? '')}::text[],
                  ${tasks.map((x) => x.t.formVersionId ?? null)}::bigint[], ${tasks.map((x) => x.state)}::text[], ${tasks.map((x) => x.who.userId)}::bigint[],
                  ${tasks.map((x) => x.who.teamId)}::bigint[], ${tasks.map((x) => x.t.expirationDays)}::int[], ${tasks.map((x) => x.t.expirationUnit ?? 'calendar')}::text[],
                  ${tasks.map((x) => x.due)}::timestamptz[])
           as u(case_id, code, name, name_en, form_version_id, state, user_id, team_id, days, unit, due)
      returning id, case_id, code, state, responsible_user_id, responsible_team_id`.execute(trx)
  ).rows;
  const serialOf = new Map(made.map((m) => [m.id, m.serial]));
  await insertEvents(
    trx, doer.entityId, userId, now,
    taskRows.map((t) => ({
      caseId: Number(t.case_id), taskId: Number(t.id), number: serialOf.get(Number(t.case_id)) ?? null, action: 'task_created', type: 'task',
      detail: { code: t.code, state: t.state, responsible: t.responsible_user_id === null ? null : Number(t.responsible_user_id), team: t.responsible_team_id === null ? null : Number(t.responsible_team_id) },
    })),
  );
  for (const t of taskRows) {
    if (t.state === 'PENDING' && t.responsible_user_id !== null) {
      const id = Number(t.responsible_user_id);
      assigned.set(id, (assigned.get(id) ?? 0) + 1);
    }
  }
  return { caseIds: caseIds.map((id) => (id === null ? null : Number(id))), assigned };
}

/** History rows in one statement, in the order given (recordEvent's columns). */
async function insertEvents(trx: Trx, entityId: number, userId: number, now: Date, events: Array<{ caseId: number; taskId: number | null; number: string | null; action: string; type: string; detail: unknown }>): Promise<void> {
  if (events.length === 0) return;
  await sql`
    insert into case_events (entity_id, case_id, task_id, user_id, application_number, action, type, detail, created_at)
    select ${entityId}, u.case_id, u.task_id, ${userId}, u.number, u.action, u.type, u.detail::jsonb, ${now}
    from unnest(${events.map((e) => e.caseId)}::bigint[], ${events.map((e) => e.taskId)}::bigint[], ${events.map((e) => e.number)}::text[],
                ${events.map((e) => e.action)}::text[], ${events.map((e) => e.type)}::text[], ${events.map((e) => JSON.stringify(e.detail))}::text[])
         as u(case_id, task_id, number, action, type, detail)`.execute(trx);
}

interface Pick {
  userId: number | null;
  teamId: number | null;
}

/**
 * The responsible of each start task of `count` cases, as resolveResponsible
 * would give them one case after another. Team cursors move in `reserve`.
 */
async function planResponsibles(trx: Trx, reserve: Reserve, doer: Actor, starts: TaskTemplate[], count: number, extraLoad: Map<number, number>): Promise<Pick[][]> {
  const fixed = new Map<number, number | null>();
  const activeIds = async (ids: number[]) => {
    if (ids.length === 0) return new Set<number>();
    const rows = await trx.selectFrom('users').where('id', 'in', ids).where('entity_id', '=', doer.entityId).where('active', '=', true).where('locked', '=', false).select('id').execute();
    return new Set(rows.map((r) => r.id));
  };
  const named = starts.flatMap((t) => (t.responsible.kind === 'user' ? [t.responsible.userId] : t.responsible.kind === 'owner' ? [doer.userId] : []));
  const active = await activeIds([...new Set(named)]);
  for (const id of named) fixed.set(id, active.has(id) ? id : null);

  const teamIds = [...new Set(starts.flatMap((t) => (t.responsible.kind === 'team' ? [t.responsible.teamId] : [])))];
  const plan = (rows: Array<{ team_id: number; id: number; assignment: string; load: number; cursor: number | null }>): Pick[][] => {
    const teams = new Map<number, { ids: number[]; leastLoaded: boolean; cursor: number | null }>();
    const loads = new Map<number, number>();
    for (const r of rows) {
      const t = teams.get(r.team_id) ?? { ids: [], leastLoaded: r.assignment === 'least_loaded', cursor: r.cursor };
      t.ids.push(r.id);
      teams.set(r.team_id, t);
      loads.set(r.id, Math.min(LOAD_CAP, r.load + (extraLoad.get(r.id) ?? 0)));
    }
    const given = (userId: number | null) => {
      if (userId === null) return;
      extraLoad.set(userId, (extraLoad.get(userId) ?? 0) + 1);
      if (loads.has(userId)) loads.set(userId, Math.min(LOAD_CAP, (loads.get(userId) as number) + 1));
    };
    const out: Pick[][] = [];
    for (let i = 0; i < count; i++) {
      const row: Pick[] = [];
      for (const t of starts) {
        const r = t.responsible;
        let pick: Pick;
        if (r.kind === 'owner') pick = { userId: fixed.get(doer.userId) ?? null, teamId: null };
        else if (r.kind === 'user') pick = { userId: fixed.get(r.userId) ?? null, teamId: null };
        // An earlier task of the same case: a new case has none.
        else if (r.kind === 'task') pick = { userId: null, teamId: null };
        else {
          const team = teams.get(r.teamId);
          if (!team) pick = { userId: null, teamId: r.teamId };
          else if (team.leastLoaded) pick = { userId: leastLoaded(team.ids.map((id) => ({ id, load: loads.get(id) as number }))), teamId: r.teamId };
          else {
            team.cursor = nextRoundRobin(team.ids, team.cursor);
            pick = { userId: team.cursor, teamId: r.teamId };
          }
        }
        given(pick.userId);
        row.push(pick);
      }
      out.push(row);
    }
    for (const [teamId, t] of teams) if (!t.leastLoaded) cursors.set(teamId, t.cursor);
    return out;
  };
  const cursors = new Map<number, number | null>();
  if (teamIds.length === 0) return plan([]);
  return reserve(async (r) => {
    // The teams' rows locked while their cursors move (as the one-by-one update does, for the batch), then read.
    await r.selectFrom('teams').where('id', 'in', teamIds).select('id').forUpdate().execute();
    const members = await r
      .selectFrom('team_members as m')
      .innerJoin('teams as tm', 'tm.id', 'm.team_id')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .where('m.team_id', 'in', teamIds)
      .where('tm.entity_id', '=', doer.entityId)
      .where('tm.active', '=', true)
      .where('m.active', '=', true)
      .where('u.active', '=', true)
      .where('u.locked', '=', false)
      .select([
        'm.team_id',
        'u.id',
        'tm.assignment',
        'tm.last_assigned_user_id as cursor',
        sql<number>`(select count(*) from (select 1 from tasks t where t.entity_id = u.entity_id and t.responsible_user_id = u.id and t.state = 'PENDING' limit ${LOAD_CAP}) x)::int`.as('load'),
      ])
      .orderBy('m.team_id')
      .orderBy('u.id')
      .execute();
    const out = plan(members);
    for (const [teamId, cursor] of cursors) await r.updateTable('teams').set({ last_assigned_user_id: cursor }).where('id', '=', teamId).execute();
    return out;
  });
}
