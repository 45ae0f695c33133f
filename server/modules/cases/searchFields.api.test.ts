import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, login, type TestApp } from '../../../tests/support/app.js';

let t: TestApp;
let reviewer: { sid: string };
let other: { sid: string };
beforeAll(async () => {
  t = await createTestApp({ demo: true, workflow: true });
  [reviewer, other] = await Promise.all(['reviewer@demo.test', 'admin@other.test'].map((e) => login(t, e)));
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
    const entityId = (await t.db.selectFrom('users').where('email', '=', 'reviewer@demo.test').select('entity_id').executeTakeFirstOrThrow()).entity_id;
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
    await t.db.updateTable('master_items').set({ active: false }).where('code', '=', '76001').execute();
    try {
      const again = (await t.request({ method: 'GET', url: '/api/cases/search-fields', cookies: reviewer })).json<Fields>().protocols[0].fields;
      expect(again.find((f) => f.name === 'municipio')?.options?.map((o) => o.value)).not.toContain('76001');
    } finally {
      await t.db.updateTable('master_items').set({ active: true }).where('code', '=', '76001').execute();
    }
  });

  it('answers case administration on its own target', async () => {
    const admin = await login(t, 'admin@demo.test');
    const res = await t.request({ method: 'GET', url: '/api/admin-cases/search-fields', cookies: admin });
    expect(res.statusCode).toBe(200);
    expect(res.json<Fields>().protocols.map((p) => p.name)).toEqual(['Rental assistance']);
    const applicant = await login(t, 'applicant@demo.test');
    expect((await t.request({ method: 'GET', url: '/api/admin-cases/search-fields', cookies: applicant })).statusCode).toBe(403);
  });

  it("keeps each tenant's forms apart", async () => {
    const mine = (await t.request({ method: 'GET', url: '/api/cases/search-fields', cookies: reviewer })).json<Fields>().protocols.map((p) => p.id);
    const theirs = (await t.request({ method: 'GET', url: '/api/cases/search-fields', cookies: other })).json<Fields>().protocols.map((p) => p.id);
    expect(mine.length).toBeGreaterThan(0);
    expect(theirs.filter((id) => mine.includes(id))).toEqual([]);
  });
});
