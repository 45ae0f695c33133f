import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, login, type TestApp } from '../../../tests/support/app.js';
import { makeEntity, makeProject, makeTeam, makeTeamMember, makeUser } from '../../../tests/support/factories.js';

/**
 * Who may read, download and keep which reports, through the API, as tables
 * written out here.
 *
 * First: a role (the rights it holds) x a route -> the status. 403: the role
 * lacks the report's target, or for a download `excel_reports` `export` as
 * well; the saved reports need `menuReportes`, the dashboard `wf_tareas`.
 *
 * Second: a reader's relation to a saved report x an action -> the status.
 * Its owner reads, changes and deletes it; the active members of the team
 * it is shared with read it (403 to change it); anyone else, a member
 * without the report's own right, and another tenant get 404, as for one
 * that does not exist. A refused change leaves it as it was.
 */
const ROLES = {
  guest: { wf_casos: ['show'] },
  taskReader: { tareas_reports: ['show'], menuReportes: ['show'], wf_tareas: ['show'] },
  trackingReader: { application_comments_reports: ['show'], user_comments_reports: ['show'], menuReportes: ['show'] },
  taskExporter: { tareas_reports: ['show'], excel_reports: ['export'], menuReportes: ['show'] },
  coordinator: {
    tareas_reports: ['show'], application_comments_reports: ['show'], user_comments_reports: ['show'], excel_reports: ['show', 'export'], menuReportes: ['show'], wf_tareas: ['show'],
    admin_cases: ['show'],
  },
} as const;
type Role = keyof typeof ROLES;

const ROUTES = {
  statusByTask: '/api/reports/status-by-task/pivot',
  taskDetails: '/api/reports/task-details/rows',
  statusByUser: '/api/reports/status-by-user/pivot?columns=none',
  trackingByCase: '/api/reports/tracking-by-case/rows',
  caseComments: '/api/reports/tracking-by-case/comments',
  trackingByUser: '/api/reports/tracking-by-user/rows',
  userPivot: '/api/reports/tracking-by-user/pivot',
  exportTasks: '/api/reports/status-by-task/export?format=csv',
  exportDetails: '/api/reports/task-details/export',
  exportTracking: '/api/reports/tracking-by-case/export',
  saved: '/api/reports/saved',
  dashboard: '/api/reports/dashboard',
} as const;
type Route = keyof typeof ROUTES;

//                                 statusByTask taskDetails statusByUser trackingByCase caseComments trackingByUser userPivot exportTasks exportDetails exportTracking saved dashboard
const TABLE: Record<Role, Record<Route, number>> = {
  guest: row([403, 403, 403, 403, 403, 403, 403, 403, 403, 403, 403, 403]),
  taskReader: row([200, 200, 200, 403, 403, 403, 403, 403, 403, 403, 200, 200]),
  trackingReader: row([403, 403, 403, 200, 200, 200, 200, 403, 403, 403, 200, 403]),
  taskExporter: row([200, 200, 200, 403, 403, 403, 403, 200, 200, 403, 200, 403]),
  coordinator: row([200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200]),
};
function row(statuses: number[]): Record<Route, number> {
  return Object.fromEntries((Object.keys(ROUTES) as Route[]).map((r, i) => [r, statuses[i]])) as Record<Route, number>;
}

const RELATIONS = ['owner', 'member', 'inactiveMember', 'none', 'memberWithoutReport', 'otherTenant'] as const;
type Relation = (typeof RELATIONS)[number];
type SavedAction = 'read' | 'list' | 'edit' | 'delete';
//                                                read list edit delete    (list: 200 with it, or 404 when it is not listed)
const SAVED: Record<Relation, Record<SavedAction, number>> = {
  owner: { read: 200, list: 200, edit: 200, delete: 204 },
  member: { read: 200, list: 200, edit: 403, delete: 403 },
  inactiveMember: { read: 404, list: 404, edit: 404, delete: 404 },
  none: { read: 404, list: 404, edit: 404, delete: 404 },
  memberWithoutReport: { read: 404, list: 404, edit: 404, delete: 404 },
  otherTenant: { read: 404, list: 404, edit: 404, delete: 404 },
};

let t: TestApp;
let entityId: number;
let team: { id: number; entity_id: number };
const people = {} as Record<Role, { id: number; sid: string }>;
const related = {} as Record<Relation, { id: number; sid: string }>;

async function person(entity: number, role: Role) {
  const u = await makeUser(t.db, entity, { role: `reports-policy-${role}`, rules: ROLES[role] as never });
  return { id: u.id, sid: (await login(t, u.email, 'Passw0rd1')).sid };
}

beforeAll(async () => {
  t = await createTestApp();
  entityId = (await makeEntity(t.db)).id;
  await makeProject(t.db, { entity_id: entityId });
  for (const role of Object.keys(ROLES) as Role[]) people[role] = await person(entityId, role);
  team = await makeTeam(t.db, entityId);
  related.owner = await person(entityId, 'coordinator');
  related.member = await person(entityId, 'coordinator');
  related.inactiveMember = await person(entityId, 'coordinator');
  related.none = await person(entityId, 'coordinator');
  related.memberWithoutReport = await person(entityId, 'trackingReader');
  await makeTeamMember(t.db, team, related.member.id);
  await makeTeamMember(t.db, team, related.inactiveMember.id, { active: false });
  await makeTeamMember(t.db, team, related.memberWithoutReport.id);
  related.otherTenant = await person((await makeEntity(t.db)).id, 'coordinator');
});
afterAll(() => t.close());

describe('who may open which report', () => {
  const cases = (Object.keys(TABLE) as Role[]).flatMap((role) => (Object.keys(ROUTES) as Route[]).map((route) => [role, route, TABLE[role][route]] as const));
  it.each(cases)('%s: %s -> %i', async (role, route, status) => {
    const res = await t.request({ method: 'GET', url: ROUTES[route], cookies: { sid: people[role].sid, lang: 'en' } });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(status);
    if (status === 403) expect(res.json<{ error: { code: string } }>().error.code).toBe('FORBIDDEN');
  });
});

describe('who may read and change a saved report', () => {
  const cases = RELATIONS.flatMap((relation) => (['read', 'list', 'edit', 'delete'] as const).map((action) => [relation, action, SAVED[relation][action]] as const));
  it.each(cases)('%s: %s -> %i', async (relation, action, status) => {
    const saved = await t.db
      .insertInto('saved_reports')
      .values({
        entity_id: entityId, owner_id: related.owner.id, team_id: team.id, name: `Shared ${relation} ${action}`, report: 'status-by-task', filters: JSON.stringify({ state: 'PENDING' }),
        layout: JSON.stringify({ view: 'pivot', rows: 'task', columns: 'state', measure: 'count', chart: 'bar' }),
      })
      .returning(['id', 'updated_at'])
      .executeTakeFirstOrThrow();
    const cookies = { sid: related[relation].sid, lang: 'en' };
    const url = `/api/reports/saved/${saved.id}`;
    const body = { name: `Renamed ${relation} ${action}`, report: 'status-by-task', filters: {}, layout: { view: 'pivot', chart: 'line' }, teamId: null };
    const res =
      action === 'read'
        ? await t.request({ method: 'GET', url, cookies })
        : action === 'list'
          ? await t.request({ method: 'GET', url: '/api/reports/saved', cookies })
          : await t.request({ method: action === 'edit' ? 'PUT' : 'DELETE', url, cookies, payload: action === 'edit' ? body : undefined });
    if (action === 'list') {
      expect(res.statusCode).toBe(200);
      const listed = res.json<{ items: Array<{ id: number }> }>().items.some((x) => x.id === saved.id);
      expect(listed ? 200 : 404).toBe(status);
    } else expect(res.statusCode, res.body).toBe(status);
    const after = await t.db.selectFrom('saved_reports').where('id', '=', saved.id).select(['name', 'team_id']).executeTakeFirst();
    if (status === 204) expect(after).toBeUndefined();
    else if (action === 'edit' && status === 200) expect(after).toEqual({ name: body.name, team_id: null });
    else expect(after).toEqual({ name: `Shared ${relation} ${action}`, team_id: team.id });
  });
});
