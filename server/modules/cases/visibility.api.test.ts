import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, login, type TestApp } from '../../../tests/support/app.js';
import { makeCase, makeEntity, makeProject, makePublishedProtocol, makeUser } from '../../../tests/support/factories.js';

/**
 * A custom role an administrator may well make: every case target, but no
 * staff rights (no task or case administration). Its user sees only the
 * cases it owns or takes part in, and may act on no other: every route that
 * names a case answers 404 for another person's case, as reading it does.
 * The tenant, its cases and its people are made here with the factories.
 */
let t: TestApp;
let custom: { sid: string };
let customId: number;
let applicant: { sid: string };
let coordinator: { sid: string };
let theirs: number;
let theirFile: string;
let entityId: number;
/** Another pending case of the applicant's, which the custom role is made the owner of in the last test of its block. */
let another: number;

const ROLES = {
  applicant: { wf_casos: ['show', 'create'], borradores: ['show', 'create', 'create_drafts'] },
  // Staff: every case of the tenant (admin_cases, wf_tareas), reading and correcting.
  coordinator: { wf_casos: ['show', 'update'], admin_cases: ['show', 'update'], wf_tareas: ['show'], historialaplicacion: ['show'] },
} as const;

const CASE_TARGETS = {
  wf_casos: ['show', 'update', 'export', 'create'],
  wf_abrir_caso: ['confirm'],
  wf_completar_caso: ['confirm'],
  wf_cerrar_caso: ['confirm'],
  wf_activar_caso: ['confirm'],
  change_owner_case: ['update'],
  wf_casos_participantes: ['update'],
  aplicacionessimilares: ['show'],
  historialaplicacion: ['show'],
  borradores: ['show', 'create_drafts'],
} as const;

const req = (method: string, url: string, who: { sid: string }, payload?: unknown) =>
  t.request({ method: method as 'GET', url, cookies: { ...who, lang: 'en' }, payload: payload as string });

beforeAll(async () => {
  t = await createTestApp();
  entityId = (await makeEntity(t.db)).id;
  const projectId = (await makeProject(t.db, { entity_id: entityId })).id;
  const protocol = await makePublishedProtocol(t.db, entityId);
  const user = await makeUser(t.db, entityId, { role: 'case-clerk', rules: CASE_TARGETS as never, password: 'Demo12345', email: 'clerk@demo.test' });
  customId = user.id;
  const ana = await makeUser(t.db, entityId, { role: 'applicant', rules: ROLES.applicant as never, password: 'Demo12345' });
  const carla = await makeUser(t.db, entityId, { role: 'coordinator', rules: ROLES.coordinator as never, password: 'Demo12345' });
  [custom, applicant, coordinator] = await Promise.all([login(t, 'clerk@demo.test'), login(t, ana.email), login(t, carla.email)]);
  // A pending case of the applicant, with a document uploaded by staff; and another pending case of the applicant.
  theirs = (await makeCase(t.db, protocol, { ownerId: ana.id, projectId, state: 'PENDING', data: { firstName: 'Ana' } })).id;
  another = (await makeCase(t.db, protocol, { ownerId: ana.id, projectId, state: 'PENDING', data: { firstName: 'Ana' } })).id;
  const boundary = 'x-boundary';
  const body = [
    `--${boundary}`,
    'Content-Disposition: form-data; name="file"; filename="lease.pdf"',
    'Content-Type: application/pdf',
    '',
    '%PDF-1.4\n%âãÏÓ\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF',
    `--${boundary}--`,
    '',
  ].join('\r\n');
  // Staff upload a document to the applicant's case (a task form or a correction puts it in the data).
  const up = await t.request({ method: 'POST', url: '/api/files', cookies: coordinator, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: body });
  expect(up.statusCode).toBe(201);
  theirFile = up.json<{ id: string }>().id;
  await t.db
    .updateTable('cases')
    .set({ data: sql`data || jsonb_build_object('household', jsonb_build_array(jsonb_build_object('proof', jsonb_build_array(jsonb_build_object('id', ${theirFile}::text, 'name', 'lease.pdf')))))` })
    .where('id', '=', theirs)
    .execute();
});
afterAll(() => t.close());

describe('a custom role with every case target and no staff rights', () => {
  it('reads no other person’s case', async () => {
    expect((await req('GET', `/api/cases/${theirs}`, custom)).statusCode).toBe(404);
    expect((await req('GET', `/api/cases/${theirs}/history`, custom)).statusCode).toBe(404);
    expect((await req('GET', `/api/cases/${theirs}/similar`, custom)).statusCode).toBe(404);
    const list = (await req('GET', '/api/cases?limit=100&count=false', custom)).json<{ items: Array<{ id: number }> }>();
    expect(list.items.map((c) => c.id)).not.toContain(theirs);
    const csv = await req('GET', '/api/cases/export?format=csv', custom);
    expect(csv.statusCode).toBe(200);
    const number = (await req('GET', `/api/cases/${theirs}`, coordinator)).json<{ number: string }>().number;
    expect(csv.body).not.toContain(number);
  });

  it('acts on no other person’s case: owner, participants, close, complete, open, enable again (and data, staff only)', async () => {
    const before = (await req('GET', `/api/cases/${theirs}`, coordinator)).json<{ ownerId: number; state: string; version: number; data: unknown }>();
    const attempts = [
      req('PUT', `/api/cases/${theirs}/owner`, custom, { userId: customId }),
      req('PUT', `/api/cases/${theirs}/participants`, custom, { userIds: [customId] }),
      req('POST', `/api/cases/${theirs}/close`, custom, { reason: 'mine now' }),
      req('POST', `/api/cases/${theirs}/complete`, custom, {}),
      req('POST', `/api/cases/${theirs}/open`, custom, {}),
      req('POST', `/api/cases/${theirs}/activate`, custom, {}),
    ];
    // Correcting data is for staff only, whatever the case.
    expect((await req('PUT', `/api/cases/${theirs}/data`, custom, { data: before.data, version: before.version })).statusCode).toBe(403);
    for (const res of await Promise.all(attempts)) expect(res.statusCode, `${res.raw.req.method} ${res.raw.req.url} ${res.body}`).toBe(404);
    const after = (await req('GET', `/api/cases/${theirs}`, coordinator)).json<{ ownerId: number; state: string; version: number }>();
    expect(after).toMatchObject({ ownerId: before.ownerId, state: before.state, version: before.version });
    // And it did not slip in as a participant.
    expect((await req('GET', `/api/cases/${theirs}`, custom)).statusCode).toBe(404);
  });

  it('gets no link to a file of another person’s case; the case’s owner (held in a repeat group) and staff do', async () => {
    expect((await req('GET', `/api/files/${theirFile}/link`, custom)).statusCode).toBe(404);
    expect((await req('GET', `/api/files/${theirFile}/link`, applicant)).statusCode).toBe(200);
    expect((await req('GET', `/api/files/${theirFile}/link`, coordinator)).statusCode).toBe(200);
  });

  it('still acts on its own application', async () => {
    const mine = await t.db
      .updateTable('cases')
      .set({ owner_id: customId })
      .where('id', '=', another)
      .returning('id')
      .executeTakeFirstOrThrow();
    expect((await req('GET', `/api/cases/${mine.id}`, custom)).statusCode).toBe(200);
    expect((await req('GET', `/api/cases/${mine.id}/similar`, custom)).statusCode).toBe(200);
    expect((await req('POST', `/api/cases/${mine.id}/close`, custom, { reason: 'withdrawn' })).statusCode).toBe(200);
  });
});

describe('a role that may create tasks and nothing else', () => {
  it('makes no ad-hoc task on a case it may not see', async () => {
    const maker = await makeUser(t.db, entityId, { role: 'task-maker', rules: { wf_tareas: ['create'] } as never, password: 'Demo12345', email: 'maker@demo.test' });
    const who = await login(t, 'maker@demo.test');
    const res = await req('POST', '/api/tasks', who, { caseId: theirs, name: 'mine now', userId: maker.id });
    expect(res.statusCode, res.body).toBe(404);
  });
});

describe('applicants and files', () => {
  it('an applicant gets no link to a file another applicant uploaded for a draft', async () => {
    await makeUser(t.db, entityId, { role: 'applicant', password: 'Demo12345', email: 'second-applicant@demo.test' });
    const second = await login(t, 'second-applicant@demo.test');
    const boundary = 'y-boundary';
    const body = [`--${boundary}`, 'Content-Disposition: form-data; name="file"; filename="stub.pdf"', 'Content-Type: application/pdf', '', '%PDF-1.4\n%%EOF', `--${boundary}--`, ''].join('\r\n');
    const up = await t.request({ method: 'POST', url: '/api/files', cookies: applicant, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: body });
    expect(up.statusCode).toBe(201);
    const id = up.json<{ id: string }>().id;
    expect((await req('GET', `/api/files/${id}/link`, second)).statusCode).toBe(404);
    expect((await req('GET', `/api/files/${id}/link`, applicant)).statusCode).toBe(200);
  });
});
