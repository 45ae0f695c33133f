import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompiledQuery, sql } from 'kysely';
import { encodeSearch } from '../../../core/cases/search.js';
import type { CaseState } from '../../../core/workflow/states.js';
import { QUEUES } from '../../jobs/boss.js';
import { createTestApp, login, type TestApp } from '../../../tests/support/app.js';
import { makeCase, makeEntity, makeForm, makeMaster, makeMasterItem, makeProject, makePublishedProtocol, makeUser } from '../../../tests/support/factories.js';

/**
 * Cases through the API: drafts, the list and its searches, one case, exports and administration.
 * The tenants, the application form and protocol, the people and the earlier applications are made
 * here with the factories; the demo seed plays no part.
 */
const ROLES = {
  applicant: { wf_casos: ['show', 'create'], borradores: ['show', 'create', 'create_drafts'] },
  // Runs the programme: every case and task of the tenant, its transitions, owner, exports and administration.
  coordinator: {
    wf_casos: ['show', 'create', 'update', 'export', 'print'], borradores: ['show', 'create', 'create_drafts'], admin_cases: ['show', 'update'],
    change_owner_case: ['update'], wf_casos_participantes: ['show', 'update'], wf_abrir_caso: ['confirm'], wf_completar_caso: ['confirm'],
    wf_cerrar_caso: ['confirm'], wf_activar_caso: ['confirm'], wf_tareas: ['show', 'create', 'update', 'accept', 'reject', 'restart_task'],
    menutareas: ['show'], admintasks: ['show', 'update', 'restart_task'], aplicacionessimilares: ['show'], historialaplicacion: ['show'],
  },
  // Decides tasks: sees every case, administers none.
  reviewer: { wf_casos: ['show'], menutareas: ['show'], wf_tareas: ['show', 'update', 'accept', 'reject'], historialaplicacion: ['show'], aplicacionessimilares: ['show'] },
} as const;

const field = (name: string, type: string, label: string, label_en: string, extra: Record<string, unknown> = {}) => ({ name, type, label, label_en, ...extra });
/** The application form: master selects, an email, a repeat group of household members, an optional third party. */
const FORM = {
  name: 'Rental assistance application',
  fields: [
    field('firstName', 'text', 'Nombres', 'First name', { required: true, maxLength: 60 }),
    field('lastName', 'text', 'Apellidos', 'Last name', { required: true, maxLength: 60 }),
    field('documentType', 'master_select', 'Tipo de documento', 'Document type', { required: true, master: 'document_types' }),
    field('documentNumber', 'text', 'Número de documento', 'Document number', { required: true, maxLength: 20, pattern: '^[A-Za-z0-9-]+$' }),
    field('email', 'email', 'Correo electrónico', 'Email', { required: true }),
    field('phone', 'phone', 'Celular', 'Cellphone', { required: true }),
    field('departamento', 'master_select', 'Departamento', 'State', { required: true, master: 'departamentos' }),
    field('municipio', 'master_select', 'Municipio', 'City', { required: true, master: 'municipios', type_aux: 'departamento' }),
    field('zipCode', 'zip', 'Código postal', 'Zip code', { required: true }),
    field('householdInformation', 'repeat', 'Integrantes del hogar', 'Household members', {
      minRows: 1,
      children: [
        field('memberName', 'text', 'Nombre', 'Name', { required: true, maxLength: 100 }),
        field('relationship', 'select', 'Parentesco', 'Relationship', { required: true, options: [{ value: 'self', label: 'Solicitante' }, { value: 'child', label: 'Hijo(a)' }] }),
        field('age', 'number', 'Edad', 'Age', { required: true, min: 0, max: 120 }),
      ],
    }),
    field('payRent', 'currency', 'Renta mensual', 'Monthly rent', { required: true, min: 1, max: 10000 }),
    field('working_third_party', 'switch', '¿Le ayuda un tercero?', 'Is a third party helping you?'),
    field('third_party_email', 'email', 'Correo del tercero', 'Third party email', { required: true, visibleWhen: 'working_third_party == true' }),
  ],
};

/** Earlier applications of the applicant, in every state a case reaches (none names a third party). */
const EARLIER: Array<[string, string, number, CaseState]> = [
  ['María', 'Gómez', 850, 'PENDING'], ['José', 'Rodríguez', 1200, 'PENDING'], ['Luisa', 'Martínez', 700, 'PENDING'], ['Carlos', 'López', 650, 'PENDING'],
  ['Ana', 'Hernández', 1500, 'REJECTED'], ['Jorge', 'Díaz', 900, 'PENDING'], ['Camila', 'Torres', 980, 'PENDING'], ['Andrés', 'Ramírez', 760, 'PENDING'],
  ['Valentina', 'Moreno', 1350, 'SUCCESS'], ['Felipe', 'Vargas', 540, 'INCONSISTENCY'], ['Daniela', 'Castro', 1100, 'CLOSED'],
];

let t: TestApp;
let entityId: number;
let applicant: { sid: string };
let coordinator: { sid: string };
let reviewer: { sid: string };
let other: { sid: string };
let people: { reviewer: { id: number }; otherAdmin: { id: number; entity_id: number }; admin: { email: string } };
beforeAll(async () => {
  // Background exports run as pg-boss jobs (queue case-export), as in production.
  t = await createTestApp({ jobs: { mail: false, schedules: false, cases: true } });
  entityId = (await makeEntity(t.db)).id;
  const projectId = (await makeProject(t.db, { entity_id: entityId, uid: 'applications' })).id;
  // The masters the form's selects name, with the items the applications use.
  const masters = await t.db.selectFrom('masters').where('entity_id', '=', entityId).where('code', 'in', ['departamentos', 'municipios']).select(['id', 'entity_id', 'code']).execute();
  const master = (code: string) => masters.find((m) => m.code === code) as (typeof masters)[number];
  const valle = await makeMasterItem(t.db, master('departamentos'), { code: '76', name: 'Valle del Cauca' });
  await makeMasterItem(t.db, master('municipios'), { code: '76001', name: 'Cali', parent_item_id: valle.id });
  const documentTypes = await makeMaster(t.db, entityId, { code: 'document_types', name: 'Document types', public: true });
  for (const [code, name] of [['CC', 'Cédula de ciudadanía'], ['CE', 'Cédula de extranjería']]) await makeMasterItem(t.db, documentTypes, { code, name });
  // The one public protocol applicants start: an exact applicant (document type and number) is a duplicate.
  const protocol = await makePublishedProtocol(t.db, entityId, { mainForm: await makeForm(t.db, entityId, { definition: FORM }) });
  await t.db.updateTable('protocols').set({ name: 'Rental assistance', public: true }).where('id', '=', protocol.id).execute();
  await sql`update protocol_versions set definition = jsonb_set(definition, '{duplicateFields}', '["documentType", "documentNumber"]') where id = ${protocol.versionId}`.execute(t.db);

  const ana = await makeUser(t.db, entityId, { role: 'applicant', rules: ROLES.applicant as never, password: 'Demo12345', name: 'Ana Applicant' });
  const carla = await makeUser(t.db, entityId, { role: 'coordinator', rules: ROLES.coordinator as never, password: 'Demo12345', name: 'Carla Coordinator' });
  const rafael = await makeUser(t.db, entityId, { role: 'reviewer', rules: ROLES.reviewer as never, password: 'Demo12345', name: 'Rafael Reviewer' });
  const admin = await makeUser(t.db, entityId, { role: 'super-admin', password: 'Demo12345', name: 'Diana Admin' });
  const otherEntity = (await makeEntity(t.db)).id;
  await makeProject(t.db, { entity_id: otherEntity });
  const otto = await makeUser(t.db, otherEntity, { role: 'super-admin', password: 'Demo12345', name: 'Otto Admin' });
  people = { reviewer: rafael, otherAdmin: otto, admin };
  [applicant, coordinator, reviewer, other] = await Promise.all([ana, carla, rafael, otto].map((u) => login(t, u.email, 'Demo12345')));

  for (const [i, [firstName, lastName, payRent, state]] of EARLIER.entries()) {
    const data = {
      firstName, lastName, documentType: 'CC', documentNumber: String(1_000_000_000 + i * 7919), email: `applicant.${i}@example.org`, phone: '3001234567',
      departamento: '76', municipio: '76001', zipCode: '76001', payRent, householdInformation: [{ memberName: `${firstName} ${lastName}`, relationship: 'self', age: 35 }],
    };
    const c = await makeCase(t.db, protocol, { ownerId: ana.id, projectId, state, data });
    await t.db.updateTable('cases').set({ doc_date: new Date(Date.now() - (EARLIER.length - i) * 86_400_000) }).where('id', '=', c.id).execute();
  }
});
afterAll(() => t.close());

type Err = { error: { code: string; message: string; details?: Array<{ path: string; message: string }> } };
type List<T> = { items: T[]; total: number };
type Item = { id: number; number: string; state: string; applicant: string; ownerName: string; possibleDuplicated: boolean };
const req = (method: string, url: string, who: { sid: string }, payload?: unknown, lang = 'en') =>
  t.request({ method: method as 'GET', url, cookies: { ...who, lang }, payload: payload as string });
const search = (who: { sid: string }, rows: Parameters<typeof encodeSearch>[0], extra = '') =>
  req('GET', `/api/cases?filters=${encodeURIComponent(encodeSearch(rows))}${extra}`, who);

const complete = (n: string) => ({
  firstName: 'Lucía', lastName: `Ortega ${n}`, documentType: 'CC', documentNumber: `5550${n}`, email: `lucia${n}@example.org`, phone: '3105550000',
  departamento: '76', municipio: '76001', zipCode: '76001', payRent: 1234, householdInformation: [{ memberName: 'Lucía', relationship: 'self', age: 29 }],
});
async function protocolId() {
  return (await req('GET', '/api/cases/new-options', applicant)).json<{ protocols: Array<{ id: number }> }>().protocols[0].id;
}

describe('a draft', () => {
  it('is saved half-filled, found again, completed, and submitted: it gets a number and its first task', async () => {
    const options = (await req('GET', '/api/cases/new-options', applicant)).json<{ open: boolean; autosaveSeconds: number; protocols: Array<{ id: number; name: string; form: unknown }> }>();
    expect(options.open).toBe(true);
    expect(options.autosaveSeconds).toBe(300);
    expect(options.protocols.map((p) => p.name)).toEqual(['Rental assistance']);
    const draft = await req('POST', '/api/cases/drafts', applicant, { protocolId: options.protocols[0].id, data: { firstName: 'Lucía' } });
    expect(draft.statusCode).toBe(201);
    const { id, version } = draft.json<{ id: number; version: number }>();
    // Autosave keeps it as typed, even when not valid yet.
    const saved = await req('PUT', `/api/cases/drafts/${id}`, applicant, { data: { firstName: 'Lucía', email: 'not yet' }, version });
    expect(saved.statusCode).toBe(200);
    const stale = await req('PUT', `/api/cases/drafts/${id}`, applicant, { data: { firstName: 'x' }, version });
    expect(stale.json<Err>().error.code).toBe('STALE_DRAFT');
    const mine = (await req('GET', '/api/cases/drafts', applicant)).json<List<{ id: number }>>();
    expect(mine.items.map((d) => d.id)).toContain(id);
    // Submitting checks it with the form.
    const bad = await req('POST', `/api/cases/drafts/${id}/submit`, applicant, {}, 'es');
    expect(bad.statusCode).toBe(400);
    expect(bad.json<Err>().error.details).toContainEqual({ path: 'email', message: 'Correo electrónico no válido' });
    const ok = await req('POST', `/api/cases/drafts/${id}/submit`, applicant, { data: complete('1') });
    expect(ok.statusCode).toBe(200);
    expect(ok.json<{ number: string }>().number).toMatch(/^\d{4}-\d{2}-\d{6}$/);
    const c = (await req('GET', `/api/cases/${id}`, applicant)).json<{ state: string; openTasks: number }>();
    expect(c).toMatchObject({ state: 'PENDING', openTasks: 1 });
    expect((await req('GET', `/api/cases/drafts/${id}`, applicant)).statusCode).toBe(404);
  });

  it('limits submissions per account (20 a minute, failed ones too) besides per address: the 21st is 429 and the draft stays a draft; another account goes on', async () => {
    const pid = await protocolId();
    const [one, two] = await Promise.all(
      [0, 1].map(async () => login(t, (await makeUser(t.db, entityId, { role: 'applicant', rules: ROLES.applicant as never, password: 'Demo12345' })).email, 'Demo12345')),
    );
    const draftOf = async (who: { sid: string }) => (await req('POST', '/api/cases/drafts', who, { protocolId: pid, data: { firstName: 'Flood' } })).json<{ id: number }>().id;
    const mine = await draftOf(one);
    for (let i = 0; i < 20; i++) expect((await req('POST', `/api/cases/drafts/${mine}/submit`, one, {})).statusCode).toBe(400);
    const refused = await req('POST', `/api/cases/drafts/${mine}/submit`, one, {}, 'es');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json<Err>().error.code).toBe('RATE_LIMITED');
    expect((await req('GET', `/api/cases/drafts/${mine}`, one)).statusCode).toBe(200);
    const theirs = await draftOf(two);
    expect((await req('POST', `/api/cases/drafts/${theirs}/submit`, two, {})).statusCode).toBe(400);
  });

  it('refuses an exact duplicate, and flags a near one', async () => {
    const pid = await protocolId();
    const make = async (data: object) => {
      const { id } = (await req('POST', '/api/cases/drafts', applicant, { protocolId: pid, data })).json<{ id: number }>();
      return { id, res: await req('POST', `/api/cases/drafts/${id}/submit`, applicant, {}) };
    };
    const first = await make(complete('2'));
    expect(first.res.statusCode).toBe(200);
    const exact = await make({ ...complete('2'), email: 'other@example.org' });
    expect(exact.res.statusCode).toBe(409);
    expect(exact.res.json<Err>().error.message).toBe('An application for this applicant already exists');
    const near = await make({ ...complete('2'), documentType: 'CE' });
    expect(near.res.statusCode).toBe(200);
    expect((await req('GET', `/api/cases/${near.id}`, coordinator)).json<Item>().possibleDuplicated).toBe(true);
    const similar = (await req('GET', `/api/cases/${near.id}/similar`, coordinator)).json<Item[]>();
    expect(similar.map((s) => s.id)).toContain(first.id);
  });

  it('cannot be started after the deadline unless applications are still allowed', async () => {
    await t.db.updateTable('projects').set({ allow_new_applications: false, new_applications_deadline: '2021-12-01T00:00:00' }).where('uid', '=', 'applications').execute();
    const res = await req('POST', '/api/cases/drafts', applicant, { protocolId: await protocolId(), data: {} });
    expect(res.statusCode).toBe(409);
    expect(res.json<Err>().error.message).toBe('The creation of new applications has been disabled.');
    expect((await req('GET', '/api/cases/new-options', applicant)).json<{ open: boolean }>().open).toBe(false);
    await t.db.updateTable('projects').set({ allow_new_applications: true }).where('uid', '=', 'applications').execute();
  });

  it('an applicant starting a public protocol opens a public application (RADICACION_PUBLICA); staff open the protocol\'s own type', async () => {
    const pid = await protocolId();
    const before = await t.db.selectFrom('protocols').where('id', '=', pid).select(['public', 'case_type']).executeTakeFirstOrThrow();
    expect(before.public).toBe(true);
    await t.db.updateTable('protocols').set({ case_type: 'RADICACION_INTERNA' }).where('id', '=', pid).execute();
    try {
      const theirs = (await req('POST', '/api/cases/drafts', applicant, { protocolId: pid, data: {} })).json<{ id: number }>();
      const ours = (await req('POST', '/api/cases/drafts', coordinator, { protocolId: pid, data: {} }));
      const typeOf = async (id: number) => (await t.db.selectFrom('cases').where('id', '=', id).select('case_type').executeTakeFirstOrThrow()).case_type;
      expect(await typeOf(theirs.id)).toBe('RADICACION_PUBLICA');
      expect(ours.statusCode).toBe(201);
      expect(await typeOf(ours.json<{ id: number }>().id)).toBe('RADICACION_INTERNA');
    } finally {
      await t.db.updateTable('protocols').set(before).where('id', '=', pid).execute();
    }
  });

  it('under maintenance: no application is started or sent (503, in the caller\'s language), the draft stays a draft, and the form is told', async () => {
    const pid = await protocolId();
    const { id } = (await req('POST', '/api/cases/drafts', applicant, { protocolId: pid, data: { ...complete('0'), documentNumber: '5559901', email: 'paused@example.org' } })).json<{ id: number }>();
    await t.db.updateTable('projects').set({ maintenance: true }).where('uid', '=', 'applications').execute();
    try {
      const start = await req('POST', '/api/cases/drafts', applicant, { protocolId: pid, data: {} }, 'es');
      expect(start.statusCode).toBe(503);
      expect(start.json<Err>().error).toMatchObject({ code: 'MAINTENANCE', message: 'Las radicaciones están en pausa por mantenimiento. Inténtelo más tarde.' });
      const send = await req('POST', `/api/cases/drafts/${id}/submit`, applicant, {});
      expect(send.statusCode).toBe(503);
      expect((await req('GET', `/api/cases/drafts/${id}`, applicant)).statusCode).toBe(200);
      expect((await req('GET', '/api/cases/new-options', applicant)).json<{ maintenance: boolean }>().maintenance).toBe(true);
    } finally {
      await t.db.updateTable('projects').set({ maintenance: false }).where('uid', '=', 'applications').execute();
    }
    expect((await req('POST', `/api/cases/drafts/${id}/submit`, applicant, {})).statusCode).toBe(200);
  });
});

describe('the list', () => {
  it('shows staff every case and an applicant only their own', async () => {
    const staff = (await req('GET', '/api/cases?limit=100', coordinator)).json<List<Item>>();
    const own = (await req('GET', '/api/cases?limit=100', applicant)).json<List<Item>>();
    expect(staff.total).toBeGreaterThanOrEqual(11);
    expect(own.total).toBeGreaterThanOrEqual(11); // the applicant owns the earlier applications
    expect((await req('GET', '/api/cases?limit=100', reviewer)).json<List<Item>>().total).toBe(staff.total);
    expect((await req('GET', '/api/cases', other)).json<List<Item>>().total).toBe(0);
  });

  it('filters by state and finds a case by an advanced search on a form field', async () => {
    const byRent = (await search(coordinator, [{ column: 'data.payRent', op: 'eq', value: '1234' }])).json<List<Item>>();
    expect(byRent.items.length).toBeGreaterThanOrEqual(1);
    expect(byRent.items.every((i) => i.applicant.startsWith('Lucía'))).toBe(true);
    const range = (await search(coordinator, [{ column: 'data.payRent', op: 'between', value: [1000, 1300] }])).json<List<{ applicant: string }>>();
    expect(range.items.some((i) => i.applicant.includes('Rodríguez'))).toBe(true); // 1200 in the earlier applications
    const name = (await search(coordinator, [{ column: 'data.lastName', op: 'startsWith', value: 'ort' }, { column: 'state', op: 'eq', value: 'PENDING' }])).json<List<Item>>();
    expect(name.items.length).toBeGreaterThanOrEqual(1);
    const rejected = (await req('GET', '/api/cases?state=REJECTED', coordinator)).json<List<Item>>();
    expect(rejected.items.every((i) => i.state === 'REJECTED')).toBe(true);
    const empty = (await search(coordinator, [{ column: 'data.third_party_email', op: 'empty' }])).json<List<Item>>();
    expect(empty.total).toBeGreaterThan(0);
    // The owner's name, a column of another table.
    const all = (await req('GET', '/api/cases?limit=100', coordinator)).json<List<Item>>();
    const owner = all.items[0].ownerName;
    const byOwner = (await search(coordinator, [{ column: 'ownerName', op: 'contains', value: owner.slice(1, -1).toUpperCase() }])).json<List<Item>>();
    expect(byOwner.total).toBe(all.items.filter((i) => i.ownerName === owner).length);
    expect((await search(coordinator, [{ column: 'ownerName', op: 'ne', value: owner }])).json<List<Item>>().items.every((i) => i.ownerName !== owner)).toBe(true);
  });

  it('keeps the GIN indexes of cases with a short pending list (256 kB), so that writes merge entries in runs and searches read little (migration 0020)', async () => {
    const { rows } = await sql<{ name: string; options: string[] | null }>`select relname as name, reloptions as options from pg_class where relname in ('cases_data_gin', 'cases_search_name_trgm') order by relname`.execute(t.db);
    expect(rows).toEqual([
      { name: 'cases_data_gin', options: ['fastupdate=on', 'gin_pending_list_limit=256'] },
      { name: 'cases_search_name_trgm', options: ['fastupdate=on', 'gin_pending_list_limit=256'] },
    ]);
  });

  it('refuses an unknown column or operator with a clear 400', async () => {
    for (const rows of [[{ column: 'password_hash', op: 'eq', value: 'x' }], [{ column: 'data.x', op: 'regex', value: '.' }]]) {
      const res = await req('GET', `/api/cases?filters=${encodeURIComponent(JSON.stringify(rows.map((r) => [r.column, r.op, r.value])))}`, coordinator);
      expect(res.statusCode).toBe(400);
      expect(res.json<Err>().error.code).toBe('VALIDATION');
    }
    expect((await req('GET', '/api/cases?filters=%7Bbroken', coordinator)).statusCode).toBe(400);
    expect((await req('GET', '/api/cases?sortBy=data', coordinator)).statusCode).toBe(400);
  });

  it('keeps saved searches per user', async () => {
    const saved = await req('POST', '/api/cases/saved-searches', coordinator, { name: 'High rent', query: { filters: encodeSearch([{ column: 'data.payRent', op: 'gt', value: 1000 }]) } });
    expect(saved.statusCode).toBe(201);
    expect((await req('GET', '/api/cases/saved-searches', coordinator)).json<unknown[]>()).toHaveLength(1);
    expect((await req('GET', '/api/cases/saved-searches', reviewer)).json<unknown[]>()).toHaveLength(0);
  });
});

describe('one case', () => {
  it('shows its history, takes a data correction with the field changes recorded, and is completed', async () => {
    const id = (await search(coordinator, [{ column: 'data.payRent', op: 'eq', value: 1234 }])).json<List<Item>>().items[0].id;
    const c = (await req('GET', `/api/cases/${id}`, coordinator)).json<{ data: Record<string, unknown>; version: number; actions: string[]; optionLabels: unknown }>();
    expect(c.actions).toEqual(expect.arrayContaining(['complete', 'close', 'changeOwner', 'editData']));
    // Master selects come with the names of the items they hold.
    expect(c.optionLabels).toMatchObject({ departamento: { '76': 'Valle del Cauca' }, municipio: { '76001': 'Cali' } });
    const taskId = (await req('GET', `/api/tasks?caseId=${id}`, coordinator)).json<List<{ id: number }>>().items[0].id;
    expect((await req('GET', `/api/tasks/${taskId}`, coordinator)).json<{ case: { optionLabels: unknown } }>().case.optionLabels).toEqual(c.optionLabels);
    const fixed = await req('PUT', `/api/cases/${id}/data`, coordinator, { data: { ...c.data, payRent: 1300 }, version: c.version });
    expect(fixed.statusCode).toBe(200);
    const history = (await req('GET', `/api/cases/${id}/history`, coordinator)).json<Array<{ action: string; type: string; userName: string; detail: Record<string, unknown> }>>();
    expect(history.map((h) => h.action)).toEqual(expect.arrayContaining(['case_created', 'case_submit', 'task_created', 'field_changed']));
    expect(history.find((h) => h.type === 'field')).toMatchObject({ userName: 'Carla Coordinator', detail: { field: 'payRent', from: 1234, to: 1300 } });
    expect((await req('POST', `/api/cases/${id}/complete`, coordinator, {})).json()).toEqual({ state: 'SUCCESS' });
    // Done: no open work remains, and it cannot be completed twice.
    const done = (await req('GET', `/api/cases/${id}`, coordinator)).json<{ openTasks: number; actions: string[]; data: unknown; version: number }>();
    expect(done.openTasks).toBe(0);
    // A completed application's data is no longer corrected: not offered, and refused.
    expect(done.actions).not.toContain('editData');
    expect((await req('PUT', `/api/cases/${id}/data`, coordinator, { data: done.data, version: done.version })).json<Err>().error.code).toBe('CASE_NOT_OPEN');
    expect((await req('POST', `/api/cases/${id}/complete`, coordinator, {})).statusCode).toBe(409);
    // 'Enable again' needs wf_activar_caso, which the coordinator holds.
    expect((await req('POST', `/api/cases/${id}/activate`, coordinator, {})).json()).toEqual({ state: 'PENDING' });
  });

  it('guards each action by its target: the applicant can neither complete nor see history', async () => {
    const id = (await req('GET', '/api/cases?state=PENDING&limit=1', coordinator)).json<List<Item>>().items[0].id;
    expect((await req('POST', `/api/cases/${id}/complete`, applicant, {})).statusCode).toBe(403);
    expect((await req('GET', `/api/cases/${id}/history`, applicant)).statusCode).toBe(403);
    expect((await req('GET', `/api/cases/${id}`, applicant)).json<{ actions: string[] }>().actions).toEqual([]);
    const own = (await req('GET', `/api/cases/${id}`, applicant)).json<{ data: unknown; version: number }>();
    expect((await req('PUT', `/api/cases/${id}/data`, applicant, { data: own.data, version: own.version })).statusCode).toBe(403);
  });

  it('is 404 for another tenant, for reading and for every change', async () => {
    const id = (await req('GET', '/api/cases?limit=1', coordinator)).json<List<Item>>().items[0].id;
    for (const [method, url, body] of [
      ['GET', `/api/cases/${id}`, undefined],
      ['POST', `/api/cases/${id}/close`, {}],
      ['PUT', `/api/cases/${id}/owner`, { userId: 1 }],
      ['PUT', `/api/cases/${id}/participants`, { userIds: [] }],
      ['GET', `/api/cases/${id}/similar`, undefined],
    ] as const) {
      expect((await req(method, url, other, body)).statusCode, `${method} ${url}`).toBe(404);
    }
  });

  it("changes owner only to a user of the tenant", async () => {
    const id = (await req('GET', '/api/cases?limit=1', coordinator)).json<List<Item>>().items[0].id;
    const foreign = people.otherAdmin.id;
    expect((await req('PUT', `/api/cases/${id}/owner`, coordinator, { userId: foreign })).statusCode).toBe(400);
    // A change within the tenant is in the history with both names.
    const reviewerId = people.reviewer.id;
    const before = (await req('GET', `/api/cases/${id}`, coordinator)).json<{ ownerName: string }>().ownerName;
    expect((await req('PUT', `/api/cases/${id}/owner`, coordinator, { userId: reviewerId })).statusCode).toBe(200);
    const history = (await req('GET', `/api/cases/${id}/history`, coordinator)).json<Array<{ action: string; detail: Record<string, unknown> }>>();
    const change = history.find((h) => h.action === 'owner_changed')?.detail;
    expect(change).toMatchObject({ to: reviewerId, fromName: before, toName: 'Rafael Reviewer' });
    expect((await req('PUT', `/api/cases/${id}/owner`, coordinator, { userId: change?.from })).statusCode).toBe(200);
  });
});

describe('a total counted up to a cap', () => {
  it('counts exactly below the cap, says capped above it, and never counts for a first page that is not full', async () => {
    const { paginateCapped } = await import('../../lib/list.js');
    const q = () => t.db.selectFrom('cases').select('id').orderBy('id');
    const all = (await q().execute()).length;
    expect(all).toBeGreaterThan(6);
    expect(await paginateCapped(t.db, q(), { page: 1, limit: 2 }, 1000)).toMatchObject({ total: all, capped: false });
    const capped = await paginateCapped(t.db, q(), { page: 1, limit: 2 }, 5);
    expect(capped).toMatchObject({ total: 5, capped: true });
    expect(capped.rows).toHaveLength(2);
    // Paging past the cap still counts as far as the page reaches.
    expect(await paginateCapped(t.db, q(), { page: 3, limit: 2 }, 5)).toMatchObject({ total: Math.min(all, 6), capped: all > 6 });
    expect(await paginateCapped(t.db, q(), { page: 1, limit: all + 5 }, 1)).toMatchObject({ total: all, capped: false });
  });

  it('the list says whether its total is a floor', async () => {
    const res = (await req('GET', '/api/cases?limit=1', coordinator)).json<{ total: number; capped: boolean }>();
    expect(res.capped).toBe(false);
    expect(res.total).toBeGreaterThan(1);
  });

  it('without a count, a page says only whether more follow; the count comes on its own for the same filters', async () => {
    const { paginateCapped } = await import('../../lib/list.js');
    const q = () => t.db.selectFrom('cases').select('id').orderBy('id');
    const all = (await q().execute()).length;
    expect(await paginateCapped(t.db, q(), { page: 1, limit: 2 }, 1000, { count: false })).toMatchObject({ total: 2, capped: true });
    const last = await paginateCapped(t.db, q(), { page: 2, limit: all - 2 }, 1000, { count: false });
    expect(last).toMatchObject({ total: all, capped: false });
    expect(last.rows.map((r) => r.id)).toEqual((await q().execute()).slice(all - 2).map((r) => r.id));

    const counted = (await req('GET', '/api/cases/count?state=PENDING', coordinator)).json<{ total: number; capped: boolean }>();
    const pending = (await req('GET', '/api/cases?state=PENDING&limit=100', coordinator)).json<{ items: Item[]; total: number }>();
    expect(counted).toEqual({ total: pending.total, capped: false });
    const page = (await req('GET', '/api/cases?state=PENDING&limit=1&count=false', coordinator)).json<{ items: Item[]; total: number; capped: boolean }>();
    expect(page).toMatchObject({ total: 1, capped: pending.total > 1 });
    expect(page.items.map((i) => i.id)).toEqual(pending.items.slice(0, 1).map((i) => i.id));
    // The count checks the search as the list does, and sees only the caller's tenant.
    const bad = await req('GET', `/api/cases/count?filters=${encodeURIComponent(encodeSearch([{ column: 'data.x', op: 'nope' as never, value: '1' }]))}`, coordinator);
    expect(bad.statusCode).toBe(400);
    expect((await req('GET', '/api/cases/count', other)).json<{ total: number }>().total).toBe(0);
    const mine = (await req('GET', '/api/cases/count', applicant)).json<{ total: number }>().total;
    expect(mine).toBe((await req('GET', '/api/cases?limit=100', applicant)).json<{ total: number }>().total);
    expect((await req('GET', '/api/cases/count?limit=5', coordinator)).statusCode).toBe(400);
  });
});

describe('export and administration', () => {
  it('exports the current result as CSV with formulas neutralised', async () => {
    const pid = await protocolId();
    const evil = (await req('POST', '/api/cases/drafts', applicant, { protocolId: pid, data: { ...complete('9'), firstName: '=HYPERLINK("http://evil")' } })).json<{ id: number }>();
    expect((await req('POST', `/api/cases/drafts/${evil.id}/submit`, applicant, {})).statusCode).toBe(200);
    const res = await req('GET', `/api/cases/export?protocolId=${pid}&filters=${encodeURIComponent(encodeSearch([{ column: 'data.documentNumber', op: 'eq', value: '55509' }]))}`, coordinator);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const { parseCsv } = await import('../../lib/csv.js');
    const rows = parseCsv(res.body);
    expect(rows[0].slice(0, 4)).toEqual(['number', 'state', 'protocol', 'applicant']);
    expect(rows[0]).toContain('firstName');
    expect(rows).toHaveLength(2);
    const firstName = rows[1][rows[0].indexOf('firstName')];
    expect(firstName.startsWith("'=")).toBe(true);
    // The applicant lacks the export action.
    expect((await req('GET', '/api/cases/export', applicant)).statusCode).toBe(403);
  });

  it('exports in the background with progress, as CSV and as Excel; only its owner reads it; bad filters refused at once', async () => {
    const all = (await req('GET', '/api/cases?limit=1', coordinator)).json<List<Item>>().total;
    const started = await req('POST', '/api/cases/exports', coordinator, { format: 'xlsx', query: { state: ['PENDING', 'CLOSED', 'SUCCESS'] } });
    expect(started.statusCode).toBe(202);
    const job = started.json<{ id: string; state: string }>();
    let view = job as { id: string; state: string; done: number; total: number; filename: string | null };
    for (let i = 0; i < 100 && view.state === 'running'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      view = (await req('GET', `/api/cases/exports/${job.id}`, coordinator)).json();
    }
    expect(view.state).toBe('done');
    expect(view.total).toBeGreaterThan(0);
    expect(view.total).toBeLessThanOrEqual(all);
    expect(view.done).toBe(view.total);
    expect(view.filename).toMatch(/^cases-\d{4}-\d{2}-\d{2}\.xlsx$/);
    const file = await req('GET', `/api/cases/exports/${job.id}/file`, coordinator);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toContain('spreadsheetml');
    expect(file.headers['content-disposition']).toContain('attachment');
    expect(file.rawPayload.subarray(0, 2).toString()).toBe('PK');
    // Its job is a pointer: a second job for the finished export does not redo it.
    const row = await t.db.selectFrom('case_exports').where('id', '=', job.id).select(['user_id', 'updated_at']).executeTakeFirstOrThrow();
    const jobs = t.app.jobs as NonNullable<typeof t.app.jobs>;
    const second = (await jobs.send(QUEUES.caseExport, { id: job.id, userId: row.user_id, query: {} }, { singletonKey: `export-${job.id}` })) as string;
    let settled: string | undefined;
    for (let i = 0; i < 100 && !['completed', 'failed'].includes(settled ?? ''); i++) {
      await new Promise((r) => setTimeout(r, 50));
      settled = (await jobs.boss.getJobById(QUEUES.caseExport, second))?.state;
    }
    expect(settled).toBe('completed');
    const untouched = await t.db.selectFrom('case_exports').where('id', '=', job.id).select(['state', 'updated_at']).executeTakeFirstOrThrow();
    expect(untouched).toEqual({ state: 'done', updated_at: row.updated_at });
    // Another user who may export (of the same tenant or another), or an unknown id: not found.
    const admin = await login(t, people.admin.email);
    expect((await req('GET', `/api/cases/exports/${job.id}`, admin)).statusCode).toBe(404);
    expect((await req('GET', `/api/cases/exports/${job.id}/file`, other)).statusCode).toBe(404);
    expect((await req('GET', '/api/cases/exports/AAAAAAAAAAAAAAAAAAAAAAAA', coordinator)).statusCode).toBe(404);
    expect((await req('GET', '/api/cases/exports/..%2F..%2Fetc', coordinator)).statusCode).toBe(400);
    // An unknown advanced-search column is a 400 now, and no job is left behind.
    const before = await t.db.selectFrom('case_exports').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    const bad = await req('POST', '/api/cases/exports', coordinator, { format: 'csv', query: { filters: encodeSearch([{ column: 'password', op: 'eq', value: 'x' }] as never) } });
    expect(bad.statusCode).toBe(400);
    const after = await t.db.selectFrom('case_exports').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
    // The applicant lacks the export action.
    expect((await req('POST', '/api/cases/exports', applicant, { format: 'csv' })).statusCode).toBe(403);
  });

  it('exports as Excel at once too, with the same rows as the CSV', async () => {
    const csv = await req('GET', '/api/cases/export?format=csv&state=PENDING', coordinator);
    const xlsx = await req('GET', '/api/cases/export?format=xlsx&state=PENDING', coordinator);
    expect(xlsx.statusCode).toBe(200);
    const { parseCsv } = await import('../../lib/csv.js');
    const csvRows = parseCsv(csv.body).length;
    // The workbook as Excel opens it: its one sheet has the CSV's rows.
    const ExcelJS = (await import('exceljs')).default;
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as never);
    expect(book.worksheets).toHaveLength(1);
    expect(book.worksheets[0]?.rowCount).toBe(csvRows);
    expect(book.worksheets[0]?.getRow(1).getCell(1).value).toBe('number');
  });

  it('case administration lists on its own target: admin_cases alone is enough, and it stays in the tenant', async () => {
    const email = `case-admin-${Date.now()}@demo.test`;
    await makeUser(t.db, entityId, { role: 'case-admin-only', rules: { admin_cases: ['show', 'update'] }, email });
    const who = await login(t, email, 'Passw0rd1');
    expect((await req('GET', '/api/cases?limit=5', who)).statusCode).toBe(403);
    const all = (await req('GET', '/api/admin-cases?limit=100', who)).json<List<Item>>();
    expect(all.total).toBe((await req('GET', '/api/cases?limit=100', coordinator)).json<List<Item>>().total);
    const counted = (await req('GET', '/api/admin-cases/count?state=PENDING', who)).json<{ total: number }>();
    expect(counted.total).toBe((await req('GET', '/api/cases/count?state=PENDING', coordinator)).json<{ total: number }>().total);
    // Without admin_cases, the administration list is refused; another tenant's administrator sees none of these.
    expect((await req('GET', '/api/admin-cases', applicant)).statusCode).toBe(403);
    expect((await req('GET', '/api/admin-cases', other)).json<List<Item>>().total).toBe(0);
  });

  it('closes and reassigns in bulk, reporting what could not be done', async () => {
    const pending = (await req('GET', '/api/cases?state=PENDING&limit=2', coordinator)).json<List<Item>>().items.map((i) => i.id);
    const closed = (await req('GET', '/api/cases?state=CLOSED&limit=1', coordinator)).json<List<Item>>().items.map((i) => i.id);
    const res = (await req('POST', '/api/admin-cases/close', coordinator, { ids: [...pending, ...closed], reason: 'Programme ended' })).json<{ done: number[]; failed: Array<{ id: number }> }>();
    expect(res.done).toEqual(pending);
    expect(res.failed.map((f) => f.id)).toEqual(closed);
    const reviewerId = people.reviewer.id;
    const moved = (await req('POST', '/api/admin-cases/reassign', coordinator, { ids: pending, userId: reviewerId })).json<{ done: number[] }>();
    expect(moved.done).toEqual(pending);
    expect((await req('POST', '/api/admin-cases/close', reviewer, { ids: pending })).statusCode).toBe(403);
  });
});

describe('the search box (search=): every word in the number, a name or the document, accents and case ignored', () => {
  type Found = { id: number; number: string };
  let marisol: Found;
  let mario: Found;
  let solange: Found;
  let foreign: number;
  const ours = () => new Set([marisol.id, mario.id, solange.id]);
  /** What a search finds, as ids; `among` keeps only the cases made here (the earlier applications may match too). */
  const find = async (text: string, who = coordinator, path = '/api/cases') => {
    const res = await req('GET', `${path}?limit=100&search=${encodeURIComponent(text)}`, who);
    expect(res.statusCode, text).toBe(200);
    return res.json<List<Found>>().items.map((i) => i.id);
  };
  const among = async (text: string) => (await find(text)).filter((id) => ours().has(id)).sort((a, b) => a - b);
  const ids = (...cases: Found[]) => cases.map((c) => c.id).sort((a, b) => a - b);

  beforeAll(async () => {
    const pid = await protocolId();
    const submit = async (firstName: string, lastName: string, documentNumber: string) => {
      const { id } = (await req('POST', '/api/cases/drafts', applicant, { protocolId: pid, data: { ...complete('0'), firstName, lastName, documentNumber, email: `${documentNumber}@example.org` } })).json<{ id: number }>();
      expect((await req('POST', `/api/cases/drafts/${id}/submit`, applicant, {})).statusCode).toBe(200);
      return (await req('GET', `/api/cases/${id}`, coordinator)).json<Found>();
    };
    marisol = await submit('Marisol', 'Rivera', '7770001');
    mario = await submit('Mario', 'Ríveros', '7770002');
    solange = await submit('Solange', 'Marín', '7770003');
    // A draft of the same name is not listed, so not found.
    await req('POST', '/api/cases/drafts', applicant, { protocolId: pid, data: { firstName: 'Marisol', lastName: 'Rivera' } });
    // The same applicant in another tenant.
    const other = people.otherAdmin;
    const project = await t.db.selectFrom('projects').where('entity_id', '=', other.entity_id).select('id').executeTakeFirstOrThrow();
    const row = await sql<{ id: number }>`
      insert into cases (entity_id, project_id, protocol_id, protocol_version_id, form_version_id, owner_id, case_type, serial, serial_month, serial_seq, doc_date, state, data)
      select ${other.entity_id}, ${project.id}, protocol_id, protocol_version_id, form_version_id, ${other.id}, case_type, '2026-01-999999', '2026-01', 999999, now(), 'PENDING', data
      from cases where id = ${marisol.id} returning id`.execute(t.db);
    foreign = row.rows[0].id;
  });

  it('finds a full name, in either order, and not two people who each have half of it', async () => {
    expect(await among('Marisol Rivera')).toEqual(ids(marisol));
    expect(await among('rivera marisol')).toEqual(ids(marisol));
    expect(await among('  MARISOL   rivera ')).toEqual(ids(marisol));
    // Each word must be found: Marisol is not a Ríveros, Mario is not a Marisol.
    expect(await among('Marisol Riveros')).toEqual([]);
  });

  it('finds parts of words, across the first and the last name', async () => {
    expect(await among('Mari Rive')).toEqual(ids(marisol, mario));
    // Several words are gathered, then sorted (textSearch.ts): still newest first, as the whole list.
    const listed = (await req('GET', '/api/cases?limit=100', coordinator)).json<List<Found>>().items.map((i) => i.id);
    expect(await find('Mari Rive')).toEqual(listed.filter((id) => id === marisol.id || id === mario.id));
    expect(await among('mari')).toEqual(ids(marisol, mario, solange));
    expect(await among('sol riv')).toEqual(ids(marisol));
    expect(await among('Rivera,')).toEqual(ids(marisol));
  });

  it('ignores accents on either side, and case', async () => {
    expect(await among('rivéra')).toEqual(ids(marisol));
    expect(await among('RÍVERA')).toEqual(ids(marisol));
    expect(await among('riveros')).toEqual(ids(mario));
    expect(await among('Ríveros')).toEqual(ids(mario));
    expect(await among('marin solange')).toEqual(ids(solange));
  });

  it('finds the case number and the document number, whole or their start', async () => {
    expect(await find(marisol.number)).toEqual([marisol.id]);
    expect(await find('7770002')).toEqual([mario.id]);
    expect((await find('777000')).sort((a, b) => a - b)).toEqual(ids(marisol, mario, solange));
    expect(await find(`${marisol.number} Marisol`)).toEqual([marisol.id]);
    expect(await find(`${marisol.number} Mario`)).toEqual([]);
    // A case number's start (here its month) lists its cases newest first, as the whole list does.
    const month = marisol.number.slice(0, 7);
    const listed = (await req('GET', '/api/cases?limit=100', coordinator)).json<List<Found>>().items.filter((i) => i.number.startsWith(month)).map((i) => i.id);
    expect(listed.length).toBeGreaterThan(3);
    expect(await find(month)).toEqual(listed);
    expect(await find(`${month}-`)).toEqual(listed);
    // A number is read from its start: the end of one finds nothing.
    expect(await among('770001')).toEqual([]);
    expect(await among(marisol.number.slice(4))).toEqual([]);
  });

  it('takes a word under three letters as the start of a word', async () => {
    // Initials.
    expect(await among('M R')).toEqual(ids(marisol, mario));
    expect(await among('so')).toEqual(ids(solange)); // not Mari-so-l
    expect(await among('ri')).toEqual(ids(marisol, mario)); // Rivera, Ríveros; not Ma-ri-sol alone
    expect(await among('Ma Ri')).toEqual(ids(marisol, mario));
    expect(await among('ar')).toEqual([]);
  });

  it('takes LIKE wildcards literally, also after accent folding (％ folds to %)', async () => {
    for (const text of ['Mar_sol', 'Mari%', 'M%sol', 'Mar％sol', 'Mar＿sol', 'Mari\\sol']) expect(await among(text), text).toEqual(text === 'Mari%' ? ids(marisol, mario, solange) : []);
    // Only punctuation is no search at all.
    expect((await find('%')).length).toBe((await find('')).length);
  });

  it('counts, exports and administers the same matches, and stays in the tenant', async () => {
    expect((await req('GET', `/api/cases/count?search=${encodeURIComponent('marisol rivéra')}`, coordinator)).json()).toEqual({ total: 1, capped: false });
    expect(await find('Marisol Rivera', coordinator, '/api/admin-cases')).toEqual([marisol.id]);
    expect(await find('Marisol Rivera', applicant)).toEqual([marisol.id]);
    const csv = await req('GET', `/api/cases/export?search=${encodeURIComponent('Marisol Rivera')}`, coordinator);
    const { parseCsv } = await import('../../lib/csv.js');
    expect(parseCsv(csv.body).slice(1).map((r) => r[0])).toEqual([marisol.number]);
    // The other tenant finds its own Marisol Rivera only, and counts one.
    expect(await find('Marisol Rivera', other)).toEqual([foreign]);
    expect((await req('GET', '/api/cases/count?search=Marisol%20Rivera', other)).json()).toEqual({ total: 1, capped: false });
    expect(await find('7770001', other)).toEqual([foreign]);
    expect(await find('Marisol Rivera', reviewer)).toEqual([marisol.id]);
  });

  it('is served by the indexes of migration 0012 on a larger tenant, for long and short words alike', async () => {
    // 20,000 more cases (the last test here: the searches above see only their own), so that the planner
    // prefers the indexes as it would on a real tenant; the plan shows that every part of a word's
    // condition can be served by one.
    await sql`
      insert into cases (entity_id, project_id, protocol_id, protocol_version_id, form_version_id, owner_id, case_type, serial, serial_month, serial_seq, doc_date, state, data)
      select entity_id, project_id, protocol_id, protocol_version_id, form_version_id, owner_id, case_type, '2001-01-' || lpad(g::text, 6, '0'), '2001-01', g, now() - g * interval '1 minute', 'PENDING',
        jsonb_build_object('firstName', 'Bulk' || g, 'lastName', 'Row', 'documentNumber', (900000000 + g)::text)
      from generate_series(1, 20000) g, (select * from cases where id = ${marisol.id}) c`.execute(t.db);
    await sql`analyze cases`.execute(t.db);
    const { caseTextSearch } = await import('./textSearch.js');
    const entityId = (await t.db.selectFrom('cases').where('id', '=', marisol.id).select('entity_id').executeTakeFirstOrThrow()).entity_id;
    const indexes = { names: ['cases_search_name_trgm'], numbers: ['cases_search_name_trgm', 'cases_serial_prefix_idx', 'cases_document_prefix_idx'] };
    for (const [text, used] of [['Marisol Rivera', indexes.names], ['M R', indexes.names], ['7770001', indexes.numbers], [marisol.number, indexes.numbers]] as const) {
      // The list's own conditions, values as parameters as the server sends them.
      const compiled = t.db.selectFrom('cases as c').select('c.id').where('c.entity_id', '=', entityId).where('c.state', '<>', 'DRAFT').where(caseTextSearch(text) as never).compile();
      const { rows } = await t.db.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain ${compiled.sql}`, [...compiled.parameters]));
      const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
      for (const index of used) expect(plan, `${text}: ${plan}`).toContain(index);
      expect(plan, text).not.toMatch(/Seq Scan|Index Scan using cases_entity/);
    }
    expect(await find('Marisol Rivera')).toEqual([marisol.id]);
  });
});

describe('the date filter', () => {
  it("reads From and To as days of the tenant's calendar, across the change to daylight saving time in US Eastern", async () => {
    const [a, b] = (await req('GET', '/api/cases?limit=2', coordinator)).json<List<Item>>().items.map((c) => c.id);
    const { entity_id } = await t.db.selectFrom('cases').where('id', '=', a).select('entity_id').executeTakeFirstOrThrow();
    const before = await t.db.selectFrom('projects').where('entity_id', '=', entity_id).select(['id', 'time_zone']).execute();
    const dates = await t.db.selectFrom('cases').where('id', 'in', [a, b]).select(['id', 'doc_date']).execute();
    await t.db.updateTable('projects').set({ time_zone: 'America/New_York' }).where('entity_id', '=', entity_id).execute();
    // 23:30 on Saturday 7 March (EST, UTC-5) and 23:30 on Sunday 8 March (EDT, UTC-4): the next day in UTC, both.
    await t.db.updateTable('cases').set({ doc_date: new Date('2026-03-08T04:30:00Z') }).where('id', '=', a).execute();
    await t.db.updateTable('cases').set({ doc_date: new Date('2026-03-09T03:30:00Z') }).where('id', '=', b).execute();
    try {
      const day = async (from: string, to = from) => (await req('GET', `/api/cases?from=${from}&to=${to}&limit=100`, coordinator)).json<List<Item>>().items.map((c) => c.id).filter((id) => id === a || id === b);
      expect(await day('2026-03-07')).toEqual([a]);
      expect(await day('2026-03-08')).toEqual([b]);
      expect(await day('2026-03-09')).toEqual([]);
      expect((await day('2026-03-07', '2026-03-08')).sort()).toEqual([a, b].sort());
      const count = await req('GET', '/api/cases/count?from=2026-03-08&to=2026-03-08', coordinator);
      expect(count.json<{ total: number }>().total).toBe(1);
    } finally {
      for (const p of before) await t.db.updateTable('projects').set({ time_zone: p.time_zone }).where('id', '=', p.id).execute();
      for (const d of dates) await t.db.updateTable('cases').set({ doc_date: d.doc_date }).where('id', '=', d.id).execute();
    }
  });

  it('refuses a day that is not on the calendar with 400, on the list, its count and the export', async () => {
    for (const url of ['/api/cases?from=2031-02-30', '/api/cases?to=2026-13-01', '/api/cases/count?from=2026-02-29', '/api/cases/export?format=csv&to=2026-04-31']) {
      const res = await req('GET', url, coordinator);
      expect(res.statusCode, url).toBe(400);
      expect(res.json<{ error: { code: string } }>().error.code).toBe('VALIDATION');
    }
    expect((await req('GET', '/api/cases?from=2028-02-29&limit=1', coordinator)).statusCode).toBe(200);
  });
});
