import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FieldDef, parseFormDefinition } from '../../../core/forms/definition.js';
import { createTestApp, login, type TestApp } from '../../../tests/support/app.js';
import { makeEntity, makeForm, makeMaster, makeMasterItem, makeUser } from '../../../tests/support/factories.js';

/**
 * Forms through the API, on a tenant of this file's own made with the
 * factories (the demo seed plays no part): an application form with the
 * fields the server gate is tried on (required, lengths, masters, a repeat
 * group, conditions), four task forms, and the master items their selects
 * offer. The rights each person holds are written out here.
 */
const CRUD = ['show', 'create', 'update', 'delete'];
const ROLES = {
  coordinator: { formularios: CRUD },
  /** No rights on forms. */
  reviewer: { wf_casos: ['show'], menutareas: ['show'], wf_tareas: ['show', 'update', 'accept', 'reject'] },
  /** Allows the hosts of external option lists. */
  admin: { menu_configuracion: ['show', 'update'] },
  /** Another tenant's administrator of forms. */
  otherAdmin: { formularios: CRUD },
} as const;

const f = (name: string, type: FieldDef['type'], label: string, label_en: string, extra: Partial<FieldDef> = {}): FieldDef => ({ name, type, label, label_en, ...extra });
const INCOME_SOURCES = ['sourceNoPayStub', 'sourceUnemployment', 'sourceSSISSDI', 'sourceChildSupport', 'sourceSNAP', 'sourceLIHEAP', 'sourceWIC', 'sourceTANIF'];
/** An application of more than 25 fields: the applicant, the household, income and rent, a third party. */
const APPLICATION = {
  name: 'Rental assistance application',
  fields: [
    f('firstName', 'text', 'Nombres', 'First name', { required: true, maxLength: 60 }),
    f('lastName', 'text', 'Apellidos', 'Last name', { required: true, maxLength: 60 }),
    f('documentType', 'master_select', 'Tipo de documento', 'Document type', { required: true, master: 'document_types' }),
    f('documentNumber', 'text', 'Número de documento', 'Document number', { required: true, maxLength: 20, pattern: '^[A-Za-z0-9-]+$' }),
    f('email', 'email', 'Correo electrónico', 'Email', { required: true }),
    f('phone', 'phone', 'Celular', 'Cellphone', { required: true }),
    f('departamento', 'master_select', 'Departamento', 'State', { required: true, master: 'departamentos' }),
    f('municipio', 'master_select', 'Municipio', 'City', { required: true, master: 'municipios', type_aux: 'departamento' }),
    f('zipCode', 'zip', 'Código postal', 'Zip code', { required: true }),
    f('householdInformation', 'repeat', 'Integrantes del hogar', 'Household members', {
      minRows: 1,
      maxRows: 12,
      children: [
        f('memberName', 'text', 'Nombre', 'Name', { required: true, maxLength: 100 }),
        f('relationship', 'select', 'Parentesco', 'Relationship', { required: true, options: [{ value: 'self', label: 'Solicitante', label_en: 'Applicant' }, { value: 'child', label: 'Hijo(a)', label_en: 'Child' }] }),
        f('age', 'number', 'Edad', 'Age', { required: true, min: 0, max: 120 }),
        f('monthlyIncome', 'currency', 'Ingreso mensual', 'Monthly income', { min: 0, max: 100000, visibleWhen: 'age >= 18' }),
      ],
    }),
    f('payRent', 'currency', 'Renta mensual', 'Monthly rent', { required: true, min: 1, max: 10000 }),
    ...INCOME_SOURCES.map((name) => f(name, 'checkbox', name, name)),
    f('housing_assistance', 'switch', 'Recibe asistencia de vivienda', 'Receives housing assistance'),
    f('income_required_housing_assistance', 'currency', 'Valor de la asistencia', 'Assistance amount', { required: true, min: 0, visibleWhen: 'housing_assistance == true' }),
    f('working_third_party', 'switch', '¿Le ayuda un tercero?', 'Is a third party helping you?'),
    f('third_party_email', 'email', 'Correo del tercero', 'Third party email', { required: true, visibleWhen: 'working_third_party == true' }),
    f('documents', 'file', 'Documentos', 'Documents', { accept: ['pdf', 'jpg', 'jpeg', 'png'], maxSizeMb: 10 }),
  ],
};
const TASK_FORMS: Array<[string, string]> = [
  ['intake-review', 'Intake review'], ['document-verification', 'Document verification'], ['eligibility', 'Eligibility'],
  ['landlord-verification', 'Landlord verification'], ['payment-approval', 'Payment approval'],
];

let t: TestApp;
let docnumber: string;
let adminEmail: string;
let coordinator: { sid: string };
let reviewer: { sid: string };
let other: { sid: string };
let listener: Server;
let listenerPort: number;
let listenerHits = 0;
beforeAll(async () => {
  t = await createTestApp();
  const entity = await makeEntity(t.db);
  docnumber = entity.docnumber;
  const otherEntityId = (await makeEntity(t.db)).id;
  const user = (tenant: number, role: keyof typeof ROLES) => makeUser(t.db, tenant, { role, rules: ROLES[role] as never, password: 'Demo12345' });
  const people = [await user(entity.id, 'coordinator'), await user(entity.id, 'reviewer'), await user(otherEntityId, 'otherAdmin')];
  adminEmail = (await user(entity.id, 'admin')).email;
  [coordinator, reviewer, other] = await Promise.all(people.map((u) => login(t, u.email, 'Demo12345')));

  await makeForm(t.db, entity.id, { code: 'rental-application', definition: parseFormDefinition(APPLICATION) });
  for (const [code, name] of TASK_FORMS) await makeForm(t.db, entity.id, { code, definition: parseFormDefinition({ name, fields: [f('notes', 'textarea', 'Notas', 'Notes')] }) });
  // The items the application's selects offer: document types (a public master of the tenant), states and their cities.
  const documentTypes = await makeMaster(t.db, entity.id, { code: 'document_types', name: 'Document types', public: true });
  for (const [code, name] of [['CC', 'Cédula de ciudadanía'], ['CE', 'Cédula de extranjería'], ['PA', 'Pasaporte'], ['SSN', 'Social Security Number']]) {
    await makeMasterItem(t.db, documentTypes, { code, name });
  }
  const master = (code: string) => t.db.selectFrom('masters').where('entity_id', '=', entity.id).where('code', '=', code).selectAll().executeTakeFirstOrThrow();
  const [departamentos, municipios] = [await master('departamentos'), await master('municipios')];
  const states = new Map<string, number>();
  for (const [code, name] of [['05', 'Antioquia'], ['11', 'Bogotá, D.C.'], ['76', 'Valle del Cauca']]) states.set(code, (await makeMasterItem(t.db, departamentos, { code, name })).id);
  for (const [code, name, state] of [['05001', 'Medellín', '05'], ['11001', 'Bogotá, D.C.', '11'], ['76001', 'Cali', '76'], ['76520', 'Palmira', '76']]) {
    await makeMasterItem(t.db, municipios, { code, name, parent_item_id: states.get(state) });
  }

  // Stands for an internal service an attacker would like the server to call.
  listener = createServer((_req, res) => {
    listenerHits++;
    res.setHeader('content-type', 'application/json');
    res.end('{"info":[{"code":"secret","name":"Secret"}]}');
  });
  listenerPort = await new Promise<number>((r) => listener.listen(0, '127.0.0.1', () => r((listener.address() as { port: number }).port)));
});
afterAll(async () => {
  await t.close();
  await new Promise<void>((r) => listener.close(() => r()));
});

type Err = { error: { code: string; message: string; details?: Array<{ path: string; message: string }> } };
const req = (method: string, url: string, who: { sid: string }, payload?: unknown, lang = 'en') =>
  t.request({ method: method as 'GET', url, cookies: { ...who, lang }, payload: payload as string });
const formId = async (code: string) => (await t.db.selectFrom('forms').where('code', '=', code).select('id').executeTakeFirstOrThrow()).id;

const simple = (fields: unknown[]) => ({ name: 'Test form', fields });

describe('form definitions', () => {
  it("lists the tenant's forms", async () => {
    const res = (await req('GET', '/api/forms?sortBy=name', coordinator)).json<{ items: Array<{ code: string; fields: number }>; total: number }>();
    expect(res.items.map((f) => f.code)).toEqual(['document-verification', 'eligibility', 'intake-review', 'landlord-verification', 'payment-approval', 'rental-application']);
    expect(res.items.find((f) => f.code === 'rental-application')?.fields).toBeGreaterThan(25);
  });

  it('refuses a bad definition with each field and reason, in the caller language', async () => {
    const res = await req(
      'POST',
      '/api/forms',
      coordinator,
      {
        code: 'bad',
        definition: simple([
          { name: 'a', type: 'text', label: 'A' },
          { name: 'a', type: 'number', label: 'A again' },
          { name: 'b', type: 'text', label: 'B', visibleWhen: 'a >' },
          { name: 'c', type: 'hologram', label: 'C' },
        ]),
      },
      'es',
    );
    expect(res.statusCode).toBe(422);
    const details = res.json<Err>().error.details ?? [];
    expect(details).toEqual(expect.arrayContaining([{ path: 'fields.3.type', message: 'Tipo de campo desconocido' }]));
    const spanish = await req('POST', '/api/forms', coordinator, { code: 'bad', definition: simple([{ name: 'b', type: 'text', label: 'B', visibleWhen: 'a > 1 && foo(2)' }]) }, 'es');
    expect(spanish.json<Err>().error.details).toEqual([{ path: 'fields.b', message: "La condición en visibleWhen no es válida en la posición 10: Función desconocida 'foo'" }]);
    const ok = await req('POST', '/api/forms', coordinator, {
      code: 'bad',
      definition: simple([{ name: 'a', type: 'text', label: 'A' }, { name: 'a', type: 'number', label: 'A' }, { name: 'b', type: 'text', label: 'B', visibleWhen: 'a >' }]),
    });
    expect(ok.json<Err>().error.details).toEqual([
      { path: 'fields.a', message: 'Another field is already named a' },
      { path: 'fields.b', message: 'The condition in visibleWhen is not valid at position 4: The condition ended too early' },
    ]);
    expect(await t.db.selectFrom('forms').where('code', '=', 'bad').select('id').executeTakeFirst()).toBeUndefined();
  });

  it('saves in place until the version is in use, then makes a new version that leaves the old one as it was', async () => {
    const created = await req('POST', '/api/forms', coordinator, { code: 'versioned', definition: simple([{ name: 'a', type: 'text', label: 'A' }]) });
    expect(created.statusCode).toBe(201);
    const id = created.json<{ id: number }>().id;
    const save = (fields: unknown[]) => req('PUT', `/api/forms/${id}`, coordinator, { definition: simple(fields) });
    expect((await save([{ name: 'a', type: 'text', label: 'A2' }])).json<{ version: number }>().version).toBe(1);
    // A running task now uses version 1.
    await t.db.updateTable('form_versions').set({ in_use: true }).where('form_id', '=', id).execute();
    const v2 = (await save([{ name: 'a', type: 'text', label: 'A3' }, { name: 'b', type: 'number', label: 'B' }])).json<{ version: number; fields: number }>();
    expect(v2).toMatchObject({ version: 2, fields: 2 });
    const v1 = (await req('GET', `/api/forms/${id}?version=1`, coordinator)).json<{ definition: { fields: Array<{ label: string }> } }>();
    expect(v1.definition.fields.map((f) => f.label)).toEqual(['A2']);
    expect((await req('DELETE', `/api/forms/${id}`, coordinator)).json<Err>().error.code).toBe('IN_USE');
  });

  it('refuses a code the tenant uses already, on create and on rename', async () => {
    const taken = await req('POST', '/api/forms', coordinator, { code: 'eligibility', definition: simple([{ name: 'a', type: 'text', label: 'A' }]) });
    expect(taken.statusCode).toBe(409);
    expect(taken.json<Err>().error.code).toBe('DUPLICATE');
    const id = (await req('POST', '/api/forms', coordinator, { code: 'to-rename', definition: simple([{ name: 'a', type: 'text', label: 'A' }]) })).json<{ id: number }>().id;
    const renamed = await req('PUT', `/api/forms/${id}`, coordinator, { code: 'eligibility', definition: simple([{ name: 'a', type: 'text', label: 'A' }]) });
    expect(renamed.statusCode).toBe(409);
    expect(renamed.json<Err>().error.code).toBe('DUPLICATE');
    expect((await req('GET', `/api/forms/${id}`, coordinator)).json<{ code: string }>().code).toBe('to-rename');
  });

  it('is guarded by formularios and scoped to the tenant', async () => {
    const id = await formId('eligibility');
    expect((await req('GET', `/api/forms/${id}`, reviewer)).statusCode).toBe(403);
    expect((await req('GET', `/api/forms/${id}`, other)).statusCode).toBe(404);
    expect((await req('PUT', `/api/forms/${id}`, other, { definition: simple([{ name: 'x', type: 'text', label: 'X' }]) })).statusCode).toBe(404);
  });
});

describe('the server gate', () => {
  it('refuses bad values with the same messages the browser shows, in English and Spanish', async () => {
    const id = await formId('rental-application');
    const values = {
      firstName: '',
      lastName: 'x'.repeat(61),
      documentType: 'NOPE',
      documentNumber: '123',
      email: 'not-an-email',
      phone: '12345',
      departamento: '05',
      municipio: '05001',
      zipCode: '00907',
      householdInformation: [{ memberName: 'Ana', relationship: 'self', age: 130 }],
      payRent: 0,
      working_third_party: true,
    };
    const en = await req('POST', `/api/forms/${id}/check`, coordinator, { values });
    expect(en.statusCode).toBe(400);
    expect(en.json<Err>().error.details).toEqual([
      { path: 'firstName', message: 'This field is required' },
      { path: 'lastName', message: 'Must have at most 60 characters' },
      { path: 'documentType', message: 'You must choose an option' },
      { path: 'email', message: 'Invalid email address' },
      { path: 'phone', message: 'Invalid phone number' },
      { path: 'householdInformation.0.age', message: 'The number must be at most 120' },
      { path: 'payRent', message: 'The number must be at least 1' },
      { path: 'third_party_email', message: 'This field is required' },
    ]);
    const es = await req('POST', `/api/forms/${id}/check`, coordinator, { values }, 'es');
    expect(es.json<Err>().error.details?.map((d) => d.message)).toEqual([
      'Este campo es obligatorio', 'Debe tener como máximo 60 caracteres', 'Debe elegir una opción', 'Correo electrónico no válido',
      'Número de teléfono no válido', 'El número debe ser como máximo 120', 'El número debe ser al menos 1', 'Este campo es obligatorio',
    ]);
  });

  it('accepts good values and returns them cleaned, without hidden or unknown fields', async () => {
    const id = await formId('rental-application');
    const res = await req('POST', `/api/forms/${id}/check`, coordinator, {
      values: {
        firstName: 'Ana', lastName: 'Pérez', documentType: 'CC', documentNumber: '1020304050', email: 'ana@example.org', phone: '300 123 4567',
        departamento: '05', municipio: '05001', zipCode: '05001', householdInformation: [{ memberName: 'Ana', relationship: 'self', age: 34, monthlyIncome: 900 }],
        payRent: 750, housing_assistance: false, income_required_housing_assistance: 99, working_third_party: false, owner_id: 1, statusApplication: 'CLOSED',
      },
    });
    expect(res.statusCode).toBe(200);
    const values = res.json<{ values: Record<string, unknown> }>().values;
    expect(values.phone).toBe('3001234567');
    expect(values).not.toHaveProperty('income_required_housing_assistance');
    expect(values).not.toHaveProperty('owner_id');
    expect(values).not.toHaveProperty('statusApplication');
  });
});

describe('options', () => {
  it('come from the tenant masters', async () => {
    const id = await formId('rental-application');
    const res = await req('GET', `/api/forms/${id}/options/municipio?parent=76`, coordinator);
    expect(res.json()).toEqual({ options: [{ value: '76001', label: 'Cali' }, { value: '76520', label: 'Palmira' }] });
  });

  it('of an external list are fetched only from allowed public hosts, never from loopback or private addresses', async () => {
    const before = listenerHits;
    const urls = [
      `http://127.0.0.1:${listenerPort}/options`,
      `http://localhost:${listenerPort}/options`,
      `http://2130706433:${listenerPort}/options`,
      `http://[::1]:${listenerPort}/options`,
      `http://169.254.169.254/latest/meta-data`,
      `file:///etc/passwd`,
    ];
    for (const [i, url] of urls.entries()) {
      const code = `ext-${i}`;
      const created = await req('POST', '/api/forms', coordinator, { code, definition: simple([{ name: 'pick', type: 'select_multiple_external', label: 'P', external_url: url }]) });
      expect(created.statusCode, url).toBe(201);
      const res = await req('GET', `/api/forms/${created.json<{ id: number }>().id}/options/pick`, coordinator);
      expect(res.statusCode, url).toBe(422);
    }
    // Even an admin listing localhost does not open loopback.
    const admin = await login(t, adminEmail, 'Demo12345');
    expect((await req('POST', '/api/external-hosts', admin, { host: 'localhost' })).statusCode).toBe(400);
    expect(listenerHits).toBe(before);
  });

  it("of the product's own public master URL are answered from the database", async () => {
    const created = await req('POST', '/api/forms', coordinator, {
      code: 'own-master',
      definition: simple([{ name: 'docs', type: 'select_multiple_external', label: 'D', external_url: `http://localhost:3000/api/public/masters/${docnumber}/document_types` }]),
    });
    const res = await req('GET', `/api/forms/${created.json<{ id: number }>().id}/options/docs`, coordinator);
    expect(res.statusCode).toBe(200);
    expect(res.json<{ options: Array<{ value: string }> }>().options.map((o) => o.value).sort()).toEqual(['CC', 'CE', 'PA', 'SSN']);
  });

  it('hosts are allowed once per tenant', async () => {
    const admin = await login(t, adminEmail, 'Demo12345');
    const first = await req('POST', '/api/external-hosts', admin, { host: 'lists.example.org' });
    expect(first.statusCode).toBe(201);
    const again = await req('POST', '/api/external-hosts', admin, { host: 'Lists.Example.org' });
    expect(again.statusCode).toBe(409);
    expect(again.json<Err>().error.code).toBe('DUPLICATE');
    expect((await req('DELETE', `/api/external-hosts/${first.json<{ id: number }>().id}`, admin)).statusCode).toBe(204);
  });

  it('explains a host that is not allowed, in Spanish', async () => {
    const created = await req('POST', '/api/forms', coordinator, { code: 'ext-host', definition: simple([{ name: 'p', type: 'select_multiple_external', label: 'P', external_url: 'https://options.example.org/list' }]) });
    const res = await req('GET', `/api/forms/${created.json<{ id: number }>().id}/options/p`, coordinator, undefined, 'es');
    expect(res.json<Err>().error.details).toEqual([{ path: 'p', message: 'El servidor de la lista de opciones no está permitido: un administrador debe agregarlo' }]);
  });
});
