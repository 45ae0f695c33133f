/**
 * The teams' SQL. Every finder takes the actor and reads its tenant only: a
 * team or membership of another tenant answers NOT_FOUND. Rows are mapped to
 * the API's shapes here.
 */
import { sql, type Transaction } from 'kysely';
import type { Db } from '../../db/pool.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import { containsPattern, type Page, paginate } from '../../lib/list.js';
import type { Actor, Doer } from '../acl/policy.js';
import type { MemberBody, MemberUpdate, TeamBody } from './schema.js';

type Executor = Db | Transaction<Database>;

// ---------------------------------------------------------------- teams

function teams(db: Executor, doer: Doer) {
  return db
    .selectFrom('teams as t')
    .where('t.entity_id', '=', doer.entityId)
    .select([
      't.id', 't.name', 't.description', 't.assignment', 't.active',
      sql<number>`(select count(*) from team_members m where m.team_id = t.id and m.active)::int`.as('members'),
      sql<number>`(select count(*) from tasks k where k.entity_id = t.entity_id and k.responsible_team_id = t.id and k.state in ('UNASSIGNED', 'PENDING', 'BLOCKED'))::int`.as('open_tasks'),
    ]);
}
type TeamRow = Awaited<ReturnType<ReturnType<typeof teams>['executeTakeFirstOrThrow']>>;

const teamView = (t: TeamRow) => ({ id: t.id, name: t.name, description: t.description, assignment: t.assignment, active: t.active, members: t.members, openTasks: t.open_tasks });
export type TeamView = ReturnType<typeof teamView>;

export async function listTeams(db: Db, actor: Actor, f: Page & { search?: string; descending?: boolean }) {
  let q = teams(db, actor);
  if (f.search) q = q.where('t.name', 'ilike', containsPattern(f.search));
  q = q.orderBy('t.name', f.descending ? 'desc' : 'asc').orderBy('t.id');
  const { rows, total } = await paginate(q, f);
  return { items: rows.map(teamView), total };
}

export async function findTeam(db: Executor, doer: Doer, id: number): Promise<TeamView> {
  const t = await teams(db, doer).where('t.id', '=', id).executeTakeFirst();
  if (!t) throw new AppError('NOT_FOUND');
  return teamView(t);
}

/** The team, locked for update, when it is the doer's tenant's. */
export async function lockTeam(trx: Transaction<Database>, doer: Doer, id: number): Promise<TeamView> {
  const locked = await trx.selectFrom('teams').where('id', '=', id).where('entity_id', '=', doer.entityId).select('id').forUpdate().executeTakeFirst();
  if (!locked) throw new AppError('NOT_FOUND');
  return findTeam(trx, doer, id);
}

export async function insertTeam(db: Executor, doer: Doer, body: TeamBody): Promise<number> {
  const row = await db.insertInto('teams').values({ entity_id: doer.entityId, ...body }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateTeam(db: Executor, doer: Doer, id: number, body: TeamBody): Promise<void> {
  const done = await db.updateTable('teams').set(body).where('id', '=', id).where('entity_id', '=', doer.entityId).returning('id').executeTakeFirst();
  if (!done) throw new AppError('NOT_FOUND');
}

/** Whether a protocol of the tenant names the team as the responsible of a task (in its draft). */
export async function protocolsNameTeam(db: Executor, doer: Doer, teamId: number): Promise<boolean> {
  const named = await db
    .selectFrom('protocols')
    .where('entity_id', '=', doer.entityId)
    .where(sql<boolean>`exists (select 1 from jsonb_array_elements(draft->'tasks') t where (t->'responsible'->>'teamId')::bigint = ${teamId})`)
    .select('id')
    .executeTakeFirst();
  return named !== undefined;
}

export async function removeTeam(db: Executor, doer: Doer, id: number): Promise<void> {
  await db.deleteFrom('teams').where('id', '=', id).where('entity_id', '=', doer.entityId).execute();
}

// ---------------------------------------------------------------- members

function members(db: Executor, doer: Doer) {
  return db
    .selectFrom('team_members as m')
    .innerJoin('teams as t', 't.id', 'm.team_id')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .where('m.entity_id', '=', doer.entityId)
    .select(['m.id', 'm.team_id', 't.name as team_name', 'm.user_id', 'u.name as user_name', 'u.email as user_email', 'm.role', 'm.active']);
}
type MemberRow = Awaited<ReturnType<ReturnType<typeof members>['executeTakeFirstOrThrow']>>;

const memberView = (m: MemberRow) => ({ id: m.id, teamId: m.team_id, teamName: m.team_name, userId: m.user_id, userName: m.user_name, userEmail: m.user_email, role: m.role, active: m.active });

export async function listMembers(db: Db, actor: Actor, f: Page & { search?: string; sortBy?: 'user_name' | 'team_name'; descending?: boolean; teamId?: number }) {
  let q = members(db, actor);
  if (f.teamId) q = q.where('m.team_id', '=', f.teamId);
  if (f.search) {
    const p = containsPattern(f.search);
    q = q.where((eb) => eb.or([eb('u.name', 'ilike', p), eb('u.email', 'ilike', p), eb('t.name', 'ilike', p)]));
  }
  q = q.orderBy(f.sortBy === 'user_name' ? 'u.name' : 't.name', f.descending ? 'desc' : 'asc').orderBy('u.name').orderBy('m.id');
  const { rows, total } = await paginate(q, f);
  return { items: rows.map(memberView), total };
}

export async function findMember(db: Executor, doer: Doer, id: number) {
  const m = await members(db, doer).where('m.id', '=', id).executeTakeFirst();
  if (!m) throw new AppError('NOT_FOUND');
  return memberView(m);
}

/** Active users of the tenant who can join a team, by name or email. */
export async function userOptions(db: Db, actor: Actor, search?: string) {
  let q = db.selectFrom('users').where('entity_id', '=', actor.entityId).where('active', '=', true).select(['id', 'name', 'email']).orderBy('name').limit(50);
  if (search) q = q.where((eb) => eb.or([eb('name', 'ilike', containsPattern(search)), eb('email', 'ilike', containsPattern(search))]));
  return q.execute();
}

/** Whether the team belongs to the doer's tenant; held FOR SHARE in a transaction. */
export async function isTeamOfTenant(trx: Transaction<Database>, doer: Doer, teamId: number): Promise<boolean> {
  return (await trx.selectFrom('teams').where('id', '=', teamId).where('entity_id', '=', doer.entityId).select('id').forShare().executeTakeFirst()) !== undefined;
}

/** Whether the user belongs to the doer's tenant. */
export async function isUserOfTenant(db: Executor, doer: Doer, userId: number): Promise<boolean> {
  return (await db.selectFrom('users').where('id', '=', userId).where('entity_id', '=', doer.entityId).select('id').executeTakeFirst()) !== undefined;
}

export async function insertMember(db: Executor, doer: Doer, m: MemberBody): Promise<number> {
  const row = await db
    .insertInto('team_members')
    .values({ entity_id: doer.entityId, team_id: m.teamId, user_id: m.userId, role: m.role, active: m.active })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateMember(db: Executor, doer: Doer, id: number, change: MemberUpdate): Promise<void> {
  const done = await db.updateTable('team_members').set(change).where('id', '=', id).where('entity_id', '=', doer.entityId).returning('id').executeTakeFirst();
  if (!done) throw new AppError('NOT_FOUND');
}

export async function removeMember(db: Executor, doer: Doer, id: number): Promise<void> {
  const done = await db.deleteFrom('team_members').where('id', '=', id).where('entity_id', '=', doer.entityId).executeTakeFirst();
  if (Number(done.numDeletedRows) === 0) throw new AppError('NOT_FOUND');
}
