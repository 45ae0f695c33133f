import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, login, type TestApp } from '../../../tests/support/app.js';
import { makeEntity, makePublishedProtocol, makeTask, makeUser } from '../../../tests/support/factories.js';

/**
 * With DATABASE_URL and no PAYMENTS_KEY, bank details are neither saved nor
 * read: 503 PAYMENTS_KEY_MISSING in the caller's language, nothing written.
 * (Its own file: the key is process-wide, and the other file's app has one.)
 */
let t: TestApp;
let sid: { sid: string };
let caseId: number;
let entityId: number;

beforeAll(async () => {
  t = await createTestApp();
  const entity = await makeEntity(t.db);
  entityId = entity.id;
  const u = await makeUser(t.db, entity.id, { role: 'payments', rules: { pagos: ['show', 'update'], pagos_cuentas: ['show'], wf_casos: ['show'], admin_cases: ['show'] } });
  const applicant = await makeUser(t.db, entity.id);
  const protocol = await makePublishedProtocol(t.db, entity.id);
  caseId = (await makeTask(t.db, entity.id, { ownerId: applicant.id, protocol })).case_id;
  sid = await login(t, u.email, 'Passw0rd1');
});
afterAll(() => t.close());

describe('without a payments key', () => {
  it('refuses to save bank details with 503 PAYMENTS_KEY_MISSING, translated, and writes nothing', async () => {
    const details = { name: 'Lee Landlord', email: null, taxId: '123456789', method: 'ach', routingNumber: '011000015', accountNumber: '123456789', accountType: 'checking' };
    const res = await t.request({ method: 'PUT', url: `/api/cases/${caseId}/payee`, cookies: { ...sid, lang: 'es' }, payload: { kind: 'landlord', details } });
    expect(res.statusCode).toBe(503);
    expect(res.json().error.code).toBe('PAYMENTS_KEY_MISSING');
    expect(res.json().error.message).toContain('PAYMENTS_KEY');
    expect(res.json().error.message).toContain('clave');
    expect(await t.db.selectFrom('payees').where('entity_id', '=', entityId).selectAll().execute()).toEqual([]);
    expect(await t.db.selectFrom('case_events').where('case_id', '=', caseId).where('action', '=', 'payee_saved').selectAll().execute()).toEqual([]);
  });

  it('still takes a check payee without a tax id (nothing to seal)', async () => {
    const details = { name: 'Tina Tenant', email: null, method: 'check', address: { line1: '1 Elm St', city: 'Springfield', state: 'IL', zip: '62701' } };
    const res = await t.request({ method: 'PUT', url: `/api/cases/${caseId}/payee`, cookies: sid, payload: { kind: 'tenant', details } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ method: 'check', accountMasked: null, taxIdMasked: null });
  });
});
