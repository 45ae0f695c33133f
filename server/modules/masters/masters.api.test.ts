import type { Action } from '../../../core/targets.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, login, type TestApp } from '../../../tests/support/app.js';
import { makeEntity, makeMaster, makeMasterItem, makeUser } from '../../../tests/support/factories.js';
import { parseCsv } from '../../lib/csv.js';

/**
 * The masters' API on a tenant made here with the factories (the demo seed
 * plays no part): the four system masters every tenant starts with, two
 * masters of its own, and a small region (departamentos and their
 * municipios) written out below.
 */
const CRUD: Action[] = ['show', 'create', 'update', 'delete'];
const ROLES = {
  /** Runs the programme's lists: every master, the spec's three by their own targets. */
  coordinator: { menu_maestros: CRUD, definiciones: CRUD, departamentos: CRUD, municipios: CRUD },
  /** Reviews tasks: no master target at all. */
  reviewer: { wf_casos: ['show'], wf_tareas: ['show', 'update', 'accept', 'reject'] },
} satisfies Record<string, Partial<Record<string, Action[]>>>;

const DEPARTAMENTOS: Array<[string, string]> = [['05', 'Antioquia'], ['08', 'Atlántico'], ['11', 'Bogotá, D.C.'], ['25', 'Cundinamarca'], ['76', 'Valle del Cauca']];
const MUNICIPIOS: Array<[string, string, string]> = [
  ['05001', 'Medellín', '05'], ['05266', 'Envigado', '05'], ['05360', 'Itagüí', '05'], ['08001', 'Barranquilla', '08'],
  ['08758', 'Soledad', '08'], ['11001', 'Bogotá, D.C.', '11'], ['25754', 'Soacha', '25'], ['25899', 'Zipaquirá', '25'],
  ['76001', 'Cali', '76'], ['76520', 'Palmira', '76'],
];

let t: TestApp;
let docnumber: string;
let admin: { sid: string };
let coordinator: { sid: string };
let reviewer: { sid: string };
let other: { sid: string };
beforeAll(async () => {
  t = await createTestApp();
  const entity = await makeEntity(t.db);
  docnumber = entity.docnumber;
  const master = (code: string) => t.db.selectFrom('masters').where('entity_id', '=', entity.id).where('code', '=', code).selectAll().executeTakeFirstOrThrow();
  const departamentos = await master('departamentos');
  const municipios = await master('municipios');
  const parents = new Map<string, number>();
  for (const [code, name] of DEPARTAMENTOS) parents.set(code, (await makeMasterItem(t.db, departamentos, { code, name })).id);
  for (const [code, name, parent] of MUNICIPIOS) await makeMasterItem(t.db, municipios, { code, name, parent_item_id: parents.get(parent) });
  await makeMasterItem(t.db, await master('definiciones'), { code: 'lease', name: 'Lease (all pages)' });
  await makeMasterItem(t.db, await master('funciones'), { code: 'intake', name: 'Intake' });
  await makeMasterItem(t.db, await makeMaster(t.db, entity.id, { code: 'document_types', name: 'Document types', public: true }), { code: 'CC', name: 'Cédula de ciudadanía' });
  await makeMasterItem(t.db, await makeMaster(t.db, entity.id, { code: 'income_sources', name: 'Income sources', public: true }), { code: 'sourceSNAP', name: 'SNAP' });
  const otherEntity = await makeEntity(t.db);
  const users = [
    makeUser(t.db, entity.id, { role: 'super-admin', password: 'Demo12345' }),
    makeUser(t.db, entity.id, { role: 'coordinator', rules: ROLES.coordinator, password: 'Demo12345' }),
    makeUser(t.db, entity.id, { role: 'reviewer', rules: ROLES.reviewer, password: 'Demo12345' }),
    makeUser(t.db, otherEntity.id, { role: 'super-admin', password: 'Demo12345' }),
  ];
  [admin, coordinator, reviewer, other] = await Promise.all(users.map(async (u) => login(t, (await u).email, 'Demo12345')));
});
afterAll(() => t.close());

type List<T> = { items: T[]; total: number };
type Err = { error: { code: string; message: string; details?: Array<{ path: string; message: string }> } };
const req = (method: string, url: string, who: { sid: string }, payload?: unknown, headers?: Record<string, string>) =>
  t.request({ method: method as 'GET', url, cookies: who, payload: payload as string, headers });
const csv = (who: { sid: string }, code: string, text: string | Buffer, dryRun = false, lang = 'en') =>
  t.request({ method: 'POST', url: `/api/masters/${code}/import?dryRun=${dryRun}`, cookies: { ...who, lang }, payload: text, headers: { 'content-type': 'text/csv' } });

describe('masters', () => {
  it('lists the tenant\'s masters with their public URLs', async () => {
    const res = (await req('GET', '/api/masters?limit=50&sortBy=code', coordinator)).json<List<{ code: string; items: number; public: boolean; publicUrl: string | null; parentCode: string | null }>>();
    expect(res.items.map((m) => m.code)).toEqual(['comentarios_rapidos', 'definiciones', 'departamentos', 'document_types', 'festivos', 'funciones', 'income_sources', 'municipios']);
    const municipios = res.items.find((m) => m.code === 'municipios');
    expect(municipios).toMatchObject({ items: 10, public: true, parentCode: 'departamentos' });
    expect(municipios?.publicUrl).toBe(`http://localhost:3000/api/public/masters/${docnumber}/municipios`);
    expect(res.items.find((m) => m.code === 'funciones')?.publicUrl).toBeNull();
  });

  it('filters items by parent, searches and pages', async () => {
    const res = (await req('GET', '/api/masters/municipios/items?parent=05&sortBy=name', coordinator)).json<List<{ name: string; parentName: string }>>();
    expect(res.items.map((i) => i.name)).toEqual(['Envigado', 'Itagüí', 'Medellín']);
    expect(res.items[0].parentName).toBe('Antioquia');
    const search = (await req('GET', '/api/masters/municipios/items?search=bog', coordinator)).json<List<{ code: string }>>();
    expect(search.items.map((i) => i.code)).toEqual(['11001']);
  });

  it('guards a master by its own target: the reviewer sees none of them', async () => {
    expect((await req('GET', '/api/masters', reviewer)).json<List<unknown>>().total).toBe(0);
    expect((await req('GET', '/api/masters/municipios/items', reviewer)).statusCode).toBe(403);
    expect((await req('POST', '/api/masters/municipios/items', reviewer, { code: 'x', name: 'x', parentCode: '05' })).statusCode).toBe(403);
    expect((await req('POST', '/api/masters', reviewer, { code: 'zz', name: 'Z' })).statusCode).toBe(403);
  });

  it('creates a master and items; a child item needs an existing parent item', async () => {
    const created = await req('POST', '/api/masters', coordinator, { code: 'barrios', name: 'Barrios', parentCode: 'municipios', public: true });
    expect(created.statusCode).toBe(201);
    const noParent = await req('POST', '/api/masters/barrios/items', coordinator, { code: 'b1', name: 'Chapinero' });
    expect(noParent.json<Err>().error.details?.[0]).toEqual({ path: 'parentCode', message: 'You must choose an option' });
    // No cycles: departamentos cannot become a child of its own descendant.
    const cycle = await req('PUT', '/api/masters/departamentos', admin, { code: 'departamentos', name: 'Departamentos', parentCode: 'barrios', public: true });
    expect(cycle.statusCode).toBe(400);
    expect(cycle.json<Err>().error.details?.[0].path).toBe('parentCode');
    const ok = await req('POST', '/api/masters/barrios/items', coordinator, { code: 'b1', name: 'Chapinero', parentCode: '11001', extra: { stratum: 4 } });
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toMatchObject({ code: 'b1', parentCode: '11001', parentName: 'Bogotá, D.C.', extra: { stratum: 4 }, active: true });
    const dup = await req('POST', '/api/masters/barrios/items', coordinator, { code: 'b1', name: 'Again', parentCode: '11001' });
    expect(dup.json<Err>().error.code).toBe('DUPLICATE');
    // The parent item is in use now.
    const bogota = (await req('GET', '/api/masters/municipios/items?search=11001', coordinator)).json<List<{ id: number }>>().items[0];
    expect((await req('DELETE', `/api/masters/municipios/items/${bogota.id}`, coordinator)).json<Err>().error.code).toBe('IN_USE');
  });

  it('keeps system masters: their code stays and they cannot be deleted', async () => {
    expect((await req('DELETE', '/api/masters/municipios', admin)).json<Err>().error.code).toBe('SYSTEM_RECORD');
    const rename = await req('PUT', '/api/masters/funciones', admin, { code: 'roles', name: 'Funciones' });
    expect(rename.json<Err>().error.code).toBe('SYSTEM_RECORD');
  });
});

describe('CSV import and export', () => {
  it('dry-runs with per-row errors and writes nothing, then imports the good rows', async () => {
    const file = 'code,name,parent,active,population\n05045,Apartadó,05,true,120000\n05088,Bello,05,,500000\nbad,,05,\n99999,Nowhere,99,\n05045,Again,05,\n';
    const dry = await csv(coordinator, 'municipios', file, true);
    expect(dry.statusCode).toBe(200);
    expect(dry.json()).toEqual({
      dryRun: true,
      created: 2,
      updated: 0,
      errors: [
        { line: 4, column: 'name', message: 'This field is required' },
        { line: 5, column: 'parent', message: 'You must choose an option' },
        { line: 6, column: 'code', message: 'This code appears more than once in the file' },
      ],
    });
    expect((await req('GET', '/api/masters/municipios/items?search=Bello', coordinator)).json<List<unknown>>().total).toBe(0);

    const real = await csv(coordinator, 'municipios', file);
    expect(real.json()).toMatchObject({ dryRun: false, created: 2, updated: 0 });
    const bello = (await req('GET', '/api/masters/municipios/items?search=Bello', coordinator)).json<List<{ extra: object; parentCode: string }>>();
    expect(bello.items[0]).toMatchObject({ parentCode: '05', extra: { population: '500000' } });
    // Importing again updates instead of duplicating.
    expect((await csv(coordinator, 'municipios', file)).json()).toMatchObject({ created: 0, updated: 2 });
  });

  it('answers bad files with a clear message in the caller language', async () => {
    const latin1 = Buffer.from([0x63, 0x6f, 0x64, 0x65, 0x2c, 0x6e, 0x61, 0x6d, 0x65, 0x0a, 0x31, 0x2c, 0xe1]);
    const enc = await csv(coordinator, 'definiciones', latin1, false, 'es');
    expect(enc.statusCode).toBe(400);
    expect(enc.json<Err>().error.details?.[0].message).toBe('El archivo no es texto UTF-8: guárdelo como CSV UTF-8 e intente de nuevo');
    const quote = await csv(coordinator, 'definiciones', 'code,name\n1,"open\n');
    expect(quote.json<Err>().error.details?.[0].message).toBe('A quoted value is not closed');
    const cols = await csv(coordinator, 'definiciones', 'id,label\n1,x\n');
    expect(cols.json<Err>().error.details?.[0].message).toBe('The file needs the columns code and name');
    const json = await req('POST', '/api/masters/definiciones/import', coordinator, { code: 1 });
    expect(json.statusCode).toBe(415);
    const huge = await csv(coordinator, 'definiciones', `code,name\n${'x,y\n'.repeat(3_000_000)}`);
    expect(huge.statusCode).toBe(413);
  });

  it('exports CSV with formulas neutralised', async () => {
    await req('POST', '/api/masters/definiciones/items', coordinator, { code: 'evil', name: '=HYPERLINK("http://x")' });
    const res = await req('GET', '/api/masters/definiciones/export', coordinator);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toBe('attachment; filename="definiciones.csv"');
    const rows = parseCsv(res.body);
    expect(rows[0]).toEqual(['code', 'name', 'name_en', 'active']);
    expect(rows.find((r) => r[0] === 'evil')?.[1]).toBe('\'=HYPERLINK("http://x")');
  });
});

describe('public URL and tenants', () => {
  it('serves a public master without a session, and nothing private', async () => {
    const res = await t.request({ method: 'GET', url: `/api/public/masters/${docnumber}/municipios?parent=76` });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ info: Array<{ name: string }> }>().info.map((i) => i.name)).toEqual(['Cali', 'Palmira']);
    expect((await t.request({ method: 'GET', url: `/api/public/masters/${docnumber}/funciones` })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: '/api/public/masters/000/municipios' })).statusCode).toBe(404);
  });

  it("names a public master's items in the reader's language (the page's lang cookie), the other name when one is missing", async () => {
    const types = await t.db
      .selectFrom('masters as m')
      .innerJoin('entities as e', 'e.id', 'm.entity_id')
      .where('e.docnumber', '=', docnumber)
      .where('m.code', '=', 'document_types')
      .select(['m.id', 'm.entity_id'])
      .executeTakeFirstOrThrow();
    await makeMasterItem(t.db, types, { code: 'PA', name: 'Pasaporte', name_en: 'Passport' });
    const names = async (lang: string) =>
      (await t.request({ method: 'GET', url: `/api/public/masters/${docnumber}/document_types`, cookies: { lang } })).json<{ info: Array<{ code: string; name: string }> }>().info;
    expect(await names('en')).toEqual(expect.arrayContaining([{ code: 'PA', name: 'Passport', parent: null }, { code: 'CC', name: 'Cédula de ciudadanía', parent: null }]));
    expect((await names('es')).find((i) => i.code === 'PA')?.name).toBe('Pasaporte');
  });

  it("keeps each tenant's masters apart", async () => {
    const mine = await req('POST', '/api/masters/definiciones/items', coordinator, { code: 'only-demo', name: 'Only demo' });
    const id = mine.json<{ id: number }>().id;
    const theirs = (await req('GET', '/api/masters/definiciones/items?search=only-demo', other)).json<List<unknown>>();
    expect(theirs.total).toBe(0);
    expect((await req('PUT', `/api/masters/definiciones/items/${id}`, other, { code: 'x', name: 'Hacked' })).statusCode).toBe(404);
    expect((await req('DELETE', `/api/masters/definiciones/items/${id}`, other)).statusCode).toBe(404);
    expect((await req('GET', '/api/masters/definiciones/items?search=only-demo', coordinator)).json<List<{ name: string }>>().items[0].name).toBe('Only demo');
  });
});
