import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeSearch, type SearchRow } from '../../../core/cases/search.js';
import { createTestApp, login, type TestApp } from '../../../tests/support/app.js';
import { makeCase, makeEntity, makeProject, makePublishedProtocol, makeUser } from '../../../tests/support/factories.js';

/**
 * Advanced-search values of the wrong type for their column are refused by
 * the search schema (400 naming the field) wherever a search is taken: the
 * list, its count, both exports, and a saved search, so that no search is
 * saved that would fail when opened. None reaches PostgreSQL as a 500.
 * The tenant, its cases and its coordinator are made here with the factories.
 */
const ROLES = {
  // Lists, counts and exports every case of the tenant, and administers them.
  coordinator: { wf_casos: ['show', 'export'], admin_cases: ['show', 'update'], wf_tareas: ['show'] },
} as const;

let t: TestApp;
let coordinator: { sid: string };
const errorLines: string[] = [];
beforeAll(async () => {
  const stream = { write: (line: string) => void (JSON.parse(line).level >= 50 && errorLines.push(line)) };
  t = await createTestApp({ logger: { level: 'warn', stream } });
  const entityId = (await makeEntity(t.db)).id;
  const projectId = (await makeProject(t.db, { entity_id: entityId })).id;
  const protocol = await makePublishedProtocol(t.db, entityId);
  const owner = await makeUser(t.db, entityId);
  // Submitted cases in several states, each with its date.
  for (const state of ['PENDING', 'SUCCESS', 'CLOSED'] as const) {
    const c = await makeCase(t.db, protocol, { ownerId: owner.id, projectId, state, data: { firstName: 'Ana' } });
    await t.db.updateTable('cases').set({ doc_date: new Date() }).where('id', '=', c.id).execute();
  }
  const user = await makeUser(t.db, entityId, { role: 'coordinator', rules: ROLES.coordinator as never, password: 'Demo12345' });
  coordinator = await login(t, user.email, 'Demo12345');
});
afterAll(() => t.close());

type Refusal = { error: { code: string; message: string; details: Array<{ path: string; message: string }> } };
const req = (method: string, url: string, payload?: unknown, lang = 'en') =>
  t.request({ method: method as 'GET', url, cookies: { ...coordinator, lang }, payload: payload as string });
const q = (rows: unknown[]) => encodeURIComponent(JSON.stringify(rows));

/** Each way a search is taken, with the prefix its refusal names the field with. */
const takers: Array<{ name: string; send: (filters: string, lang?: string) => ReturnType<typeof req>; prefix: string }> = [
  { name: 'the list', send: (f, lang) => req('GET', `/api/cases?filters=${encodeURIComponent(f)}`, undefined, lang), prefix: 'filters' },
  { name: 'the admin list', send: (f, lang) => req('GET', `/api/admin-cases?filters=${encodeURIComponent(f)}`, undefined, lang), prefix: 'filters' },
  { name: 'the count', send: (f, lang) => req('GET', `/api/cases/count?filters=${encodeURIComponent(f)}`, undefined, lang), prefix: 'filters' },
  { name: 'the export', send: (f, lang) => req('GET', `/api/cases/export?filters=${encodeURIComponent(f)}`, undefined, lang), prefix: 'filters' },
  { name: 'the background export', send: (f, lang) => req('POST', '/api/cases/exports', { format: 'csv', query: { filters: f } }, lang), prefix: 'query.filters' },
  { name: 'a saved search', send: (f, lang) => req('POST', '/api/cases/saved-searches', { name: `s-${Math.random()}`, query: { filters: f } }, lang), prefix: 'query.filters' },
];

const wrong: Array<{ rows: unknown[]; path: string; message: string }> = [
  { rows: [['docDate', 'eq', 'not-a-date']], path: '0.docDate', message: 'Enter a date as YYYY-MM-DD' },
  { rows: [['docDate', 'gt', '99999-99-99']], path: '0.docDate', message: 'Enter a date as YYYY-MM-DD' },
  { rows: [['docDate', 'between', ['soon', 'later']]], path: '0.docDate', message: 'Enter a date as YYYY-MM-DD' },
  { rows: [['state', 'eq', 'PENDING'], ['createdAt', 'lt', '2026-02-30']], path: '1.createdAt', message: 'Enter a date as YYYY-MM-DD' },
  { rows: [['createdAt', 'gt', 20260101]], path: '0.createdAt', message: 'Enter a date as YYYY-MM-DD' },
  { rows: [['state', 'in', ['PENDING', 'NOPE']]], path: '0.state', message: 'You must choose an option' },
  { rows: [['possibleDuplicated', 'eq', 'maybe']], path: '0.possibleDuplicated', message: 'Choose yes or no' },
  { rows: [['serial', 'eq', 'R\u00001']], path: '0.serial', message: 'Text cannot contain the NUL character (\\u0000)' },
  { rows: [['data.firstName', 'contains', '\u0000']], path: '0.data.firstName', message: 'Text cannot contain the NUL character (\\u0000)' },
];

describe('advanced-search values of the wrong type for their column', () => {
  it('are refused with 400 naming the field by the list, the count, both exports and a saved search', async () => {
    for (const taker of takers) {
      for (const { rows, path, message } of wrong) {
        const res = await taker.send(JSON.stringify(rows));
        expect(res.statusCode, `${taker.name} ${JSON.stringify(rows)}`).toBe(400);
        const { error } = res.json<Refusal>();
        expect(error.code).toBe('VALIDATION');
        expect(error.details, `${taker.name} ${JSON.stringify(rows)}`).toEqual([{ path: `${taker.prefix}.${path}`, message }]);
      }
    }
    // Nothing was saved, and no export was started.
    expect((await req('GET', '/api/cases/saved-searches')).json<unknown[]>()).toEqual([]);
    expect(Number((await t.db.selectFrom('case_exports').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n)).toBe(0);
    expect(errorLines).toEqual([]);
  });

  it('say so in Spanish too', async () => {
    const res = await req('GET', `/api/cases?filters=${q([['docDate', 'eq', 'not-a-date']])}`, undefined, 'es');
    expect(res.json<Refusal>().error.message).toBe('Algunos valores no son válidos: filters.0.docDate: Escriba una fecha como AAAA-MM-DD');
  });

  it('an unreadable search, or other list parameters that the list would refuse, cannot be saved either', async () => {
    const broken = await req('POST', '/api/cases/saved-searches', { name: 'broken', query: { filters: '{nope' } });
    expect(broken.statusCode).toBe(400);
    expect(broken.json<Refusal>().error.details).toEqual([{ path: 'query.filters', message: expect.stringContaining('cannot be read') }]);
    const from = await req('POST', '/api/cases/saved-searches', { name: 'bad from', query: { from: 'not-a-date' } });
    expect(from.statusCode).toBe(400);
    expect(from.json<Refusal>().error.details[0].path).toBe('query.from');
    const unknown = await req('POST', '/api/cases/saved-searches', { name: 'unknown', query: { password: 'x' } });
    expect(unknown.statusCode).toBe(400);
    expect((await req('GET', '/api/cases/saved-searches')).json<unknown[]>()).toEqual([]);
  });

  it('while well-typed values work everywhere, and a saved search opens as it was saved', async () => {
    const rows: SearchRow[] = [
      { column: 'docDate', op: 'between', value: ['2000-01-01', '2099-12-31'] },
      { column: 'createdAt', op: 'gt', value: '2000-01-01' },
      { column: 'state', op: 'in', value: ['PENDING', 'SUCCESS', 'REJECTED', 'CLOSED', 'INCONSISTENCY'] },
      { column: 'possibleDuplicated', op: 'eq', value: 'false' },
    ];
    const filters = encodeSearch(rows);
    const all = (await req('GET', '/api/cases?limit=100')).json<{ total: number }>().total;
    const list = await req('GET', `/api/cases?limit=100&filters=${encodeURIComponent(filters)}`);
    expect(list.statusCode).toBe(200);
    expect(list.json<{ total: number }>().total).toBeGreaterThan(0);
    expect(list.json<{ total: number }>().total).toBeLessThanOrEqual(all);
    expect((await req('GET', `/api/cases/export?filters=${encodeURIComponent(filters)}`)).statusCode).toBe(200);
    const saved = await req('POST', '/api/cases/saved-searches', { name: 'Typed', query: { filters, state: ['PENDING', 'SUCCESS'], from: '2000-01-01', sortBy: 'serial', descending: 'false' } });
    expect(saved.statusCode).toBe(201);
    // Opened: its query goes back into the list as it was saved.
    const query = saved.json<{ query: Record<string, string | string[]> }>().query;
    expect(query).toEqual({ filters, state: ['PENDING', 'SUCCESS'], from: '2000-01-01', sortBy: 'serial', descending: 'false' });
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) for (const x of [v].flat()) params.append(k, x);
    expect((await req('GET', `/api/cases?${params}`)).statusCode).toBe(200);
    expect(errorLines).toEqual([]);
  });
});
