import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, login, type TestApp } from '../../../tests/support/app.js';
import { makeCase, makeEntity, makeProject, makePublishedProtocol, makeTeam, makeTeamMember, makeUser } from '../../../tests/support/factories.js';

/**
 * The reports through the API, on a small data set whose every number is
 * known: a tenant in Bogotá's time zone (UTC-5) with two protocols, a team,
 * seven tasks placed by hand (states, people, creation and decision times),
 * four applications with their history, and comments written through the
 * API. Another tenant has the same kinds of records, which nothing here may
 * ever count. Each test reads the answers of the five reports, their pivot
 * totals, the drill-down (the task and case lists answer the same counts),
 * the downloads parsed back, the saved reports, and what bad input gets.
 */
const ALL_REPORTS = {
  tareas_reports: ['show'], application_comments_reports: ['show'], user_comments_reports: ['show'], excel_reports: ['show', 'export'], menuReportes: ['show'],
} as const;
const ROLES = {
  coordinator: {
    ...ALL_REPORTS, wf_casos: ['show'], admin_cases: ['show'], wf_tareas: ['show', 'update', 'accept', 'reject'], admintasks: ['show'], menutareas: ['show'], dashboard_comments: ['show'],
  },
  reviewer: { wf_casos: ['show'], wf_tareas: ['show', 'update', 'accept', 'reject'], menutareas: ['show'], tareas_reports: ['show'], menuReportes: ['show'] },
  /** Reads task reports but is not staff: sees only its own tasks. */
  limited: { wf_casos: ['show'], tareas_reports: ['show'], menuReportes: ['show'] },
  applicant: { wf_casos: ['show', 'create'] },
} as const;

type Who = { id: number; sid: string; name: string };
type Key = { key: string | null; label: string | null };
type Drill = { list: string; query: Record<string, string | string[]> } | null;
type Measured = { value: number; count: number; drill: Drill };
type Pivot = {
  rows: string; columns: string | null; measure: string; rowKeys: Key[]; columnKeys: Key[];
  cells: Array<{ row: string | null; column: string | null } & Measured>; rowTotals: Array<{ row: string | null } & Measured>;
  columnTotals: Array<{ column: string | null } & Measured>; total: Measured;
};
type Err = { error: { code: string; message: string } };

let t: TestApp;
let entityId: number;
let coord: Who;
let rev1: Who;
let rev2: Who;
let limited: Who;
let applicant: Who;
let foreign: Who;
let team: { id: number; name: string; entity_id: number };
let foreignTeamId: number;
let P: Awaited<ReturnType<typeof makePublishedProtocol>>;
let Q: Awaited<ReturnType<typeof makePublishedProtocol>>;
let foreignProtocolId: number;
const cases: Record<'c1' | 'c2' | 'c3' | 'c4', { id: number; serial: string }> = {} as never;

async function person(entity: number, role: keyof typeof ROLES, name: string): Promise<Who> {
  const u = await makeUser(t.db, entity, { role: `reports-${role}`, rules: ROLES[role] as never, name });
  return { id: u.id, name: u.name, sid: (await login(t, u.email, 'Passw0rd1')).sid };
}

const get = (who: Who | null, url: string, lang = 'en') => t.request({ method: 'GET', url, cookies: who ? { sid: who.sid, lang } : { lang } });
const send = (who: Who, method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => t.request({ method, url, payload, cookies: { sid: who.sid, lang: 'en' } });
const pivot = async (who: Who, report: string, query = '') => {
  const res = await get(who, `/api/reports/${report}/pivot${query ? `?${query}` : ''}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Pivot>();
};
/** The pivot as { row: { column: value } } with labels (or keys) for names, and the totals under 'Total'. */
function table(p: Pivot): Record<string, Record<string, number>> {
  const name = (keys: Key[], key: string | null) => {
    const k = keys.find((x) => x.key === key);
    return k?.label ?? k?.key ?? '(none)';
  };
  const out: Record<string, Record<string, number>> = {};
  for (const c of p.cells) (out[name(p.rowKeys, c.row)] ??= {})[name(p.columnKeys, c.column)] = c.value;
  for (const r of p.rowTotals) (out[name(p.rowKeys, r.row)] ??= {}).Total = r.value;
  out.Total = Object.fromEntries(p.columnTotals.map((c) => [name(p.columnKeys, c.column), c.value]));
  out.Total.Total = p.total.value;
  return out;
}

/** A task placed by hand: who holds it, its team, when it was created and decided, and by whom. */
async function task(
  c: { id: number },
  v: { code: string; name: string; state: string; responsible?: number | null; team?: number | null; created: string; decided?: string; decidedBy?: number; overdue?: boolean; entity?: number },
) {
  return t.db
    .insertInto('tasks')
    .values({
      entity_id: v.entity ?? entityId, case_id: c.id, code: v.code, name: v.name, name_en: `${v.name} (en)`, state: v.state as never, responsible_user_id: v.responsible ?? null,
      responsible_team_id: v.team ?? null, created_at: v.created, decided_at: v.decided ?? null, decided_by: v.decidedBy ?? null, overdue: v.overdue ?? false,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}
async function event(c: { id: number; serial: string }, v: { user: number | null; action: string; type: 'case' | 'task' | 'comment'; at: string; detail?: object; entity?: number }) {
  await t.db
    .insertInto('case_events')
    .values({ entity_id: v.entity ?? entityId, case_id: c.id, user_id: v.user, application_number: c.serial, action: v.action, type: v.type, detail: JSON.stringify(v.detail ?? {}), created_at: v.at })
    .execute();
}

beforeAll(async () => {
  t = await createTestApp();
  entityId = (await makeEntity(t.db)).id;
  const projectId = (await makeProject(t.db, { entity_id: entityId, time_zone: 'America/Bogota' })).id;
  coord = await person(entityId, 'coordinator', 'Carla Coordinator');
  rev1 = await person(entityId, 'reviewer', 'Ana Reviewer');
  rev2 = await person(entityId, 'reviewer', 'Beto Reviewer');
  limited = await person(entityId, 'limited', 'Lia Limited');
  applicant = await person(entityId, 'applicant', 'Zoe Applicant');
  team = await makeTeam(t.db, entityId, { name: 'Intake team' });
  await makeTeamMember(t.db, team, rev1.id);
  await makeTeamMember(t.db, team, rev2.id);
  P = await makePublishedProtocol(t.db, entityId, {
    tasks: [
      { code: 'intake', name: 'Revisión inicial', name_en: 'Intake review', responsible: { kind: 'team', teamId: team.id }, onAccept: [{ to: 'review' }] },
      { code: 'review', name: 'Revisión', name_en: 'Review', responsible: { kind: 'user', userId: rev2.id } },
    ],
    start: ['intake'],
  });
  Q = await makePublishedProtocol(t.db, entityId, { tasks: [{ code: 'check', name: 'Verificación', name_en: 'Check', responsible: { kind: 'owner' } }], start: ['check'] });
  await t.db.updateTable('protocols').set({ name: 'Arriendo', name_en: 'Rental' }).where('id', '=', P.id).execute();
  await t.db.updateTable('protocols').set({ name: 'Verificación', name_en: 'Checks' }).where('id', '=', Q.id).execute();

  // Applications: c1 open, c2 completed after 10 days, c3 ended as not eligible after 1 day, c4 open (protocol Q); a draft never counts.
  const at = (s: string) => new Date(s);
  const made = {
    c1: await makeCase(t.db, P, { ownerId: applicant.id, projectId, state: 'PENDING' }),
    c2: await makeCase(t.db, P, { ownerId: applicant.id, projectId, state: 'SUCCESS' }),
    c3: await makeCase(t.db, P, { ownerId: applicant.id, projectId, state: 'REJECTED' }),
    c4: await makeCase(t.db, Q, { ownerId: applicant.id, projectId, state: 'PENDING' }),
  };
  await makeCase(t.db, P, { ownerId: applicant.id, projectId });
  const dates = { c1: ['2026-03-01T15:00:00Z', null], c2: ['2026-03-02T15:00:00Z', '2026-03-12T15:00:00Z'], c3: ['2026-03-05T15:00:00Z', '2026-03-06T15:00:00Z'], c4: ['2026-04-10T15:00:00Z', null] } as const;
  for (const k of ['c1', 'c2', 'c3', 'c4'] as const) {
    const [doc, closed] = dates[k];
    await t.db.updateTable('cases').set({ doc_date: at(doc), closed_at: closed ? at(closed) : null }).where('id', '=', made[k].id).execute();
    cases[k] = { id: made[k].id, serial: made[k].serial as string };
  }
  const { c1, c2, c3, c4 } = cases;

  // The tasks (their days: t1 2, t2 4, t3 0.5, t5 1). t4 was created 23:30 in Bogotá on 31 March, 04:30 UTC on 1 April.
  await task(c1, { code: 'intake', name: 'Revisión inicial', state: 'ACCEPTED', responsible: rev1.id, team: team.id, created: '2026-03-01T15:00:00Z', decided: '2026-03-03T15:00:00Z', decidedBy: rev1.id });
  await task(c2, { code: 'intake', name: 'Revisión inicial', state: 'ACCEPTED', responsible: rev2.id, team: team.id, created: '2026-03-02T15:00:00Z', decided: '2026-03-06T15:00:00Z', decidedBy: rev2.id });
  await task(c3, { code: 'intake', name: 'Revisión inicial', state: 'REJECTED', responsible: rev1.id, team: team.id, created: '2026-03-05T15:00:00Z', decided: '2026-03-06T03:00:00Z', decidedBy: rev1.id });
  await task(c1, { code: 'review', name: 'Revisión', state: 'PENDING', responsible: rev2.id, created: '2026-04-01T04:30:00Z', overdue: true });
  await task(c2, { code: 'review', name: 'Revisión', state: 'ACCEPTED', responsible: rev2.id, created: '2026-04-06T15:00:00Z', decided: '2026-04-07T15:00:00Z', decidedBy: coord.id });
  await task(c4, { code: 'check', name: 'Verificación', state: 'PENDING', responsible: limited.id, created: '2026-04-10T15:00:00Z' });
  await task(c4, { code: 'check', name: 'Verificación', state: 'UNASSIGNED', team: team.id, created: '2026-04-11T15:00:00Z' });

  // The history: who did what (the system's own steps are nobody's tracking).
  await event(c2, { user: applicant.id, action: 'case_submit', type: 'case', at: '2026-03-02T15:00:00Z', detail: { from: 'DRAFT', to: 'PENDING' } });
  await event(c2, { user: null, action: 'task_created', type: 'task', at: '2026-03-02T15:00:00Z' });
  await event(c3, { user: applicant.id, action: 'case_submit', type: 'case', at: '2026-03-05T15:00:00Z', detail: { from: 'DRAFT', to: 'PENDING' } });
  await event(c1, { user: rev1.id, action: 'task_accepted', type: 'task', at: '2026-03-03T15:00:00Z' });
  await event(c2, { user: rev2.id, action: 'task_accepted', type: 'task', at: '2026-03-06T15:00:00Z' });
  await event(c3, { user: rev1.id, action: 'task_rejected', type: 'task', at: '2026-03-06T03:00:00Z' });
  await event(c3, { user: rev1.id, action: 'case_reject', type: 'case', at: '2026-03-06T15:00:00Z', detail: { from: 'PENDING', to: 'REJECTED' } });
  await event(c2, { user: coord.id, action: 'task_accepted', type: 'task', at: '2026-04-07T15:00:00Z' });
  await event(c2, { user: coord.id, action: 'case_complete', type: 'case', at: '2026-03-12T15:00:00Z', detail: { from: 'PENDING', to: 'SUCCESS' } });
  // Two comments on c1 through the API (each a comment_added of the coordinator, written now).
  for (const body of ['First note', 'Second note']) expect((await send(coord, 'POST', `/api/cases/${c1.id}/comments`, { body })).statusCode).toBe(201);

  // Another tenant with the same kinds of records.
  const other = (await makeEntity(t.db)).id;
  foreign = await person(other, 'coordinator', 'Otto Other');
  const foreignTeam = await makeTeam(t.db, other, { name: 'Their team' });
  foreignTeamId = foreignTeam.id;
  const fp = await makePublishedProtocol(t.db, other);
  foreignProtocolId = fp.id;
  const fc = await makeCase(t.db, fp, { ownerId: foreign.id, state: 'PENDING' });
  await t.db.updateTable('cases').set({ doc_date: at('2026-03-03T15:00:00Z') }).where('id', '=', fc.id).execute();
  for (const state of ['PENDING', 'ACCEPTED', 'ACCEPTED']) {
    await task(fc, { entity: other, code: 'review', name: 'Review', state, responsible: foreign.id, team: foreignTeam.id, created: '2026-03-03T15:00:00Z', decided: state === 'ACCEPTED' ? '2026-03-04T15:00:00Z' : undefined, decidedBy: state === 'ACCEPTED' ? foreign.id : undefined });
  }
  await event({ id: fc.id, serial: fc.serial as string }, { entity: other, user: foreign.id, action: 'task_accepted', type: 'task', at: '2026-03-04T15:00:00Z' });
});
afterAll(() => t.close());

describe('status by task', () => {
  it('counts protocol tasks by state, with row, column and grand totals, in the reader language', async () => {
    const p = await pivot(coord, 'status-by-task');
    expect(p).toMatchObject({ rows: 'task', columns: 'state', measure: 'count' });
    // The keys span two protocols, so a task's name carries its protocol's.
    // By protocol name, then in the workflow's order.
    expect(p.rowKeys).toEqual([
      { key: `${Q.id}:check`, label: 'Checks · Check' },
      { key: `${P.id}:intake`, label: 'Rental · Intake review' },
      { key: `${P.id}:review`, label: 'Rental · Review' },
    ]);
    // States in their workflow order.
    expect(p.columnKeys.map((k) => k.key)).toEqual(['UNASSIGNED', 'PENDING', 'ACCEPTED', 'REJECTED']);
    expect(table(p)).toEqual({
      'Rental · Intake review': { ACCEPTED: 2, REJECTED: 1, Total: 3 },
      'Rental · Review': { PENDING: 1, ACCEPTED: 1, Total: 2 },
      'Checks · Check': { UNASSIGNED: 1, PENDING: 1, Total: 2 },
      Total: { UNASSIGNED: 1, PENDING: 2, ACCEPTED: 3, REJECTED: 1, Total: 7 },
    });
    const es = (await get(coord, '/api/reports/status-by-task/pivot?protocolId=' + P.id, 'es')).json<Pivot>();
    expect(es.rowKeys.map((k) => k.label)).toEqual(['Revisión inicial', 'Revisión']);
  });

  it('sums and averages the days tasks took', async () => {
    const decided = 'state=ACCEPTED&state=REJECTED';
    const avg = await pivot(coord, 'status-by-task', `${decided}&measure=avgDays&columns=none`);
    expect(avg.columns).toBeNull();
    expect(avg.cells).toEqual([]);
    expect(avg.rowTotals.map((r) => [r.row, r.value, r.count])).toEqual([
      [`${P.id}:intake`, 2.17, 3],
      [`${P.id}:review`, 1, 1],
    ]);
    expect(avg.total).toMatchObject({ value: 1.88, count: 4 });
    const sum = await pivot(coord, 'status-by-task', `${decided}&measure=sumDays&columns=state`);
    // One protocol: the tasks' names alone.
    expect(table(sum)).toEqual({
      'Intake review': { ACCEPTED: 6, REJECTED: 0.5, Total: 6.5 },
      Review: { ACCEPTED: 1, Total: 1 },
      Total: { ACCEPTED: 7, REJECTED: 0.5, Total: 7.5 },
    });
  });

  it('filters by protocol, period (days of the tenant), team, user and state', async () => {
    const total = async (query: string) => (await pivot(coord, 'status-by-task', query)).total.count;
    expect(await total(`protocolId=${Q.id}`)).toBe(2);
    // t4, created 23:30 on 31 March in Bogotá, is March's.
    expect(await total('from=2026-04-01&to=2026-04-30')).toBe(3);
    expect(await total('from=2026-03-31&to=2026-03-31')).toBe(1);
    expect(await total(`teamId=${team.id}`)).toBe(4);
    expect(await total(`userId=${rev2.id}`)).toBe(2);
    expect(await total('state=PENDING')).toBe(2);
    const months = await pivot(coord, 'status-by-task', 'rows=createdMonth');
    expect(months.rowTotals.map((r) => [r.row, r.value])).toEqual([
      ['2026-03', 4],
      ['2026-04', 3],
    ]);
  });

  it("never counts another tenant's records, even when a filter names them", async () => {
    expect((await pivot(coord, 'status-by-task', `protocolId=${foreignProtocolId}`)).total.count).toBe(0);
    expect((await pivot(coord, 'status-by-task', `teamId=${foreignTeamId}`)).total.count).toBe(0);
    expect((await pivot(coord, 'status-by-task', `userId=${foreign.id}`)).total.count).toBe(0);
    expect((await pivot(coord, 'task-details', `protocolId=${foreignProtocolId}&rows=protocol`)).rowKeys).toEqual([]);
    // And the other tenant counts its own three only.
    expect((await pivot(foreign, 'status-by-task')).total.count).toBe(3);
  });

  it('counts for someone who is not staff only the tasks it may see', async () => {
    const p = await pivot(limited, 'status-by-task');
    expect(table(p)).toEqual({ Check: { PENDING: 1, Total: 1 }, Total: { PENDING: 1, Total: 1 } });
    expect((await pivot(limited, 'status-by-user')).total.count).toBe(1);
  });
});

describe('drill-down', () => {
  /** GET /api/tasks (or /api/cases) with a cell's query: its total. */
  const listed = async (who: Who, drill: Drill) => {
    expect(drill).not.toBeNull();
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(drill?.query ?? {})) for (const x of Array.isArray(v) ? v : [v]) params.append(k, x);
    const path = drill?.list === 'tasks' ? '/api/tasks' : drill?.list === 'cases' ? '/api/cases' : '/api/reports/tracking-by-user/rows';
    const res = await get(who, `${path}?${params}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ total: number; items: Array<Record<string, unknown>> }>();
  };

  it('gives every cell, row, column and total the task list query that shows its tasks', async () => {
    const p = await pivot(coord, 'status-by-task', 'from=2026-03-01&to=2026-04-30');
    const cell = p.cells.find((c) => c.row === `${P.id}:intake` && c.column === 'ACCEPTED');
    expect(cell?.drill).toEqual({ list: 'tasks', query: { from: '2026-03-01', to: '2026-04-30', protocolId: String(P.id), code: 'intake', state: 'ACCEPTED' } });
    for (const m of [...p.cells, ...p.rowTotals, ...p.columnTotals, p.total]) expect((await listed(coord, m.drill)).total).toBe(m.count);
  });

  it('leads each user of status by user to the tasks it decided or holds, and the month cells to their days', async () => {
    const p = await pivot(coord, 'status-by-user', 'columns=createdMonth');
    expect(p.rowKeys).toEqual([
      { key: String(rev1.id), label: 'Ana Reviewer' },
      { key: String(rev2.id), label: 'Beto Reviewer' },
      { key: String(coord.id), label: 'Carla Coordinator' },
      { key: String(limited.id), label: 'Lia Limited' },
      { key: null, label: null },
    ]);
    const byName = table(p);
    expect(byName).toEqual({
      'Ana Reviewer': { '2026-03': 2, Total: 2 },
      'Beto Reviewer': { '2026-03': 2, Total: 2 },
      'Carla Coordinator': { '2026-04': 1, Total: 1 },
      'Lia Limited': { '2026-04': 1, Total: 1 },
      '(none)': { '2026-04': 1, Total: 1 },
      Total: { '2026-03': 4, '2026-04': 3, Total: 7 },
    });
    const beto = p.cells.find((c) => c.row === String(rev2.id));
    expect(beto?.drill).toEqual({ list: 'tasks', query: { handledBy: String(rev2.id), from: '2026-03-01', to: '2026-03-31' } });
    for (const m of [...p.cells, ...p.columnTotals, p.total].filter((x) => x.drill)) expect((await listed(coord, m.drill)).total).toBe(m.count);
    // The group of tasks nobody holds has no list to open.
    expect(p.rowTotals.find((r) => r.row === null)?.drill).toBeNull();
  });

  it('leads the tracking by case to the case list and the tracking by user to its rows', async () => {
    const cases = await pivot(coord, 'tracking-by-case', 'rows=state&columns=month');
    for (const m of [...cases.cells, ...cases.rowTotals, ...cases.columnTotals, cases.total]) {
      expect(m.drill?.list).toBe('cases');
      expect((await listed(coord, m.drill)).total).toBe(m.count);
    }
    const users = await pivot(coord, 'tracking-by-user', 'rows=user&columns=kind&from=2026-03-01&to=2026-04-30');
    for (const m of [...users.cells, ...users.rowTotals, users.total]) {
      expect(m.drill?.list).toBe('userActions');
      const rows = await listed(coord, m.drill);
      expect(rows.items.reduce((s, r) => s + Number(r.total), 0)).toBe(m.count);
    }
  });
});

describe('task details', () => {
  it('lists every task with its case, people, dates, days taken and state, paged and sorted', async () => {
    const res = await get(coord, '/api/reports/task-details/rows?sortBy=created_at&descending=false&limit=3');
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<{ total: number; items: Array<Record<string, unknown>> }>();
    expect(page.total).toBe(7);
    expect(page.items.map((r) => [r.caseNumber, r.code, r.name, r.state, r.responsibleName, r.teamName, r.decidedByName, r.days])).toEqual([
      [cases.c1.serial, 'intake', 'Revisión inicial (en)', 'ACCEPTED', 'Ana Reviewer', 'Intake team', 'Ana Reviewer', 2],
      [cases.c2.serial, 'intake', 'Revisión inicial (en)', 'ACCEPTED', 'Beto Reviewer', 'Intake team', 'Beto Reviewer', 4],
      [cases.c3.serial, 'intake', 'Revisión inicial (en)', 'REJECTED', 'Ana Reviewer', 'Intake team', 'Ana Reviewer', 0.5],
    ]);
    expect(page.items[0]).toMatchObject({ protocolName: 'Rental', createdAt: '2026-03-01T15:00:00.000Z', decidedAt: '2026-03-03T15:00:00.000Z', dueAt: null, overdue: false });
    const second = (await get(coord, '/api/reports/task-details/rows?sortBy=created_at&descending=false&limit=3&page=3')).json<{ total: number; items: Array<{ code: string }> }>();
    expect(second).toMatchObject({ total: 7, items: [{ code: 'check' }] });
    const byDays = (await get(coord, '/api/reports/task-details/rows?state=ACCEPTED&state=REJECTED&sortBy=days')).json<{ items: Array<{ days: number }> }>();
    expect(byDays.items.map((r) => r.days)).toEqual([4, 2, 1, 0.5]);
    const search = (await get(coord, `/api/reports/task-details/rows?search=${encodeURIComponent(cases.c4.serial)}`)).json<{ total: number }>();
    expect(search.total).toBe(2);
    expect((await get(limited, '/api/reports/task-details/rows')).json<{ total: number }>().total).toBe(1);
  });
});

describe('tracking by case', () => {
  it('gives per application its comments, last action and the days in each state', async () => {
    const res = await get(coord, '/api/reports/tracking-by-case/rows?sortBy=doc_date&descending=false');
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<{ total: number; items: Array<{ id: number; number: string; state: string; comments: number; lastAction: Record<string, unknown> | null; daysInState: Record<string, number> }> }>();
    expect(page.total).toBe(4);
    expect(page.items.map((r) => [r.number, r.state, r.comments])).toEqual([
      [cases.c1.serial, 'PENDING', 2],
      [cases.c2.serial, 'SUCCESS', 0],
      [cases.c3.serial, 'REJECTED', 0],
      [cases.c4.serial, 'PENDING', 0],
    ]);
    const [c1, c2, c3] = page.items;
    expect(c1.lastAction).toMatchObject({ action: 'comment_added', kind: 'comment', userId: coord.id, userName: 'Carla Coordinator' });
    expect(c2.lastAction).toMatchObject({ action: 'task_accepted', userName: 'Carla Coordinator', at: '2026-04-07T15:00:00.000Z' });
    // Submitted 2 March, completed 12 March: 10 days pending, then completed until now.
    expect(c2.daysInState.PENDING).toBe(10);
    expect(c2.daysInState.SUCCESS).toBeGreaterThan(200);
    expect(c3.daysInState).toMatchObject({ PENDING: 1, SUCCESS: 0 });
  });

  it("serves the spec's shape, one row per comment, and pivots applications with the days they took", async () => {
    const res = await get(coord, `/api/reports/tracking-by-case/comments?protocolId=${P.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json<{ total: number; items: Array<Record<string, unknown>> }>();
    expect(rows.total).toBe(2);
    expect(rows.items.map((r) => [r.docnumber, r.nrocomentario, r.comentario, r.nombre, r.status])).toEqual([
      [cases.c1.serial, 1, 'First note', 'Carla Coordinator', 'PENDING'],
      [cases.c1.serial, 2, 'Second note', 'Carla Coordinator', 'PENDING'],
    ]);
    expect(Object.keys(rows.items[0]).sort()).toEqual(['caseId', 'comentario', 'docdate', 'docnumber', 'fecha', 'nombre', 'nrocomentario', 'status']);
    const p = await pivot(coord, 'tracking-by-case');
    expect(p).toMatchObject({ rows: 'protocol', columns: 'state', measure: 'avgDays' });
    const counts = await pivot(coord, 'tracking-by-case', 'measure=count');
    expect(table(counts)).toEqual({
      Rental: { PENDING: 1, SUCCESS: 1, REJECTED: 1, Total: 3 },
      Checks: { PENDING: 1, Total: 1 },
      Total: { PENDING: 2, SUCCESS: 1, REJECTED: 1, Total: 4 },
    });
    const ended = await pivot(coord, 'tracking-by-case', 'state=SUCCESS&state=REJECTED&rows=state&columns=none&measure=sumDays');
    expect(ended.rowTotals.map((r) => [r.row, r.value])).toEqual([
      ['SUCCESS', 10],
      ['REJECTED', 1],
    ]);
    expect((await pivot(coord, 'tracking-by-case', 'state=SUCCESS&state=REJECTED&rows=protocol&measure=avgDays')).total.value).toBe(5.5);
  });
});

describe('tracking by user', () => {
  it('counts per person the actions by kind, without the system, and lists them in the spec shape', async () => {
    const p = await pivot(coord, 'tracking-by-user', 'columns=kind');
    expect(table(p)).toEqual({
      'Ana Reviewer': { case: 1, task: 2, Total: 3 },
      'Beto Reviewer': { task: 1, Total: 1 },
      'Carla Coordinator': { case: 1, task: 1, comment: 2, Total: 4 },
      'Zoe Applicant': { case: 2, Total: 2 },
      Total: { case: 4, task: 4, comment: 2, Total: 10 },
    });
    const actions = await pivot(coord, 'tracking-by-user', `userId=${coord.id}`);
    expect(actions.columnKeys.map((k) => k.key)).toEqual(['case_complete', 'comment_added', 'task_accepted']);
    const rows = (await get(coord, `/api/reports/tracking-by-user/rows?userId=${coord.id}`)).json<{ total: number; capped: boolean; items: Array<Record<string, unknown>> }>();
    expect(rows).toMatchObject({ total: 3, capped: false });
    // By application, then action.
    expect(rows.items).toEqual([
      { usuario_id: coord.id, nombre: 'Carla Coordinator', caseId: cases.c1.id, application_number: cases.c1.serial, accion: 'comment_added', tipo: 'comment', total: 2 },
      { usuario_id: coord.id, nombre: 'Carla Coordinator', caseId: cases.c2.id, application_number: cases.c2.serial, accion: 'case_complete', tipo: 'case', total: 1 },
      { usuario_id: coord.id, nombre: 'Carla Coordinator', caseId: cases.c2.id, application_number: cases.c2.serial, accion: 'task_accepted', tipo: 'task', total: 1 },
    ]);
    // Everyone, by name; paged.
    const all = (await get(coord, '/api/reports/tracking-by-user/rows?limit=3&page=2')).json<{ total: number; items: Array<{ nombre: string }> }>();
    expect(all.total).toBe(9);
    expect(all.items.map((r) => r.nombre)).toEqual(['Beto Reviewer', 'Carla Coordinator', 'Carla Coordinator']);
    // The team's members only; a period with nothing.
    expect((await pivot(coord, 'tracking-by-user', `teamId=${team.id}`)).total.count).toBe(4);
    expect((await pivot(coord, 'tracking-by-user', 'from=2000-01-01&to=2000-01-02')).total.count).toBe(0);
    // Events are counted, not measured in days.
    const res = await get(coord, '/api/reports/tracking-by-user/pivot?measure=avgDays');
    expect(res.statusCode).toBe(400);
    expect(res.json<Err>().error).toEqual({ code: 'REPORT_UNKNOWN_MEASURE', message: 'This report cannot measure "avgDays". Choose one of: count.' });
  });
});

describe('bad input', () => {
  it('refuses unknown dimensions and measures, the same dimension twice, and bad periods, with a translated message', async () => {
    const cases: Array<[string, string, string, string]> = [
      ['/api/reports/status-by-task/pivot?rows=salary', 'REPORT_UNKNOWN_DIMENSION', 'This report cannot group by "salary". Choose one of: protocol, task, state, team, responsible, user, createdMonth, createdDay, decidedMonth, overdue.', 'Este reporte no puede agrupar por "salary". Elija uno de: protocol, task, state, team, responsible, user, createdMonth, createdDay, decidedMonth, overdue.'],
      ['/api/reports/tracking-by-case/pivot?columns=team', 'REPORT_UNKNOWN_DIMENSION', 'This report cannot group by "team". Choose one of: protocol, state, month, day.', 'Este reporte no puede agrupar por "team". Elija uno de: protocol, state, month, day.'],
      ['/api/reports/status-by-task/pivot?measure=median', 'REPORT_UNKNOWN_MEASURE', 'This report cannot measure "median". Choose one of: count, sumDays, avgDays.', 'Este reporte no puede medir "median". Elija uno de: count, sumDays, avgDays.'],
      ['/api/reports/status-by-user/pivot?rows=state&columns=state', 'REPORT_SAME_DIMENSION', 'Rows and columns must group by different things.', 'Las filas y las columnas deben agrupar por cosas distintas.'],
      ['/api/reports/status-by-task/pivot?from=2026-05-01&to=2026-04-01', 'REPORT_DATE_RANGE_INVERTED', 'The start date must be on or before the end date.', 'La fecha inicial debe ser igual o anterior a la fecha final.'],
      ['/api/reports/task-details/rows?from=1900-01-01', 'REPORT_DATE_RANGE_TOO_WIDE', 'Choose dates between 1970 and 2100, at most 20 years apart.', 'Elija fechas entre 1970 y 2100, con a lo sumo 20 años de diferencia.'],
      ['/api/reports/tracking-by-user/rows?from=1990-01-01&to=2026-01-01', 'REPORT_DATE_RANGE_TOO_WIDE', 'Choose dates between 1970 and 2100, at most 20 years apart.', 'Elija fechas entre 1970 y 2100, con a lo sumo 20 años de diferencia.'],
      ['/api/reports/status-by-task/export?from=2026-05-01&to=2026-04-01', 'REPORT_DATE_RANGE_INVERTED', 'The start date must be on or before the end date.', 'La fecha inicial debe ser igual o anterior a la fecha final.'],
      ['/api/reports/tracking-by-case/export?view=rows&from=2026-05-01&to=2026-04-01', 'REPORT_DATE_RANGE_INVERTED', 'The start date must be on or before the end date.', 'La fecha inicial debe ser igual o anterior a la fecha final.'],
    ];
    for (const [url, code, en, es] of cases) {
      for (const [lang, message] of [['en', en], ['es', es]]) {
        const res = await get(coord, url, lang);
        expect(res.statusCode, url).toBe(400);
        expect(res.json<Err>().error, url).toEqual({ code, message });
      }
    }
    // What the schemas refuse: a state of the other kind, a day that does not exist, an unknown filter, a view the report lacks, a page past the cap.
    for (const url of [
      '/api/reports/tracking-by-case/pivot?state=ACCEPTED',
      '/api/reports/status-by-task/pivot?from=2026-02-30',
      '/api/reports/status-by-task/pivot?salary=1',
      '/api/reports/status-by-task/export?view=rows',
      '/api/reports/task-details/rows?limit=1000',
      '/api/reports/task-details/rows?sortBy=password',
    ]) {
      const res = await get(coord, url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json<Err>().error.code, url).toBe('VALIDATION');
    }
  });

  it('answers 403 to a report the reader may not read, and to a download without excel_reports', async () => {
    for (const url of ['/api/reports/tracking-by-case/pivot', '/api/reports/tracking-by-case/rows', '/api/reports/tracking-by-user/rows', '/api/reports/tracking-by-user/export', '/api/reports/status-by-task/export', '/api/reports/task-details/export?format=csv']) {
      const res = await get(rev1, url);
      expect(res.statusCode, url).toBe(403);
      expect(res.json<Err>().error.code).toBe('FORBIDDEN');
    }
    expect((await get(applicant, '/api/reports/status-by-task/pivot')).statusCode).toBe(403);
    expect((await get(null, '/api/reports/status-by-task/pivot')).statusCode).toBe(401);
  });
});

describe('downloads', () => {
  const download = async (who: Who, url: string, lang = 'en') => {
    const res = await t.app.inject({ method: 'GET', url, cookies: { sid: who.sid, lang } });
    return { status: res.statusCode, headers: res.headers, body: res.rawPayload };
  };
  const sheetRows = async (bytes: Buffer) => {
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(bytes as never);
    const rows: unknown[][] = [];
    book.worksheets[0].eachRow({ includeEmpty: false }, (row) => rows.push((row.values as unknown[]).slice(1)));
    return { name: book.worksheets[0].name, rows };
  };

  it('writes the pivot to Excel with its totals equal to the screen, headers in the reader language', async () => {
    const json = await pivot(coord, 'status-by-task');
    const file = await download(coord, '/api/reports/status-by-task/export', 'es');
    expect(file.status, file.body.toString()).toBe(200);
    expect(file.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(String(file.headers['content-disposition'])).toMatch(/^attachment; filename="status-by-task-\d{4}-\d{2}-\d{2}\.xlsx"$/);
    const { name, rows } = await sheetRows(file.body);
    expect(name).toBe('Estado por tarea');
    expect(rows[0]).toEqual(['Tarea \\ Estado (Cantidad)', 'Sin asignar', 'Pendiente', 'Aceptada', 'Cancelada', 'Total']);
    const last = rows.at(-1) as unknown[];
    expect(last).toEqual(['Total', ...json.columnKeys.map((c) => json.columnTotals.find((x) => x.column === c.key)?.value), json.total.value]);
    expect(last.at(-1)).toBe(7);
    // Each row's total is the screen's, and its cells add up to it.
    for (const r of rows.slice(1, -1)) {
      const numbers = (r.slice(1, -1) as number[]).reduce((s, v) => s + (v ?? 0), 0);
      expect(numbers).toBe(r.at(-1));
    }
    expect(rows.slice(1, -1).map((r) => r[0])).toEqual(['Arriendo · Revisión inicial', 'Arriendo · Revisión', 'Verificación · Verificación']);
  });

  it('writes the task details to CSV with the totals row, and the tracking views to Excel', async () => {
    const file = await download(coord, '/api/reports/task-details/export?format=csv&sortBy=created_at&descending=false');
    expect(file.status, file.body.toString()).toBe(200);
    expect(file.headers['content-type']).toBe('text/csv; charset=utf-8');
    const rows = parse(file.body.toString('utf8'), { bom: true }) as string[][];
    expect(rows[0]).toEqual(['Task', 'Application', 'Protocol', 'Responsible', 'Team', 'State', 'Created', 'Due', 'Decided', 'Decided by', 'Days taken', 'Overdue']);
    expect(rows[1]).toEqual(['Revisión inicial (en)', cases.c1.serial, 'Rental', 'Ana Reviewer', 'Intake team', 'Accepted', '2026-03-01 10:00', '', '2026-03-03 10:00', 'Ana Reviewer', '2', 'No']);
    expect(rows).toHaveLength(1 + 7 + 1);
    const total = rows.at(-1) as string[];
    expect(total[0]).toBe('Total');
    expect(total[1]).toBe('7');

    const tracking = await sheetRows((await download(coord, '/api/reports/tracking-by-case/export?sortBy=doc_date&descending=false')).body);
    expect(tracking.rows[0].slice(0, 5)).toEqual(['Application', 'Protocol', 'State', 'Date', 'Comments']);
    expect(tracking.rows.at(-1)?.slice(0, 5)).toEqual(['Total', 4, null, null, 2].map((v) => v ?? undefined));
    const comments = await sheetRows((await download(coord, '/api/reports/tracking-by-case/export?view=comments')).body);
    expect(comments.name).toBe('Comments');
    expect(comments.rows.map((r) => r[5])).toEqual(['Comment', 'First note', 'Second note', undefined]);
    const users = await sheetRows((await download(coord, '/api/reports/tracking-by-user/export?format=xlsx')).body);
    expect(users.rows.at(-1)?.at(-1)).toBe(10);
    const usersPivot = await sheetRows((await download(coord, '/api/reports/tracking-by-user/export?view=pivot&columns=kind', 'es')).body);
    expect(usersPivot.rows[0]).toEqual(['Usuario \\ Tipo (Cantidad)', 'Radicación', 'Tarea', 'Comentario', 'Total']);
  });

  it('writes as text every cell a spreadsheet would run as a formula', async () => {
    const tenant = (await makeEntity(t.db)).id;
    const boss = await person(tenant, 'coordinator', '=HYPERLINK("http://evil.example","x")');
    const protocol = await makePublishedProtocol(t.db, tenant);
    const c = await makeCase(t.db, protocol, { ownerId: boss.id, state: 'PENDING' });
    const names = ['=1+1', '+SUM(A1)', '-2+3', '@cmd', '\tTab', '\rReturn'];
    for (const name of names) {
      const tm = await makeTeam(t.db, tenant, { name });
      await task(c, { entity: tenant, code: 'review', name: '=cmd|"/c calc"!A1', state: 'PENDING', responsible: boss.id, team: tm.id, created: '2026-05-01T15:00:00Z' });
    }
    const xlsx = await sheetRows((await download(boss, '/api/reports/status-by-user/export?rows=team&columns=state')).body);
    // (XML reads a carriage return back as a line feed.)
    expect(xlsx.rows.slice(1, -1).map((r) => r[0]).sort()).toEqual(names.map((n) => `'${n}`.replace('\r', '\n')).sort());
    const csv = parse((await download(boss, '/api/reports/status-by-user/export?rows=team&format=csv')).body.toString('utf8'), { bom: true }) as string[][];
    expect(csv.slice(1, -1).map((r) => r[0]).sort()).toEqual(names.map((n) => `'${n}`).sort());
    const details = parse((await download(boss, '/api/reports/task-details/export?format=csv')).body.toString('utf8'), { bom: true }) as string[][];
    for (const row of details.slice(1, -1)) {
      expect(row[0]).toBe(`'=cmd|"/c calc"!A1 (en)`);
      expect(row[3]).toBe(`'=HYPERLINK("http://evil.example","x")`);
    }
    for (const row of details) for (const cell of row) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
  });
});

describe('saved reports', () => {
  it('keeps a layout per user, shared with a team for its members to read, changed only by its owner', async () => {
    const body = {
      name: 'Intake by team',
      report: 'status-by-task',
      filters: { protocolId: P.id, from: '2026-03-01', to: '2026-04-30', state: ['PENDING', 'ACCEPTED'] },
      layout: { view: 'pivot', rows: 'task', columns: 'team', measure: 'count', chart: 'stackedBar' },
      teamId: team.id,
    };
    const created = await send(coord, 'POST', '/api/reports/saved', body);
    expect(created.statusCode, created.body).toBe(201);
    const saved = created.json<{ id: number; filters: object; layout: object; teamName: string; ownerName: string; actions: string[] }>();
    expect(saved).toMatchObject({ name: 'Intake by team', report: 'status-by-task', filters: body.filters, teamId: team.id, teamName: 'Intake team', ownerName: 'Carla Coordinator', actions: ['edit', 'delete'] });
    expect(saved.layout).toEqual({ view: 'pivot', rows: 'task', columns: 'team', measure: 'count', chart: 'stackedBar' });

    // A member of the team reads it; someone outside does not see it at all.
    const asMember = (await get(rev1, '/api/reports/saved')).json<{ items: Array<{ id: number; actions: string[] }> }>();
    expect(asMember.items.find((x) => x.id === saved.id)?.actions).toEqual([]);
    expect((await send(rev1, 'PUT', `/api/reports/saved/${saved.id}`, { ...body, name: 'Mine now' })).statusCode).toBe(403);
    expect((await send(rev1, 'DELETE', `/api/reports/saved/${saved.id}`)).statusCode).toBe(403);
    expect((await get(limited, `/api/reports/saved/${saved.id}`)).statusCode).toBe(404);
    expect((await get(foreign, `/api/reports/saved/${saved.id}`)).statusCode).toBe(404);
    expect((await send(foreign, 'DELETE', `/api/reports/saved/${saved.id}`)).statusCode).toBe(404);

    const changed = await send(coord, 'PUT', `/api/reports/saved/${saved.id}`, { ...body, name: 'Intake, private', teamId: null });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ name: 'Intake, private', teamId: null });
    expect((await get(rev1, `/api/reports/saved/${saved.id}`)).statusCode).toBe(404);
    expect((await send(coord, 'POST', '/api/reports/saved', { ...body, name: 'Intake, private' })).json<Err>().error.code).toBe('DUPLICATE');
    expect((await send(coord, 'DELETE', `/api/reports/saved/${saved.id}`)).statusCode).toBe(204);
    expect((await get(coord, `/api/reports/saved/${saved.id}`)).statusCode).toBe(404);
  });

  it('refuses what would not open: an unknown report, filters or layout, a view or team it lacks, a report the owner may not read', async () => {
    const base = { name: 'x', report: 'status-by-task', filters: {}, layout: { view: 'pivot', chart: 'bar' } };
    const refused: Array<[object, string, Who?]> = [
      [{ ...base, report: 'salaries' }, 'REPORT_UNKNOWN'],
      [{ ...base, filters: { salary: 1 } }, 'VALIDATION'],
      [{ ...base, filters: { state: 'SUBMITTED' } }, 'VALIDATION'],
      [{ ...base, filters: { from: '2026-05-01', to: '2026-01-01' } }, 'REPORT_DATE_RANGE_INVERTED'],
      [{ ...base, layout: { view: 'rows' } }, 'REPORT_VIEW_UNKNOWN'],
      [{ ...base, layout: { view: 'pivot', rows: 'salary' } }, 'REPORT_UNKNOWN_DIMENSION'],
      [{ ...base, teamId: foreignTeamId }, 'VALIDATION'],
      [{ ...base, report: 'tracking-by-user' }, 'FORBIDDEN', rev1],
    ];
    for (const [payload, code, who] of refused) {
      const res = await send(who ?? coord, 'POST', '/api/reports/saved', payload);
      expect(res.json<Err>().error.code, JSON.stringify(payload)).toBe(code);
    }
    expect((await t.db.selectFrom('saved_reports').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n).toBe(0);
  });
});

describe('the dashboard', () => {
  it("shows the staff home's tiles over what the reader may see", async () => {
    const tenant = (await makeEntity(t.db)).id;
    await makeProject(t.db, { entity_id: tenant, time_zone: 'America/Bogota' });
    const boss = await person(tenant, 'coordinator', 'Dora Boss');
    const helper = await person(tenant, 'reviewer', 'Hugo Helper');
    const crew = await makeTeam(t.db, tenant, { name: 'Crew' });
    await makeTeamMember(t.db, crew, helper.id);
    const protocol = await makePublishedProtocol(t.db, tenant);
    await t.db.updateTable('protocols').set({ name_en: 'Rent' }).where('id', '=', protocol.id).execute();
    const now = Date.now();
    const ago = (days: number) => new Date(now - days * 86_400_000).toISOString();
    const c = await makeCase(t.db, protocol, { ownerId: boss.id, state: 'PENDING' });
    const done = await makeCase(t.db, protocol, { ownerId: boss.id, state: 'SUCCESS' });
    await t.db.updateTable('cases').set({ doc_date: new Date(now) }).where('id', 'in', [c.id, done.id]).execute();
    // The helper's: one pending (overdue), one unassigned of its team; someone else's overdue one; decisions 2 and 40 days ago.
    await task(c, { entity: tenant, code: 'review', name: 'Review', state: 'PENDING', responsible: helper.id, created: ago(5), overdue: true });
    await task(c, { entity: tenant, code: 'review', name: 'Review', state: 'UNASSIGNED', team: crew.id, created: ago(1) });
    await task(c, { entity: tenant, code: 'review', name: 'Review', state: 'PENDING', responsible: boss.id, created: ago(5), overdue: true });
    await task(c, { entity: tenant, code: 'review', name: 'Review', state: 'ACCEPTED', responsible: boss.id, created: ago(4), decided: ago(2), decidedBy: boss.id });
    await task(c, { entity: tenant, code: 'review', name: 'Review', state: 'REJECTED', responsible: boss.id, created: ago(3), decided: ago(2), decidedBy: boss.id });
    await task(c, { entity: tenant, code: 'review', name: 'Review', state: 'ACCEPTED', responsible: boss.id, created: ago(45), decided: ago(40), decidedBy: boss.id });

    const res = await get(helper, '/api/reports/dashboard');
    expect(res.statusCode, res.body).toBe(200);
    const mine = res.json<{ myOpenTasks: { count: number }; myOverdueTasks: { count: number }; overdueTasks: { count: number } }>();
    expect([mine.myOpenTasks.count, mine.myOverdueTasks.count, mine.overdueTasks.count]).toEqual([2, 1, 2]);

    const d = (await get(boss, '/api/reports/dashboard')).json<{
      myOpenTasks: { count: number; drill: Drill }; overdueTasks: { count: number; drill: Drill };
      applicationsThisMonth: { total: number; byState: Array<{ state: string; count: number; drill: Drill }> };
      decisionsPerDay: Array<{ day: string; accepted: number; rejected: number }>;
      averageDaysPerTask: Array<{ protocolName: string; code: string; name: string; decided: number; avgDays: number; drill: Drill }>;
    }>();
    expect(d.myOpenTasks.count).toBe(1);
    expect(d.overdueTasks).toEqual({ count: 2, drill: { list: 'tasks', query: { overdue: 'true', state: ['UNASSIGNED', 'PENDING', 'BLOCKED', 'INCONSISTENCY'] } } });
    expect(d.applicationsThisMonth.total).toBe(2);
    expect(d.applicationsThisMonth.byState.map((s) => [s.state, s.count])).toEqual([['PENDING', 1], ['SUCCESS', 1]]);
    expect(d.decisionsPerDay).toHaveLength(30);
    const bogota = (iso: string) => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Bogota' }).format(new Date(iso));
    expect(d.decisionsPerDay.at(-1)?.day).toBe(bogota(new Date(now).toISOString()));
    expect(d.decisionsPerDay.find((x) => x.day === bogota(ago(2)))).toMatchObject({ accepted: 1, rejected: 1 });
    expect(d.decisionsPerDay.reduce((s, x) => s + x.accepted + x.rejected, 0)).toBe(2);
    expect(d.averageDaysPerTask).toEqual([
      { protocolId: protocol.id, protocolName: 'Rent', code: 'review', name: 'Review', decided: 2, avgDays: 1.5, drill: { list: 'tasks', query: { protocolId: String(protocol.id), code: 'review', state: ['ACCEPTED', 'REJECTED'] } } },
    ]);
    // Not for someone who does not work tasks.
    expect((await get(applicant, '/api/reports/dashboard')).statusCode).toBe(403);
  });
});
