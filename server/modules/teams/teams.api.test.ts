import type { Action } from '../../../core/targets.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, login, type TestApp } from '../../../tests/support/app.js';
import { makeEntity, makeTeam, makeTeamMember, makeUser } from '../../../tests/support/factories.js';

let t: TestApp;
type Who = 'team admin' | 'team leader' | 'team member' | 'none' | 'admin of another tenant';
const sessions = {} as Record<Who, { sid: string }>;
let entityId: number;
/** Who the rows' teams have as leader and member, and a user of the tenant to add or change. */
const users = {} as Record<'leader' | 'member' | 'target', number>;

const PASSWORD = 'Passw0rd1';
const CRUD: Action[] = ['show', 'create', 'update', 'delete'];
const RIGHTS = { wf_equipos: CRUD, wf_equipos_integrantes: CRUD };

beforeAll(async () => {
  t = await createTestApp();
  const entity = await makeEntity(t.db);
  const other = await makeEntity(t.db);
  entityId = entity.id;
  const admin = await makeUser(t.db, entity.id, { role: 'team-admin', rules: { ...RIGHTS } });
  // Leading or belonging to a team gives no rights over it: only the role's targets do.
  const leader = await makeUser(t.db, entity.id, { role: 'clerk', rules: { wf_casos: ['show'] } });
  const member = await makeUser(t.db, entity.id, { role: 'clerk' });
  const none = await makeUser(t.db, entity.id, { role: 'clerk' });
  const outsider = await makeUser(t.db, other.id, { role: 'team-admin', rules: { ...RIGHTS } });
  users.leader = leader.id;
  users.member = member.id;
  users.target = (await makeUser(t.db, entity.id)).id;
  const pairs: Array<[Who, string]> = [
    ['team admin', admin.email],
    ['team leader', leader.email],
    ['team member', member.email],
    ['none', none.email],
    ['admin of another tenant', outsider.email],
  ];
  for (const [who, email] of pairs) sessions[who] = await login(t, email, PASSWORD);
});
afterAll(() => t.close());

type Outcome = 'allowed' | 'forbidden' | 'not found' | 'sees none' | 'invalid team';
type TeamAction = 'see the team' | 'rename the team' | 'delete the team' | 'list its members' | 'add a member' | 'change a member' | 'remove a member';

/** A team of its own for each row: led by the leader, with the member, and the target user in it unless it is to be added. */
async function freshTeam(action: TeamAction) {
  const team = await makeTeam(t.db, entityId);
  await makeTeamMember(t.db, team, users.leader, { role: 'leader' });
  await makeTeamMember(t.db, team, users.member);
  const target = action === 'add a member' ? undefined : await makeTeamMember(t.db, team, users.target);
  return { team, target };
}

async function attempt(who: Who, action: TeamAction) {
  const { team, target } = await freshTeam(action);
  const as = (method: string, url: string, payload?: object) => t.request({ method: method as 'GET', url, cookies: sessions[who], payload });
  switch (action) {
    case 'see the team':
      return as('GET', `/api/teams/${team.id}`);
    case 'rename the team':
      return as('PUT', `/api/teams/${team.id}`, { name: `${team.name} renamed` });
    case 'delete the team':
      return as('DELETE', `/api/teams/${team.id}`);
    case 'list its members':
      return as('GET', `/api/team-members?teamId=${team.id}`);
    case 'add a member':
      return as('POST', '/api/team-members', { teamId: team.id, userId: users.target });
    case 'change a member':
      return as('PUT', `/api/team-members/${target?.id}`, { role: 'leader', active: true });
    case 'remove a member':
      return as('DELETE', `/api/team-members/${target?.id}`);
  }
}

// Who may do what to a team of the tenant and its memberships.
const table: Array<[Who, TeamAction, Outcome]> = [
  ['team admin', 'see the team', 'allowed'],
  ['team admin', 'rename the team', 'allowed'],
  ['team admin', 'delete the team', 'allowed'],
  ['team admin', 'list its members', 'allowed'],
  ['team admin', 'add a member', 'allowed'],
  ['team admin', 'change a member', 'allowed'],
  ['team admin', 'remove a member', 'allowed'],

  ['team leader', 'see the team', 'forbidden'],
  ['team leader', 'rename the team', 'forbidden'],
  ['team leader', 'delete the team', 'forbidden'],
  ['team leader', 'list its members', 'forbidden'],
  ['team leader', 'add a member', 'forbidden'],
  ['team leader', 'change a member', 'forbidden'],
  ['team leader', 'remove a member', 'forbidden'],

  ['team member', 'see the team', 'forbidden'],
  ['team member', 'rename the team', 'forbidden'],
  ['team member', 'delete the team', 'forbidden'],
  ['team member', 'list its members', 'forbidden'],
  ['team member', 'add a member', 'forbidden'],
  ['team member', 'change a member', 'forbidden'],
  ['team member', 'remove a member', 'forbidden'],

  ['none', 'see the team', 'forbidden'],
  ['none', 'rename the team', 'forbidden'],
  ['none', 'delete the team', 'forbidden'],
  ['none', 'list its members', 'forbidden'],
  ['none', 'add a member', 'forbidden'],
  ['none', 'change a member', 'forbidden'],
  ['none', 'remove a member', 'forbidden'],

  ['admin of another tenant', 'see the team', 'not found'],
  ['admin of another tenant', 'rename the team', 'not found'],
  ['admin of another tenant', 'delete the team', 'not found'],
  ['admin of another tenant', 'list its members', 'sees none'],
  ['admin of another tenant', 'add a member', 'invalid team'],
  ['admin of another tenant', 'change a member', 'not found'],
  ['admin of another tenant', 'remove a member', 'not found'],
];

describe('team policy', () => {
  it.each(table)('%s: %s -> %s', async (who, action, outcome) => {
    const res = await attempt(who, action);
    switch (outcome) {
      case 'allowed':
        expect(res.statusCode, res.body).toBeGreaterThanOrEqual(200);
        expect(res.statusCode, res.body).toBeLessThan(300);
        if (action === 'list its members') expect(res.json<{ total: number }>().total).toBe(3);
        return;
      case 'forbidden':
        return expect(res.statusCode, res.body).toBe(403);
      case 'not found':
        return expect(res.statusCode, res.body).toBe(404);
      case 'sees none':
        expect(res.statusCode).toBe(200);
        return expect(res.json<{ total: number }>().total).toBe(0);
      case 'invalid team':
        expect(res.statusCode).toBe(400);
        return expect(res.json<{ error: { details: Array<{ path: string }> } }>().error.details[0].path).toBe('teamId');
    }
  });
});

describe('teams', () => {
  const admin = () => sessions['team admin'];
  const req = (method: string, url: string, payload?: object) => t.request({ method: method as 'GET', url, cookies: admin(), payload });
  type Err = { error: { code: string; details?: Array<{ path: string }> } };

  it('creates a team, refuses a second of the same name, and keeps a team in use', async () => {
    const created = await req('POST', '/api/teams', { name: 'Intake', assignment: 'round_robin' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ name: 'Intake', description: '', assignment: 'round_robin', active: true, members: 0, openTasks: 0 });
    const again = await req('POST', '/api/teams', { name: 'Intake' });
    expect(again.statusCode).toBe(409);
    expect(again.json<Err>().error.code).toBe('DUPLICATE');
    const other = await makeTeam(t.db, entityId, { name: 'Outreach' });
    const rename = await req('PUT', `/api/teams/${other.id}`, { name: 'Intake' });
    expect(rename.json<Err>().error.code).toBe('DUPLICATE');
    const list = await req('GET', '/api/teams?search=intak');
    expect(list.json<{ items: Array<{ name: string }> }>().items.map((i) => i.name)).toEqual(['Intake']);
  });

  it('refuses a user twice in one team, and a user of another tenant', async () => {
    const team = await makeTeam(t.db, entityId);
    const first = await req('POST', '/api/team-members', { teamId: team.id, userId: users.target, role: 'leader' });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({ teamId: team.id, teamName: team.name, userId: users.target, role: 'leader', active: true });
    const twice = await req('POST', '/api/team-members', { teamId: team.id, userId: users.target });
    expect(twice.statusCode).toBe(409);
    expect(twice.json<Err>().error.code).toBe('DUPLICATE');
    const stranger = await makeUser(t.db, (await makeEntity(t.db)).id);
    const foreign = await req('POST', '/api/team-members', { teamId: team.id, userId: stranger.id });
    expect(foreign.json<Err>().error.details?.[0].path).toBe('userId');
    const options = await req('GET', `/api/team-members/user-options?search=${encodeURIComponent(stranger.email)}`);
    expect(options.json()).toEqual([]);
  });
});
