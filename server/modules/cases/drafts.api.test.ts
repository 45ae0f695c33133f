import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, login, type TestApp } from '../../../tests/support/app.js';
import { makeEntity, makeProject, makePublishedProtocol, makeUser } from '../../../tests/support/factories.js';

/**
 * Draft saves in the history: who saved, when, and which fields changed (the values stay in the draft).
 * The tenant, its public protocol and its people are made here with the factories.
 */
const ROLES = {
  applicant: { wf_casos: ['show', 'create'], borradores: ['show', 'create', 'create_drafts'] },
  // Staff (admin_cases, wf_tareas) who read a case's history and may save drafts of their own.
  coordinator: { wf_casos: ['show'], admin_cases: ['show'], wf_tareas: ['show'], historialaplicacion: ['show'], borradores: ['show', 'create', 'create_drafts'] },
} as const;

let t: TestApp;
let applicant: { sid: string };
let coordinator: { sid: string };
beforeAll(async () => {
  t = await createTestApp();
  const entityId = (await makeEntity(t.db)).id;
  await makeProject(t.db, { entity_id: entityId });
  const protocol = await makePublishedProtocol(t.db, entityId);
  // Applicants start public protocols only.
  await t.db.updateTable('protocols').set({ public: true }).where('id', '=', protocol.id).execute();
  const ana = await makeUser(t.db, entityId, { role: 'applicant', rules: ROLES.applicant as never, password: 'Demo12345', name: 'Ana Applicant' });
  const carla = await makeUser(t.db, entityId, { role: 'coordinator', rules: ROLES.coordinator as never, password: 'Demo12345', name: 'Carla Coordinator' });
  [applicant, coordinator] = await Promise.all([ana, carla].map((u) => login(t, u.email, 'Demo12345')));
});
afterAll(() => t.close());

type Event = { action: string; userName: string | null; detail: Record<string, unknown> };
const req = (method: string, url: string, who: { sid: string }, payload?: unknown) =>
  t.request({ method: method as 'GET', url, cookies: { ...who, lang: 'en' }, payload: payload as string });

describe('saving a draft', () => {
  it('records each save that changed something, with the fields it changed; an unchanged or stale save records nothing', async () => {
    const options = (await req('GET', '/api/cases/new-options', applicant)).json<{ protocols: Array<{ id: number }> }>();
    const created = await req('POST', '/api/cases/drafts', applicant, { protocolId: options.protocols[0].id, data: { firstName: 'Lucía', lastName: '', receive_assistance_alert: false } });
    expect(created.statusCode).toBe(201);
    const { id, version } = created.json<{ id: number; version: number }>();

    // Untouched defaults ('' and false) are no change; a new value and a changed one are.
    const saved = await req('PUT', `/api/cases/drafts/${id}`, applicant, { data: { firstName: 'Lucía María', lastName: 'Ortega', email: '', receive_assistance_alert: false }, version });
    expect(saved.statusCode).toBe(200);
    const next = saved.json<{ version: number }>().version;
    expect(next).toBe(version + 1);
    // The same values again: saved, but nothing to record.
    expect((await req('PUT', `/api/cases/drafts/${id}`, applicant, { data: { firstName: 'Lucía María', lastName: 'Ortega' }, version: next })).statusCode).toBe(200);
    // A stale version writes nothing.
    const stale = await req('PUT', `/api/cases/drafts/${id}`, applicant, { data: { firstName: 'Someone else' }, version });
    expect(stale.statusCode).toBe(409);
    expect(stale.json<{ error: { code: string } }>().error.code).toBe('STALE_DRAFT');
    expect((await req('GET', `/api/cases/drafts/${id}`, applicant)).json<{ data: Record<string, unknown> }>().data.firstName).toBe('Lucía María');

    const history = (await req('GET', `/api/cases/${id}/history`, coordinator)).json<Event[]>();
    expect(history.map((e) => [e.action, e.userName, e.detail.fields])).toEqual([
      ['case_created', 'Ana Applicant', ['firstName']],
      ['draft_saved', 'Ana Applicant', ['firstName', 'lastName']],
    ]);
  });

  it("is 404 for someone else's draft, and changes nothing", async () => {
    const options = (await req('GET', '/api/cases/new-options', applicant)).json<{ protocols: Array<{ id: number }> }>();
    const { id } = (await req('POST', '/api/cases/drafts', applicant, { protocolId: options.protocols[0].id, data: { firstName: 'Ana' } })).json<{ id: number }>();
    expect((await req('PUT', `/api/cases/drafts/${id}`, coordinator, { data: { firstName: 'Carla' } })).statusCode).toBe(404);
    expect((await req('GET', `/api/cases/drafts/${id}`, applicant)).json<{ data: Record<string, unknown> }>().data).toEqual({ firstName: 'Ana' });
  });
});

describe('draft data the schema refuses (400, the draft unchanged)', () => {
  const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
  const raw = (method: string, url: string, json: string, lang = 'en') =>
    t.request({ method: method as 'PUT', url, cookies: { ...applicant, lang }, payload: json, headers: { 'content-type': 'application/json' } });
  let id: number;
  let version: number;
  beforeAll(async () => {
    const options = (await req('GET', '/api/cases/new-options', applicant)).json<{ protocols: Array<{ id: number }> }>();
    ({ id, version } = (await req('POST', '/api/cases/drafts', applicant, { protocolId: options.protocols[0].id, data: { firstName: 'Ana' } })).json<{ id: number; version: number }>());
  });
  type Refusal = { error: { code: string; message: string; details: Array<{ path: string; message: string }> } };

  it('a NUL character in a value or in a key, in English and Spanish', async () => {
    const inValue = await raw('PUT', `/api/cases/drafts/${id}`, JSON.stringify({ data: { firstName: 'A\u0000na' }, version }));
    expect(inValue.statusCode).toBe(400);
    expect(inValue.json<Refusal>().error).toMatchObject({ code: 'VALIDATION', details: [{ path: 'data.firstName', message: 'Text cannot contain the NUL character (\\u0000)' }] });
    const inKey = await raw('PUT', `/api/cases/drafts/${id}`, JSON.stringify({ data: { 'first\u0000Name': 'Ana' }, version }), 'es');
    expect(inKey.statusCode).toBe(400);
    expect(inKey.json<Refusal>().error.message).toContain('El texto no puede contener el carácter NUL');
    const created = await raw('POST', '/api/cases/drafts', JSON.stringify({ protocolId: 1, data: { note: '\u0000' } }));
    expect(created.json<Refusal>().error.code).toBe('VALIDATION');
  });

  it('nesting 5,000 levels deep, and just past what a form holds', async () => {
    const deep = await raw('PUT', `/api/cases/drafts/${id}`, `{"version":${version},"data":${nested(5_000)}}`);
    expect(deep.statusCode).toBe(400);
    expect(deep.json<Refusal>().error.code).toBe('VALIDATION');
    const nine = await raw('PUT', `/api/cases/drafts/${id}`, `{"version":${version},"data":${nested(9)}}`);
    expect(nine.statusCode).toBe(400);
    expect(nine.json<Refusal>().error.details).toEqual([{ path: 'data.a.a.a.a.a.a.a.a', message: 'The data is nested more than 8 levels deep' }]);
  });

  it('too many fields in one place, or too many items in one list', async () => {
    const wide = Object.fromEntries(Array.from({ length: 1_001 }, (_, i) => [`f${i}`, 1]));
    const keys = await req('PUT', `/api/cases/drafts/${id}`, applicant, { data: { rows: [wide] }, version });
    expect(keys.statusCode).toBe(400);
    expect(keys.json<Refusal>().error.details).toEqual([{ path: 'data.rows.0', message: 'The data has more than 1000 fields in one place' }]);
    const items = await req('PUT', `/api/cases/drafts/${id}`, applicant, { data: { rows: Array.from({ length: 10_001 }, () => 1) }, version });
    expect(items.statusCode).toBe(400);
    expect(items.json<Refusal>().error.details[0].message).toBe('A list in the data has more than 10000 items');

    // Nothing was written: the draft is as it was.
    const draft = (await req('GET', `/api/cases/drafts/${id}`, applicant)).json<{ data: Record<string, unknown>; version: number }>();
    expect(draft).toMatchObject({ data: { firstName: 'Ana' }, version });
  });
});
