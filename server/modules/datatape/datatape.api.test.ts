import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, login, type TestApp } from '../../../tests/support/app.js';
import { makeCase, makeEntity, makeForm, makeProject, makePublishedProtocol, makeUser } from '../../../tests/support/factories.js';
import { QUEUES } from '../../jobs/boss.js';
import { parseCsv } from '../../lib/csv.js';

/**
 * The data tape on tenants made here with the factories: a protocol whose
 * form has a stepper, static text, a file field and a repeat group with a
 * group inside it; applications in several states (and a draft, which is
 * not one), some carrying formulas; people with and without the target's
 * actions, staff and not; another tenant. Exports run as pg-boss jobs on
 * the queue `data-tape`, as in production.
 */
let t: TestApp;
let entityId: number;
let protocol: Awaited<ReturnType<typeof makePublishedProtocol>>;
let projectId: number;
let coordinator: { sid: string };
let clerk: { sid: string };
let viewer: { sid: string };
let stranger: { sid: string };
let other: { sid: string };
let otherProtocolId: number;
let clerkUser: { id: number; name: string; email: string };
let coordinatorName: string;
const cases: Record<string, number> = {};

const FORM = {
  name: 'Tape application',
  layout: 'stepper',
  fields: [
    {
      name: 'steps', type: 'stepper', label: 'Pasos', children: [
        {
          name: 'one', type: 'step', label: 'Solicitante', children: [
            { name: 'welcome', type: 'static', label: 'Bienvenida' },
            { name: 'firstName', type: 'text', label: 'Nombres', label_en: 'First name' },
            { name: 'lastName', type: 'text', label: 'Apellidos', label_en: 'Last name' },
            { name: 'rent', type: 'currency', label: 'Renta', label_en: 'Rent' },
          ],
        },
        {
          name: 'two', type: 'step', label: 'Hogar', children: [
            {
              name: 'members', type: 'repeat', label: 'Integrantes', label_en: 'Members', children: [
                { name: 'name', type: 'text', label: 'Nombre', label_en: 'Name' },
                { name: 'age', type: 'number', label: 'Edad', label_en: 'Age' },
                { name: 'pets', type: 'repeat', label: 'Mascotas', label_en: 'Pets', children: [{ name: 'kind', type: 'text', label: 'Tipo', label_en: 'Kind' }] },
              ],
            },
            { name: 'proof', type: 'file', label: 'Soporte', label_en: 'Proof', accept: ['pdf'] },
          ],
        },
      ],
    },
  ],
};

const TAPE = ['reporte_data_tape'] as const;
const req = (method: string, url: string, who: { sid: string }, payload?: unknown, lang = 'en') =>
  t.request({ method: method as 'GET', url, cookies: { ...who, lang }, payload: payload as string });
type Config = { protocolId: number; columns: Array<{ source: string; header: string; header_en: string }>; available: Array<{ source: string; repeat: string | null }>; saved: boolean; updatedBy: string | null };
type TapeExport = { id: string; state: 'running' | 'done' | 'failed'; done: number; total: number; columns: number; filename: string | null; bytes: number | null; error: string | null; headers: string; format: string };
const configUrl = (id: number) => `/api/data-tape/protocols/${id}/config`;

/** Polls an export until it is no longer running; every state seen on the way is kept. */
async function settle(who: { sid: string }, id: string, seen: TapeExport[] = [], lang = 'en'): Promise<TapeExport> {
  for (let i = 0; i < 1200; i++) {
    const view = (await req('GET', `/api/data-tape/exports/${id}`, who, undefined, lang)).json<TapeExport>();
    seen.push(view);
    if (view.state !== 'running') return view;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`export ${id} still running`);
}

async function exportTape(who: { sid: string }, body: Record<string, unknown>, lang = 'en') {
  const started = await req('POST', '/api/data-tape/exports', who, body, lang);
  expect(started.statusCode, started.body).toBe(202);
  const view = await settle(who, started.json<TapeExport>().id, [], lang);
  return { started: started.json<TapeExport>(), view };
}

const csvOf = async (who: { sid: string }, id: string) => {
  const file = await req('GET', `/api/data-tape/exports/${id}/file`, who);
  expect(file.statusCode).toBe(200);
  return parseCsv(file.body);
};

beforeAll(async () => {
  t = await createTestApp({ jobs: { mail: false, schedules: false, cases: true } });
  const entity = await makeEntity(t.db);
  entityId = entity.id;
  projectId = (await makeProject(t.db, { entity_id: entityId })).id;
  const form = await makeForm(t.db, entityId, { definition: FORM });
  protocol = await makePublishedProtocol(t.db, entityId, { mainForm: form });
  // Staff (task rights) see every application; the clerk sees theirs and those they take part in.
  const coord = await makeUser(t.db, entityId, { role: 'tape-coordinator', rules: { reporte_data_tape: ['show', 'update', 'export'], wf_tareas: ['show'] }, password: 'Demo12345' });
  coordinatorName = coord.name;
  clerkUser = await makeUser(t.db, entityId, { role: 'tape-clerk', rules: { reporte_data_tape: ['show', 'export'], wf_casos: ['show'] }, password: 'Demo12345' });
  const view = await makeUser(t.db, entityId, { role: 'tape-viewer', rules: { reporte_data_tape: ['show'] }, password: 'Demo12345' });
  const none = await makeUser(t.db, entityId, { role: 'no-tape', rules: { wf_casos: ['show'] }, password: 'Demo12345' });
  const applicant = await makeUser(t.db, entityId, { role: 'tape-applicant', rules: { wf_casos: ['show', 'create'] } });

  const make = async (key: string, state: 'PENDING' | 'SUCCESS' | 'CLOSED' | 'DRAFT', data: Record<string, unknown>, owner = applicant.id, participantIds?: number[]) => {
    cases[key] = (await makeCase(t.db, protocol, { ownerId: owner, projectId, state, data, participantIds })).id;
  };
  await make('ana', 'PENDING', {
    firstName: 'Ana', lastName: 'Díaz', rent: 850,
    members: [{ name: 'Ana', age: 40, pets: [{ kind: 'dog' }, { kind: 'cat' }] }, { name: 'Leo', age: 9 }],
    proof: [{ id: 'f1', name: 'lease.pdf', size: 10 }],
  });
  await make('evil', 'SUCCESS', { firstName: '=HYPERLINK("http://evil.example","click")', lastName: '@SUM(A1)', rent: 700, members: [{ name: '-2+3', age: 30 }] });
  await make('mine', 'CLOSED', { firstName: 'Clara', lastName: 'Clerk', rent: 500, members: [] }, clerkUser.id);
  await make('shared', 'PENDING', { firstName: 'Pedro', lastName: 'Pérez', rent: 1000, members: [{ name: 'Pedro', age: 50 }, { name: 'Paula', age: 48 }, { name: 'Pia', age: 12 }] }, applicant.id, [clerkUser.id]);
  await make('draft', 'DRAFT', { firstName: 'Draft', lastName: 'Only' });

  // Another tenant, with a protocol and an application of its own.
  const rival = await makeEntity(t.db);
  const rivalProject = await makeProject(t.db, { entity_id: rival.id });
  const rivalProtocol = await makePublishedProtocol(t.db, rival.id, { mainForm: await makeForm(t.db, rival.id, { definition: FORM }) });
  otherProtocolId = rivalProtocol.id;
  const rivalUser = await makeUser(t.db, rival.id, { role: 'tape-coordinator', rules: { reporte_data_tape: ['show', 'update', 'export'], wf_tareas: ['show'] }, password: 'Demo12345' });
  await makeCase(t.db, rivalProtocol, { ownerId: rivalUser.id, projectId: rivalProject.id, state: 'PENDING', data: { firstName: 'Rival', lastName: 'Secret' } });

  coordinator = await login(t, coord.email);
  clerk = await login(t, clerkUser.email);
  viewer = await login(t, view.email);
  stranger = await login(t, none.email);
  other = await login(t, rivalUser.email);
});
afterAll(() => t.close());

describe('the columns', () => {
  it('lists the published protocols, and by default every column: the case columns, then the fields in form order', async () => {
    const protocols = (await req('GET', '/api/data-tape/protocols', coordinator)).json<{ items: Array<{ id: number; saved: boolean }> }>();
    expect(protocols.items).toEqual([expect.objectContaining({ id: protocol.id, saved: false })]);
    const res = await req('GET', configUrl(protocol.id), coordinator);
    expect(res.statusCode).toBe(200);
    const config = res.json<Config>();
    expect(config.saved).toBe(false);
    expect(config.columns.map((c) => c.source)).toEqual([
      'case:number', 'case:state', 'case:createdAt', 'case:submittedAt', 'case:updatedAt', 'case:closedAt', 'case:applicant', 'case:ownerName', 'case:ownerEmail',
      'field:firstName', 'field:lastName', 'field:rent', 'field:members.name', 'field:members.age', 'field:members.pets.kind', 'field:proof',
    ]);
    expect(config.columns.find((c) => c.source === 'field:members.age')).toEqual({ source: 'field:members.age', header: 'Integrantes – Edad', header_en: 'Members – Age' });
    expect(config.available.find((c) => c.source === 'field:members.pets.kind')?.repeat).toBe('members.pets');
  });

  it('saves the columns and headers per tenant and protocol, refuses what the form does not offer, and resets to the default', async () => {
    const columns = [
      { source: 'case:number', header: 'Radicado', header_en: 'Application' },
      { source: 'field:lastName', header: 'Apellido', header_en: 'Surname' },
      { source: 'field:members.name', header: 'Integrante', header_en: 'Member' },
      { source: 'field:members.age', header: 'Edad', header_en: 'Age' },
    ];
    const saved = await req('PUT', configUrl(protocol.id), coordinator, { columns });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json<Config>()).toMatchObject({ saved: true, columns, updatedBy: coordinatorName });
    expect((await req('GET', configUrl(protocol.id), clerk)).json<Config>().columns).toEqual(columns);
    expect((await req('GET', '/api/data-tape/protocols', coordinator)).json<{ items: Array<{ saved: boolean }> }>().items[0]?.saved).toBe(true);

    // A field the form does not have: 400 naming it, in the caller's language; nothing changes.
    const unknown = await req('PUT', configUrl(protocol.id), coordinator, { columns: [...columns, { source: 'field:password', header: 'x', header_en: 'x' }] }, 'es');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({ error: { code: 'DATA_TAPE_UNKNOWN_COLUMN', message: '“field:password” no es una columna de la cinta de datos de este protocolo.' } });
    for (const bad of [
      { columns: [] },
      { columns: [columns[0], columns[0]] },
      { columns: [{ source: 'case:number; drop table cases', header: 'x', header_en: 'x' }] },
      { columns: [{ source: 'case:number', header: '  ', header_en: 'x' }] },
      { columns: [{ source: 'case:number', header: 'x' }] },
      { columns: [{ source: 'case:number', header: 'x', header_en: 'x', extra: 1 }] },
      { columns: 'all' },
      { columns: Array.from({ length: 1001 }, (_, i) => ({ source: `field:f${i}`, header: 'x', header_en: 'x' })) },
    ]) {
      const res = await req('PUT', configUrl(protocol.id), coordinator, bad);
      expect(res.statusCode, JSON.stringify(bad).slice(0, 80)).toBe(400);
      expect(res.json<{ error: { code: string } }>().error.code).toBe('VALIDATION');
    }
    const duplicate = await req('PUT', configUrl(protocol.id), coordinator, { columns: [columns[0], columns[0]] });
    expect(duplicate.json<{ error: { details: unknown } }>().error.details).toEqual([{ path: 'columns.1.source', message: 'This column is in the data tape already.' }]);
    expect((await req('GET', configUrl(protocol.id), coordinator)).json<Config>().columns).toEqual(columns);

    // Bad ids: 400; a protocol of another tenant, or none: 404, and its configuration is not touched.
    expect((await req('GET', '/api/data-tape/protocols/abc/config', coordinator)).statusCode).toBe(400);
    expect((await req('GET', configUrl(otherProtocolId), coordinator)).statusCode).toBe(404);
    expect((await req('PUT', configUrl(otherProtocolId), coordinator, { columns: [columns[0]] })).statusCode).toBe(404);
    expect((await req('GET', configUrl(999_999_999), coordinator)).statusCode).toBe(404);
    expect((await req('GET', configUrl(otherProtocolId), other)).json<Config>().saved).toBe(false);
    // The other tenant's own view of its protocol is its own; ours is not in its list.
    expect((await req('GET', '/api/data-tape/protocols', other)).json<{ items: Array<{ id: number }> }>().items.map((p) => p.id)).toEqual([otherProtocolId]);

    const reset = await req('DELETE', configUrl(protocol.id), coordinator);
    expect(reset.statusCode).toBe(200);
    expect(reset.json<Config>()).toMatchObject({ saved: false, updatedBy: null });
    expect(reset.json<Config>().columns).toHaveLength(16);
  });

  it('refuses those without the action: reading needs show, saving update', async () => {
    expect((await req('GET', configUrl(protocol.id), stranger)).statusCode).toBe(403);
    expect((await req('GET', '/api/data-tape/protocols', stranger)).statusCode).toBe(403);
    expect((await req('GET', configUrl(protocol.id), viewer)).statusCode).toBe(200);
    const columns = [{ source: 'case:number', header: 'x', header_en: 'x' }];
    expect((await req('PUT', configUrl(protocol.id), viewer, { columns })).statusCode).toBe(403);
    expect((await req('DELETE', configUrl(protocol.id), clerk)).statusCode).toBe(403);
    expect((await req('GET', configUrl(protocol.id), coordinator)).json<Config>().saved).toBe(false);
  });
});

describe('exports', () => {
  it('writes every visible application as CSV with the repeat groups numbered and every formula neutralised; drafts and other tenants left out', async () => {
    const { started, view } = await exportTape(coordinator, { protocolId: protocol.id, format: 'csv', headers: 'keys' });
    expect(started).toMatchObject({ state: 'running', format: 'csv', headers: 'keys', done: 0 });
    expect(view).toMatchObject({ state: 'done', done: 4, total: 4, error: null });
    expect(view.filename).toMatch(/^data-tape-protocol-[0-9a-f]+-\d{4}-\d{2}-\d{2}\.csv$/);
    const file = await req('GET', `/api/data-tape/exports/${view.id}/file`, coordinator);
    expect(file.headers['content-type']).toContain('text/csv');
    expect(file.headers['content-disposition']).toBe(`attachment; filename="${view.filename}"`);
    expect(Number(file.headers['content-length'])).toBe(view.bytes);
    expect(file.rawPayload.length).toBe(view.bytes);
    const [header, ...rows] = parseCsv(file.body);
    expect(header).toEqual([
      'case_number', 'case_state', 'case_created_at', 'case_submitted_at', 'case_updated_at', 'case_closed_at', 'case_applicant', 'case_owner_name', 'case_owner_email',
      'firstName', 'lastName', 'rent',
      // Three members at most (Pedro's household), two pets at most (Ana's first member).
      'members_1_name', 'members_1_age', 'members_2_name', 'members_2_age', 'members_3_name', 'members_3_age',
      'members_1_pets_1_kind', 'members_1_pets_2_kind', 'members_2_pets_1_kind', 'members_2_pets_2_kind', 'members_3_pets_1_kind', 'members_3_pets_2_kind',
      'proof',
    ]);
    expect(view.columns).toBe(header?.length);
    expect(rows).toHaveLength(4);
    const byName = new Map(rows.map((r) => [r[9], r]));
    const ana = byName.get('Ana') as string[];
    expect(ana.slice(9)).toEqual(['Ana', 'Díaz', '850', 'Ana', '40', 'Leo', '9', '', '', 'dog', 'cat', '', '', '', '', 'lease.pdf']);
    expect(ana[1]).toBe('PENDING');
    expect(ana[6]).toBe('Ana Díaz');
    // A value a spreadsheet would run starts with a quote, in any column (a case column, a field, a repeat group's).
    const evil = rows.find((r) => r[1] === 'SUCCESS') as string[];
    expect(evil[6]).toBe('\'=HYPERLINK("http://evil.example","click") @SUM(A1)');
    expect(evil.slice(9, 11)).toEqual(['\'=HYPERLINK("http://evil.example","click")', "'@SUM(A1)"]);
    expect(evil[12]).toBe("'-2+3");
    expect(rows.map((r) => r[9])).not.toContain('Draft');
    expect(rows.map((r) => r[9])).not.toContain('Rival');
  });

  it('writes Excel with the headers of the saved columns in Spanish, states translated, formulas neutralised', async () => {
    const columns = [
      { source: 'case:number', header: 'Radicado', header_en: 'Application' },
      { source: 'case:state', header: 'Estado', header_en: 'State' },
      { source: 'field:firstName', header: 'Nombres', header_en: 'First name' },
      { source: 'field:members.name', header: 'Integrante', header_en: 'Member' },
    ];
    expect((await req('PUT', configUrl(protocol.id), coordinator, { columns })).statusCode).toBe(200);
    // No `headers`: the caller's language.
    const { view } = await exportTape(coordinator, { protocolId: protocol.id, format: 'xlsx' }, 'es');
    expect(view).toMatchObject({ state: 'done', headers: 'es', total: 4 });
    const file = await req('GET', `/api/data-tape/exports/${view.id}/file`, coordinator);
    expect(file.headers['content-type']).toContain('spreadsheetml');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(file.rawPayload as never);
    const sheet = book.worksheets[0] as ExcelJS.Worksheet;
    const values = (n: number) => (sheet.getRow(n).values as unknown[]).slice(1);
    expect(values(1)).toEqual(['Radicado', 'Estado', 'Nombres', 'Integrante 1', 'Integrante 2', 'Integrante 3']);
    expect(sheet.rowCount).toBe(5);
    const rows = [2, 3, 4, 5].map(values);
    expect(rows.find((r) => r[2] === 'Ana')?.slice(1)).toEqual(['Pendiente', 'Ana', 'Ana', 'Leo']);
    expect(rows.find((r) => r[1] === 'Completado' || r[1] === 'Completada')?.slice(2)).toEqual(['\'=HYPERLINK("http://evil.example","click")', "'-2+3"]);
    await req('DELETE', configUrl(protocol.id), coordinator);
  });

  it('holds only the applications its starter may see, and is theirs alone', async () => {
    const { view } = await exportTape(clerk, { protocolId: protocol.id, format: 'csv', headers: 'keys' });
    expect(view).toMatchObject({ state: 'done', total: 2 });
    const [, ...rows] = await csvOf(clerk, view.id);
    expect(rows.map((r) => r[9]).sort()).toEqual(['Clara', 'Pedro']);
    // Another person of the tenant, another tenant, an unknown id: not found; a malformed id: 400.
    expect((await req('GET', `/api/data-tape/exports/${view.id}`, coordinator)).statusCode).toBe(404);
    expect((await req('GET', `/api/data-tape/exports/${view.id}/file`, other)).statusCode).toBe(404);
    expect((await req('GET', '/api/data-tape/exports/AAAAAAAAAAAAAAAAAAAAAAAA', clerk)).statusCode).toBe(404);
    expect((await req('GET', '/api/data-tape/exports/..%2F..%2Fetc', clerk)).statusCode).toBe(400);
    const mine = (await req('GET', '/api/data-tape/exports', clerk)).json<{ items: TapeExport[] }>().items;
    expect(mine.map((x) => x.id)).toEqual([view.id]);
    expect((await req('GET', '/api/data-tape/exports', other)).json<{ items: TapeExport[] }>().items).toEqual([]);
  });

  it('refuses another tenant’s protocol (404), those without export (403) and bad input (400), leaving no export behind', async () => {
    const count = async () => Number((await t.db.selectFrom('data_tape_exports').select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow()).n);
    const before = await count();
    expect((await req('POST', '/api/data-tape/exports', other, { protocolId: protocol.id, format: 'csv' })).statusCode).toBe(404);
    expect((await req('POST', '/api/data-tape/exports', coordinator, { protocolId: otherProtocolId, format: 'csv' })).statusCode).toBe(404);
    expect((await req('POST', '/api/data-tape/exports', viewer, { protocolId: protocol.id, format: 'csv' })).statusCode).toBe(403);
    expect((await req('GET', '/api/data-tape/exports', viewer)).statusCode).toBe(403);
    for (const bad of [
      { protocolId: protocol.id, format: 'pdf' },
      { protocolId: protocol.id },
      { protocolId: String(protocol.id), format: 'csv' },
      { protocolId: protocol.id, format: 'csv', headers: 'fr' },
      { protocolId: -1, format: 'csv' },
      { protocolId: protocol.id, format: 'csv', query: {} },
    ]) {
      const res = await req('POST', '/api/data-tape/exports', coordinator, bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect(await count()).toBe(before);
  });

  it('a file is served only when done (409 while running or failed); a second job for a finished export does nothing', async () => {
    const { view } = await exportTape(coordinator, { protocolId: protocol.id, format: 'csv' });
    const row = await t.db.selectFrom('data_tape_exports').where('id', '=', view.id).select(['user_id', 'updated_at']).executeTakeFirstOrThrow();
    const jobs = t.app.jobs as NonNullable<typeof t.app.jobs>;
    const second = (await jobs.send(QUEUES.dataTape, { id: view.id, userId: row.user_id }, { singletonKey: `tape-${view.id}` })) as string;
    let settled: string | undefined;
    for (let i = 0; i < 200 && !['completed', 'failed'].includes(settled ?? ''); i++) {
      await new Promise((r) => setTimeout(r, 50));
      settled = (await jobs.boss.getJobById(QUEUES.dataTape, second))?.state;
    }
    expect(settled).toBe('completed');
    expect(await t.db.selectFrom('data_tape_exports').where('id', '=', view.id).select(['state', 'updated_at']).executeTakeFirstOrThrow()).toEqual({ state: 'done', updated_at: row.updated_at });

    // An export with no job (its process stopped before sending one) is running for ever: its file is not there yet.
    const { insertTapeExport } = await import('./repo.js');
    const { actorForUser } = await import('../auth/sessions.js');
    const actor = await actorForUser(t.db, row.user_id);
    await insertTapeExport(t.db, actor, { id: 'RUNNINGRUNNINGRUNNING1', protocolId: protocol.id, format: 'csv', headers: 'en', columns: [] });
    const early = await req('GET', '/api/data-tape/exports/RUNNINGRUNNINGRUNNING1/file', coordinator, undefined, 'es');
    expect(early.statusCode).toBe(409);
    expect(early.json()).toEqual({ error: { code: 'DATA_TAPE_NOT_READY', message: 'Este archivo no está listo: la exportación sigue en curso o falló.' } });
    // Left ten minutes without progress and without a job: failed, saying so.
    await t.db.updateTable('data_tape_exports').set({ updated_at: sql<Date>`now() - interval '11 minutes'` }).where('id', '=', 'RUNNINGRUNNINGRUNNING1').execute();
    const { failInterruptedTapeExports } = await import('./export.js');
    await failInterruptedTapeExports(t.db, t.app.jobs);
    expect((await req('GET', '/api/data-tape/exports/RUNNINGRUNNINGRUNNING1', coordinator)).json<TapeExport>()).toMatchObject({
      state: 'failed',
      error: 'The data tape export was interrupted. Start it again.',
    });
    expect((await req('GET', '/api/data-tape/exports/RUNNINGRUNNINGRUNNING1/file', coordinator)).statusCode).toBe(409);
  });

  it('fails a tape that would be wider than a file can hold, saying why', async () => {
    const wide = await makePublishedProtocol(t.db, entityId, { mainForm: await makeForm(t.db, entityId, { definition: FORM }) });
    const owner = await makeUser(t.db, entityId);
    await makeCase(t.db, wide, { ownerId: owner.id, projectId, state: 'PENDING', data: { firstName: 'Big', members: Array.from({ length: 8_200 }, (_, i) => ({ name: `m${i}` })) } });
    const { view } = await exportTape(coordinator, { protocolId: wide.id, format: 'xlsx' });
    expect(view).toMatchObject({ state: 'failed', error: 'The data tape would have more columns than a file can hold (16,384). Take out some columns of repeat groups and try again.' });
    expect((await req('GET', `/api/data-tape/exports/${view.id}/file`, coordinator)).statusCode).toBe(409);
  });

  it('a starter who lost the right to export gets a failed export, not a file', async () => {
    const person = await makeUser(t.db, entityId, { role: 'tape-temporary', rules: { reporte_data_tape: ['show', 'export'], wf_tareas: ['show'] }, password: 'Demo12345' });
    const who = await login(t, person.email);
    // Sent as a job directly (no request in between), after the role lost the export action.
    const { insertTapeExport } = await import('./repo.js');
    const { actorForUser } = await import('../auth/sessions.js');
    await insertTapeExport(t.db, await actorForUser(t.db, person.id), { id: 'REVOKEDREVOKEDREVOKED1', protocolId: protocol.id, format: 'csv', headers: 'en', columns: [{ source: 'case:number', header: 'n', header_en: 'n' }] });
    const role = await t.db.selectFrom('acl_roles').where('entity_id', '=', entityId).where('code', '=', 'tape-temporary').select('id').executeTakeFirstOrThrow();
    const module = await t.db.selectFrom('acl_modules').where('entity_id', '=', entityId).where('code', '=', 'reporte_data_tape').select('id').executeTakeFirstOrThrow();
    const exportAction = await t.db.selectFrom('acl_actions').where('entity_id', '=', entityId).where('code', '=', 'export').select('id').executeTakeFirstOrThrow();
    await t.db.deleteFrom('acl_rules').where('role_id', '=', role.id).where('module_id', '=', module.id).where('action_id', '=', exportAction.id).execute();
    await (t.app.jobs as NonNullable<typeof t.app.jobs>).send(QUEUES.dataTape, { id: 'REVOKEDREVOKEDREVOKED1', userId: person.id }, { singletonKey: 'tape-REVOKEDREVOKEDREVOKED1' });
    // Not the coordinator's to follow; read it as the database has it.
    expect((await req('GET', '/api/data-tape/exports/REVOKEDREVOKEDREVOKED1', coordinator)).statusCode).toBe(404);
    let state: string | undefined;
    for (let i = 0; i < 200 && state !== 'failed'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      state = (await t.db.selectFrom('data_tape_exports').where('id', '=', 'REVOKEDREVOKEDREVOKED1').select('state').executeTakeFirstOrThrow()).state;
    }
    expect(await t.db.selectFrom('data_tape_exports').where('id', '=', 'REVOKEDREVOKEDREVOKED1').select(['state', 'error']).executeTakeFirstOrThrow()).toEqual({ state: 'failed', error: 'errors.forbidden' });
    expect(await t.db.selectFrom('data_tape_chunks').where('export_id', '=', 'REVOKEDREVOKEDREVOKED1').select('seq').execute()).toEqual([]);
    expect((await req('GET', '/api/data-tape/exports/REVOKEDREVOKEDREVOKED1', who)).statusCode).toBe(403);
  });
});

describe('a large tape', () => {
  it('streams 20,000 applications with progress, a thousand at a time, into a file of several chunks', { timeout: 120_000 }, async () => {
    const big = await makePublishedProtocol(t.db, entityId, { mainForm: await makeForm(t.db, entityId, { definition: FORM }) });
    const bigProject = await makeProject(t.db, { entity_id: entityId });
    const owner = await makeUser(t.db, entityId);
    await sql`
      insert into cases (entity_id, project_id, protocol_id, protocol_version_id, form_version_id, owner_id, case_type, state, data, serial, serial_month, serial_seq)
      select ${entityId}, ${bigProject.id}, ${big.id}, ${big.versionId}, ${big.formVersionId}, ${owner.id}, 'RADICACION_INTERNA', 'PENDING',
        jsonb_build_object('firstName', 'Nombre ' || g, 'lastName', case when g % 1000 = 0 then '=cmd|"/C calc"!A0' else 'Apellido ' || g end, 'rent', 500 + g % 700,
          'members', jsonb_build_array(jsonb_build_object('name', 'Miembro ' || g, 'age', g % 90), jsonb_build_object('name', 'Otro ' || g, 'age', 7))),
        '2026-01-' || lpad(g::text, 6, '0'), '2026-01', g
      from generate_series(1, 20000) g`.execute(t.db);
    const started = await req('POST', '/api/data-tape/exports', coordinator, { protocolId: big.id, format: 'csv', headers: 'keys' });
    expect(started.statusCode).toBe(202);
    const seen: TapeExport[] = [];
    const view = await settle(coordinator, started.json<TapeExport>().id, seen);
    expect(view).toMatchObject({ state: 'done', done: 20_000, total: 20_000 });
    // Progress was reported on the way, in steps of a thousand.
    const partial = [...new Set(seen.filter((s) => s.state === 'running' && s.done > 0 && s.done < 20_000).map((s) => s.done))];
    expect(partial.length).toBeGreaterThanOrEqual(2);
    for (const done of partial) expect(done % 1000).toBe(0);
    // The file is in the database in pieces of about a megabyte, not one value.
    const chunks = await t.db.selectFrom('data_tape_chunks').where('export_id', '=', view.id).select(['seq', sql<number>`length(content)`.as('size')]).orderBy('seq').execute();
    expect(chunks.length).toBeGreaterThanOrEqual(2);
    expect(chunks.map((c) => c.seq)).toEqual(chunks.map((_, i) => i));
    expect(chunks.reduce((n, c) => n + Number(c.size), 0)).toBe(view.bytes);
    const [header, ...rows] = await csvOf(coordinator, view.id);
    expect(header?.slice(9)).toEqual(['firstName', 'lastName', 'rent', 'members_1_name', 'members_1_age', 'members_2_name', 'members_2_age', 'proof']);
    expect(rows).toHaveLength(20_000);
    expect(rows[0]?.slice(9, 14)).toEqual(['Nombre 1', 'Apellido 1', '501', 'Miembro 1', '1']);
    expect(rows[999]?.[10]).toBe('\'=cmd|"/C calc"!A0');
    expect(new Set(rows.map((r) => r[0])).size).toBe(20_000);
  });
});
