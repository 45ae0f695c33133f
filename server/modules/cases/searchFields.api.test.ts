import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, login, type TestApp } from '../../../tests/support/app.js';
import { makeEntity, makeForm, makeMasterItem, makePublishedProtocol, makeUser } from '../../../tests/support/factories.js';

/** The tenants, their forms, protocols, masters and people are made here with the factories; the demo seed plays no part. */
const ROLES = {
  // Lists cases and works tasks; no protocol or form rights.
  reviewer: { wf_casos: ['show'], wf_tareas: ['show', 'update', 'accept', 'reject'], menutareas: ['show'], historialaplicacion: ['show'] },
  applicant: { wf_casos: ['show', 'create'], borradores: ['show', 'create', 'create_drafts'] },
} as const;

const field = (name: string, type: string, label: string, label_en: string, extra: Record<string, unknown> = {}) => ({ name, type, label, label_en, ...extra });
/** A main form with steps, a repeat group, a file, static text and a master select, as applications have. */
const FORM = {
  name: 'Rental assistance application',
  layout: 'stepper',
  fields: [
    field('application', 'stepper', 'Solicitud', 'Application', {
      children: [
        field('step_applicant', 'step', 'Solicitante', 'Applicant', {
          children: [
            field('firstName', 'text', 'Nombres', 'First name', { required: true }),
            field('lastName', 'text', 'Apellidos', 'Last name', { required: true }),
            field('documentNumber', 'text', 'Número de documento', 'Document number'),
            field('municipio', 'master_select', 'Municipio', 'City', { master: 'municipios' }),
          ],
        }),
        field('step_household', 'step', 'Hogar', 'Household', {
          children: [field('householdInformation', 'repeat', 'Integrantes del hogar', 'Household members', { children: [field('memberName', 'text', 'Nombre', 'Name')] })],
        }),
        field('step_income', 'step', 'Ingresos y renta', 'Income and rent', {
          children: [
            field('payRent', 'currency', 'Renta mensual', 'Monthly rent', { required: true, min: 1 }),
            field('housing_assistance', 'switch', 'Recibe asistencia de vivienda (Sección 8)', 'Receives housing assistance (Section 8)'),
          ],
        }),
        field('step_documents', 'step', 'Tercero y documentos', 'Third party and documents', {
          children: [
            field('third_party_email', 'email', 'Correo del tercero', 'Third party email'),
            field('documents', 'file', 'Documentos', 'Documents', { accept: ['pdf'] }),
            field('declaration', 'static', 'Declaro que la información es verdadera.', 'I declare the information is true.'),
          ],
        }),
      ],
    }),
  ],
};

let t: TestApp;
let entityId: number;
let reviewer: { sid: string };
let other: { sid: string };
/** A tenant with the application protocol published, and its cities. */
async function tenant() {
  const id = (await makeEntity(t.db)).id;
  const protocol = await makePublishedProtocol(t.db, id, { mainForm: await makeForm(t.db, id, { definition: FORM }) });
  await t.db.updateTable('protocols').set({ name: 'Rental assistance' }).where('id', '=', protocol.id).execute();
  const masters = await t.db.selectFrom('masters').where('entity_id', '=', id).where('code', 'in', ['departamentos', 'municipios']).select(['id', 'entity_id', 'code']).execute();
  const master = (code: string) => masters.find((m) => m.code === code) as (typeof masters)[number];
  const valle = await makeMasterItem(t.db, master('departamentos'), { code: '76', name: 'Valle del Cauca' });
  const antioquia = await makeMasterItem(t.db, master('departamentos'), { code: '05', name: 'Antioquia' });
  for (const [code, name, parent] of [['76001', 'Cali', valle], ['76520', 'Palmira', valle], ['05001', 'Medellín', antioquia]] as const) {
    await makeMasterItem(t.db, master('municipios'), { code, name, parent_item_id: parent.id });
  }
  return id;
}
beforeAll(async () => {
  t = await createTestApp();
  entityId = await tenant();
  const otherEntity = await tenant();
  const reviewerUser = await makeUser(t.db, entityId, { role: 'reviewer', rules: ROLES.reviewer as never, password: 'Demo12345' });
  const otherAdmin = await makeUser(t.db, otherEntity, { role: 'super-admin', password: 'Demo12345' });
  [reviewer, other] = await Promise.all([reviewerUser, otherAdmin].map((u) => login(t, u.email, 'Demo12345')));
});
afterAll(() => t.close());

type Fields = { protocols: Array<{ id: number; name: string; fields: Array<{ name: string; type: string; label: string; label_en?: string; options?: Array<{ value: string }> }> }> };

describe('the fields of the advanced search', () => {
  it("lists the main form's value fields to anyone who may list cases, without protocol or form rights", async () => {
    const res = await t.request({ method: 'GET', url: '/api/cases/search-fields', cookies: reviewer });
    expect(res.statusCode).toBe(200);
    const { protocols } = res.json<Fields>();
    expect(protocols.map((p) => p.name)).toEqual(['Rental assistance']);
    const fields = protocols[0].fields;
    expect(fields.find((f) => f.name === 'payRent')).toEqual({ name: 'payRent', type: 'currency', label: 'Renta mensual', label_en: 'Monthly rent' });
    // Inside steps, yes; groups, files and static text, no.
    expect(fields.map((f) => f.name)).toEqual(expect.arrayContaining(['firstName', 'lastName', 'documentNumber', 'housing_assistance', 'third_party_email']));
    for (const name of ['application', 'step_applicant', 'householdInformation', 'documents', 'declaration']) expect(fields.map((f) => f.name)).not.toContain(name);
    // Protocol and form screens stay closed to the reviewer.
    expect((await t.request({ method: 'GET', url: '/api/protocols', cookies: reviewer })).statusCode).toBe(403);
  });

  it("offers a master select's items (code and name) as its choices, the tenant's active ones only", async () => {
    const fields = (await t.request({ method: 'GET', url: '/api/cases/search-fields', cookies: reviewer })).json<Fields>().protocols[0].fields;
    const city = fields.find((f) => f.name === 'municipio') as { options?: Array<{ value: string; label: string }> };
    expect(city.options).toEqual(expect.arrayContaining([{ value: '76001', label: 'Cali' }]));
    const active = await t.db
      .selectFrom('master_items as i')
      .innerJoin('masters as m', 'm.id', 'i.master_id')
      .where('m.entity_id', '=', entityId)
      .where('m.code', '=', 'municipios')
      .where('i.active', '=', true)
      .select('i.code')
      .execute();
    expect(city.options?.map((o) => o.value).sort()).toEqual(active.map((r) => r.code).sort());
    // A deactivated item is no longer offered.
    await t.db.updateTable('master_items').set({ active: false }).where('entity_id', '=', entityId).where('code', '=', '76001').execute();
    try {
      const again = (await t.request({ method: 'GET', url: '/api/cases/search-fields', cookies: reviewer })).json<Fields>().protocols[0].fields;
      expect(again.find((f) => f.name === 'municipio')?.options?.map((o) => o.value)).not.toContain('76001');
    } finally {
      await t.db.updateTable('master_items').set({ active: true }).where('entity_id', '=', entityId).where('code', '=', '76001').execute();
    }
  });

  it('answers case administration on its own target', async () => {
    const admin = await login(t, (await makeUser(t.db, entityId, { role: 'super-admin', password: 'Demo12345' })).email);
    const res = await t.request({ method: 'GET', url: '/api/admin-cases/search-fields', cookies: admin });
    expect(res.statusCode).toBe(200);
    expect(res.json<Fields>().protocols.map((p) => p.name)).toEqual(['Rental assistance']);
    const applicant = await login(t, (await makeUser(t.db, entityId, { role: 'applicant', rules: ROLES.applicant as never, password: 'Demo12345' })).email);
    expect((await t.request({ method: 'GET', url: '/api/admin-cases/search-fields', cookies: applicant })).statusCode).toBe(403);
  });

  it("keeps each tenant's forms apart", async () => {
    const mine = (await t.request({ method: 'GET', url: '/api/cases/search-fields', cookies: reviewer })).json<Fields>().protocols.map((p) => p.id);
    const theirs = (await t.request({ method: 'GET', url: '/api/cases/search-fields', cookies: other })).json<Fields>().protocols.map((p) => p.id);
    expect(mine.length).toBeGreaterThan(0);
    expect(theirs.filter((id) => mine.includes(id))).toEqual([]);
  });
});
