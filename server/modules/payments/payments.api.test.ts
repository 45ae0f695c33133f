import { randomBytes } from 'node:crypto';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, login, type TestApp } from '../../../tests/support/app.js';
import { makeEntity, makePublishedProtocol, makeTask, makeUser } from '../../../tests/support/factories.js';
import { poolOf } from '../../db/pool.js';

/**
 * Awards and payments (issue 23), end to end through the API: a protocol
 * whose approval task sets the award within caps; the overlap check between
 * two cases of one unit; a batch built, its NACHA file exported (twice, the
 * same bytes) and read back with the right totals; marked paid once; the
 * yearly payee report and its Excel file. And the bad input of the issue:
 * a routing number failing its checksum, an award over a cap, a batch paid
 * twice, another tenant's records by id, full bank details without
 * `pagos_cuentas`.
 */
let t: TestApp;
let entityId: number;
let officer: { sid: string };
let coordinator: { sid: string };
let coordinatorId: number;
let clerk: { sid: string };
let outsider: { sid: string };
let protocol: Awaited<ReturnType<typeof makePublishedProtocol>>;
let applicantId: number;

const CAPS = { maxArrearsMonths: 6, maxAheadMonths: 3, maxMonthlyRent: 2000_00, maxUtilities: 500_00, maxTotal: 10_000_00 };
const LANDLORD = {
  name: 'Lee Landlord', email: 'lee@example.test', taxId: '12-3456789', method: 'ach' as const, routingNumber: '011000015', accountNumber: '000123456789', accountType: 'checking',
};
const PAYEE_RULES = { pagos: ['show', 'create', 'update', 'export'], pagos_cuentas: ['show'], reporte_beneficiarios: ['show', 'export'], wf_casos: ['show'], admin_cases: ['show'] } as const;

beforeAll(async () => {
  t = await createTestApp({ env: { PAYMENTS_KEY: randomBytes(32).toString('base64') } });
  const entity = await makeEntity(t.db);
  entityId = entity.id;
  const o = await makeUser(t.db, entityId, { role: 'officer', rules: { wf_casos: ['show'], wf_tareas: ['show', 'update', 'accept'] } });
  const c = await makeUser(t.db, entityId, { role: 'payments', rules: { ...PAYEE_RULES, pagos: [...PAYEE_RULES.pagos], pagos_cuentas: ['show'], reporte_beneficiarios: ['show', 'export'], wf_casos: ['show'], admin_cases: ['show'] } });
  const k = await makeUser(t.db, entityId, { role: 'payments-clerk', rules: { pagos: ['show', 'create', 'update', 'export'], wf_casos: ['show'], admin_cases: ['show'] } });
  const applicant = await makeUser(t.db, entityId, { role: 'applicant', rules: {} });
  applicantId = applicant.id;
  coordinatorId = c.id;
  const other = await makeEntity(t.db);
  const x = await makeUser(t.db, other.id, { role: 'payments', rules: { pagos: ['show', 'create', 'update', 'export'], pagos_cuentas: ['show'], reporte_beneficiarios: ['show', 'export'], wf_casos: ['show'], admin_cases: ['show'], wf_tareas: ['show', 'accept'] } });
  officer = await login(t, o.email, 'Passw0rd1');
  coordinator = await login(t, c.email, 'Passw0rd1');
  clerk = await login(t, k.email, 'Passw0rd1');
  outsider = await login(t, x.email, 'Passw0rd1');
  protocol = await makePublishedProtocol(t.db, entityId, {
    start: ['approve'],
    tasks: [
      { code: 'approve', name: 'Approve the award', responsible: { kind: 'user', userId: o.id }, award: true, onAccept: [{ to: 'pay' }] },
      { code: 'pay', name: 'Pay', responsible: { kind: 'user', userId: o.id } },
    ],
  });
  // The factory publishes start and tasks; the caps are the protocol's too.
  const v = await t.db.selectFrom('protocol_versions').where('id', '=', protocol.versionId).select('definition').executeTakeFirstOrThrow();
  const parties = [{ role: 'landlord', formId: null, attestation: { en: '', es: '' }, deadlineDays: 14, remindEveryDays: 3, payTenantAfterDeadline: true }];
  await t.db.updateTable('protocol_versions').set({ definition: JSON.stringify({ ...(v.definition as object), awardCaps: CAPS, parties }) }).where('id', '=', protocol.versionId).execute();
});
afterAll(() => t.close());

const newCase = async () => {
  const task = await makeTask(t.db, entityId, { ownerId: applicantId, protocol });
  return { caseId: task.case_id, taskId: task.id };
};
const award = (over: Record<string, unknown> = {}) => ({
  arrearsMonths: ['2026-01', '2026-02', '2026-03'], aheadMonths: 0, monthlyRent: 1200_00, utilities: 100_00, payeeKind: 'landlord', propertyAddress: '12 Main Street', unit: 'Apt 3', ...over,
});
const accept = (taskId: number, body: object) => t.request({ method: 'POST', url: `/api/tasks/${taskId}/accept`, cookies: officer, payload: body });
const events = (caseId: number, action: string) => t.db.selectFrom('case_events').where('case_id', '=', caseId).where('action', '=', action).selectAll().execute();

/** An independent reading of a NACHA file (not the module's): 94-character records, entries (6) and the file control (9). */
function readAch(text: string) {
  const lines = text.split('\r\n').filter(Boolean);
  expect(lines.every((l) => l.length === 94)).toBe(true);
  expect(lines.length % 10).toBe(0);
  const entries = lines.filter((l) => l[0] === '6').map((l) => ({ code: l.slice(1, 3), routing: l.slice(3, 12), account: l.slice(12, 29).trim(), cents: Number(l.slice(29, 39)), name: l.slice(54, 76).trim() }));
  const control = lines.find((l) => l[0] === '9' && !/^9+$/.test(l)) as string;
  return { entries, header: lines[0], batchHeader: lines.find((l) => l[0] === '5') as string, entryCount: Number(control.slice(13, 21)), totalDebit: Number(control.slice(31, 43)), totalCredit: Number(control.slice(43, 55)) };
}

describe('awards and payments, end to end', () => {
  let first: { caseId: number; taskId: number };
  let payeeId: number;
  let batch: { id: number; version: number; number: number };

  it("keeps a case's landlord with the account and tax id sealed; a routing number failing its checksum is 400 naming the field", async () => {
    first = await newCase();
    const bad = await t.request({ method: 'PUT', url: `/api/cases/${first.caseId}/payee`, cookies: coordinator, payload: { kind: 'landlord', details: { ...LANDLORD, routingNumber: '011000016' } } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('VALIDATION');
    expect(JSON.stringify(bad.json().error.details)).toContain('details.routingNumber');
    expect(await t.db.selectFrom('payees').where('entity_id', '=', entityId).selectAll().execute()).toHaveLength(0);

    const res = await t.request({ method: 'PUT', url: `/api/cases/${first.caseId}/payee`, cookies: coordinator, payload: { kind: 'landlord', details: LANDLORD } });
    expect(res.statusCode, res.body).toBe(200);
    const payee = res.json();
    payeeId = payee.id;
    expect(payee).toMatchObject({ name: 'Lee Landlord', method: 'ach', accountMasked: '••••6789', taxIdMasked: '••••6789', routingNumber: '011000015' });
    expect(res.body).not.toContain('000123456789');
    const row = await t.db.selectFrom('payees').where('id', '=', payeeId).selectAll().executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain('123456789');
    expect(row.key_id).toMatch(/^[0-9a-f]{8}$/);
    expect(await events(first.caseId, 'payee_saved')).toHaveLength(1);
    const list = await t.request({ method: 'GET', url: '/api/payees', cookies: clerk });
    expect(list.json().items.map((p: { id: number }) => p.id)).toEqual([payeeId]);
    expect(list.body).not.toContain('000123456789');
  });

  it('full bank details need pagos_cuentas (403), and every read is written in the case history', async () => {
    const refused = await t.request({ method: 'GET', url: `/api/payees/${payeeId}/bank-details`, cookies: clerk });
    expect(refused.statusCode).toBe(403);
    expect(await events(first.caseId, 'bank_details_read')).toHaveLength(0);
    const res = await t.request({ method: 'GET', url: `/api/payees/${payeeId}/bank-details`, cookies: coordinator });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ accountNumber: '000123456789', taxId: '123456789', routingNumber: '011000015', accountType: 'checking' });
    const read = await events(first.caseId, 'bank_details_read');
    expect(read).toHaveLength(1);
    expect(read[0].user_id).toBe(coordinatorId);
  });

  it('refuses an award over a cap with 422 naming it: the task stays open and nothing is written', async () => {
    // The task page knows this task sets the award (it shows the award panel).
    const shown = await t.request({ method: 'GET', url: `/api/tasks/${first.taskId}`, cookies: officer });
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.json().award).toBe(true);
    const over = await accept(first.taskId, { award: award({ arrearsMonths: ['2025-10', '2025-11', '2025-12', '2026-01', '2026-02', '2026-03'], aheadMonths: 3, monthlyRent: 1500_00 }) });
    expect(over.statusCode).toBe(422);
    expect(over.json().error.code).toBe('AWARD_OVER_CAP');
    expect(over.json().error.message).toContain('total');
    const missing = await accept(first.taskId, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.code).toBe('AWARD_REQUIRED');
    const task = await t.db.selectFrom('tasks').where('id', '=', first.taskId).select(['state', 'version']).executeTakeFirstOrThrow();
    expect(task.state).toBe('PENDING');
    expect(await t.db.selectFrom('awards').where('case_id', '=', first.caseId).selectAll().execute()).toHaveLength(0);
    expect(await events(first.caseId, 'award_set')).toHaveLength(0);
    expect(await events(first.caseId, 'task_accepted')).toHaveLength(0);
  });

  it('sets the award on accept: the total computed by the server, in the history, read through the case', async () => {
    const res = await accept(first.taskId, { award: award({ unit: '#3', propertyAddress: '12 Main St.' }) });
    expect(res.statusCode, res.body).toBe(200);
    const read = await t.request({ method: 'GET', url: `/api/cases/${first.caseId}/award`, cookies: officer });
    expect(read.statusCode).toBe(200);
    const body = read.json();
    expect(body.award).toMatchObject({ total: 3 * 1200_00 + 100_00, state: 'approved', payeeId, payeeName: 'Lee Landlord', months: ['2026-01', '2026-02', '2026-03'] });
    expect(body.caps).toMatchObject(CAPS);
    expect(body.defaultPayeeKind).toBe('landlord');
    expect(await events(first.caseId, 'award_set')).toHaveLength(1);
    // Another tenant's reader: the case is not theirs.
    expect((await t.request({ method: 'GET', url: `/api/cases/${first.caseId}/award`, cookies: outsider })).statusCode).toBe(404);
  });

  it('flags a second case of the same unit for overlapping months (and the same landlord and tenant)', async () => {
    const second = await newCase();
    const res = await t.request({ method: 'GET', url: `/api/cases/${second.caseId}/award/overlaps?months=2026-03,2026-04&address=${encodeURIComponent('12 main street')}&unit=${encodeURIComponent('apt. 3')}`, cookies: officer });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().items).toEqual([expect.objectContaining({ caseId: first.caseId, months: ['2026-03'], reasons: expect.arrayContaining(['same_unit']) })]);
    // Other months: nothing to flag.
    const apart = await t.request({ method: 'GET', url: `/api/cases/${second.caseId}/award/overlaps?months=2026-05&address=12%20Main%20St&unit=3`, cookies: officer });
    expect(apart.json().items).toEqual([]);
    // The same landlord for the same tenant (the same applicant here), another address.
    const landlord = await t.request({ method: 'GET', url: `/api/cases/${second.caseId}/award/overlaps?months=2026-01&address=${encodeURIComponent('99 Elm Ave')}&payeeId=${payeeId}`, cookies: officer });
    expect(landlord.json().items).toEqual([expect.objectContaining({ caseId: first.caseId, reasons: ['same_landlord_and_tenant'] })]);
  });

  it('builds a batch of the approved awards; without ACH settings the export is 422 and nothing changes', async () => {
    const res = await t.request({ method: 'POST', url: '/api/payment-batches', cookies: coordinator, payload: { payDate: '2026-03-10' } });
    expect(res.statusCode, res.body).toBe(201);
    const b = res.json();
    expect(b).toMatchObject({ state: 'open', total: 3700_00, paymentCount: 1, achCount: 1, checkCount: 0 });
    expect(b.payees).toEqual([expect.objectContaining({ payeeId, total: 3700_00, payments: [expect.objectContaining({ caseId: first.caseId, amount: 3700_00, accountMasked: '••••6789' })] })]);
    batch = b;
    // Nothing left to batch.
    const empty = await t.request({ method: 'POST', url: '/api/payment-batches', cookies: coordinator, payload: { payDate: '2026-03-10' } });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().error.code).toBe('BATCH_EMPTY');

    const refused = await t.request({ method: 'GET', url: `/api/payment-batches/${batch.id}/nacha`, cookies: coordinator });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.code).toBe('ACH_SETTINGS_MISSING');
    expect((await t.request({ method: 'GET', url: `/api/payment-batches/${batch.id}`, cookies: coordinator })).json().state).toBe('open');
    const settings = await t.request({
      method: 'PUT', url: '/api/payments/ach-settings', cookies: coordinator,
      payload: { originatorName: 'Demo Housing', companyId: '1123456789', odfiRouting: '081000032', immediateDestination: '081000032', immediateDestinationName: 'Federal Reserve Bank', immediateOrigin: '123456789', immediateOriginName: 'Demo Housing Agency' },
    });
    expect(settings.statusCode, settings.body).toBe(200);
  });

  it('exports the NACHA file once: read back with the right entries and total, the second export the same bytes', async () => {
    const res = await t.request({ method: 'GET', url: `/api/payment-batches/${batch.id}/nacha`, cookies: coordinator });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toContain('nacha');
    const ach = readAch(res.body);
    expect(ach.entryCount).toBe(1);
    expect(ach.totalCredit).toBe(3700_00);
    expect(ach.totalDebit).toBe(0);
    expect(ach.entries).toEqual([{ code: '22', routing: '011000015', account: '000123456789', cents: 3700_00, name: 'LEE LANDLORD' }]);
    expect(ach.batchHeader.slice(50, 53)).toBe('PPD');
    const again = await t.request({ method: 'GET', url: `/api/payment-batches/${batch.id}/nacha`, cookies: coordinator });
    expect(again.rawPayload.equals(res.rawPayload)).toBe(true);
    // No check payees: no register.
    expect((await t.request({ method: 'GET', url: `/api/payment-batches/${batch.id}/checks`, cookies: coordinator })).json().error.code).toBe('BATCH_NO_FILE');
  });

  it("another tenant's payee, batch and award are 404 by id", async () => {
    for (const url of [`/api/payees/${payeeId}`, `/api/payees/${payeeId}/bank-details`, `/api/payment-batches/${batch.id}`, `/api/payment-batches/${batch.id}/nacha`, `/api/cases/${first.caseId}/award/overlaps`]) {
      expect((await t.request({ method: 'GET', url, cookies: outsider })).statusCode, url).toBe(404);
    }
    const b = (await t.request({ method: 'GET', url: `/api/payment-batches/${batch.id}`, cookies: coordinator })).json();
    const paid = await t.request({ method: 'POST', url: `/api/payment-batches/${batch.id}/paid`, cookies: outsider, payload: { version: b.version } });
    expect(paid.statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: '/api/payees', cookies: outsider })).json().items).toEqual([]);
  });

  it('marks the batch paid once: every case told, the payee mailed; a second mark is 409 and changes nothing', async () => {
    const b = (await t.request({ method: 'GET', url: `/api/payment-batches/${batch.id}`, cookies: coordinator })).json();
    expect(b.state).toBe('exported');
    expect(b.actions).toContain('markPaid');
    const stale = await t.request({ method: 'POST', url: `/api/payment-batches/${batch.id}/paid`, cookies: coordinator, payload: { version: b.version + 5 } });
    expect(stale.statusCode).toBe(409);
    const res = await t.request({ method: 'POST', url: `/api/payment-batches/${batch.id}/paid`, cookies: coordinator, payload: { version: b.version } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().state).toBe('paid');
    const a = await t.db.selectFrom('awards').where('case_id', '=', first.caseId).where('state', '<>', 'cancelled').selectAll().executeTakeFirstOrThrow();
    expect(a.state).toBe('paid');
    expect(await events(first.caseId, 'payment_made')).toHaveLength(1);
    const mail = await t.db.selectFrom('mail_outbox').where('entity_id', '=', entityId).where('to_address', '=', 'lee@example.test').selectAll().execute();
    expect(mail).toHaveLength(1);
    expect(mail[0].subject).toContain('3,700');

    const before = await t.db.selectFrom('payment_batches').where('id', '=', batch.id).selectAll().executeTakeFirstOrThrow();
    const twice = await t.request({ method: 'POST', url: `/api/payment-batches/${batch.id}/paid`, cookies: coordinator, payload: { version: before.version } });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.code).toBe('BATCH_ALREADY_PAID');
    const after = await t.db.selectFrom('payment_batches').where('id', '=', batch.id).selectAll().executeTakeFirstOrThrow();
    expect(after).toEqual(before);
    expect(await events(first.caseId, 'payment_made')).toHaveLength(1);
    expect(await t.db.selectFrom('mail_outbox').where('to_address', '=', 'lee@example.test').selectAll().execute()).toHaveLength(1);
    // The file is still the same after payment.
    const file = await t.request({ method: 'GET', url: `/api/payment-batches/${batch.id}/nacha`, cookies: coordinator });
    expect(file.rawPayload.equals(Buffer.from(before.nacha_file as Buffer))).toBe(true);
  });

  it('never pays an award twice: the database refuses a second payment of it', async () => {
    const p = await t.db.selectFrom('payments').where('entity_id', '=', entityId).selectAll().executeTakeFirstOrThrow();
    await expect(
      t.db.insertInto('payments').values({ entity_id: entityId, batch_id: p.batch_id, award_id: p.award_id, payee_id: p.payee_id, case_id: p.case_id, amount: p.amount, method: p.method }).execute(),
    ).rejects.toThrow(/payments_award_key/);
  });

  it('lists the payee in the yearly report over the threshold, and exports it to Excel in the reader language', async () => {
    const year = new Date().getUTCFullYear();
    const res = await t.request({ method: 'GET', url: `/api/reports/payees?year=${year}`, cookies: coordinator });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().items).toEqual([{ payeeId, name: 'Lee Landlord', kind: 'landlord', taxIdMasked: '••••6789', payments: 1, total: 3700_00, overThreshold: true }]);
    expect((await t.request({ method: 'GET', url: `/api/reports/payees?year=${year - 1}`, cookies: coordinator })).json().items).toEqual([]);
    expect((await t.request({ method: 'GET', url: `/api/reports/payees?year=${year}`, cookies: clerk })).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: `/api/reports/payees?year=${year}`, cookies: outsider })).json().items).toEqual([]);

    for (const [lang, header] of [['en', 'Payee'], ['es', 'Beneficiario']] as const) {
      const file = await t.request({ method: 'GET', url: `/api/reports/payees/export?year=${year}`, cookies: { ...coordinator, lang } });
      expect(file.statusCode).toBe(200);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
      const sheet = book.worksheets[0];
      expect(sheet.getRow(1).getCell(1).value).toBe(header);
      expect(sheet.getRow(2).getCell(1).value).toBe('Lee Landlord');
      expect(sheet.getRow(2).getCell(5).value).toBe(3700);
    }
  });

  it('keeps a second decision after a restart and the history of both; an award in a paid batch is not replaced', async () => {
    const next = await newCase();
    expect((await accept(next.taskId, { award: award({ propertyAddress: '40 Oak Road', unit: null }) })).statusCode).toBe(200);
    const restart = await t.db.updateTable('tasks').set({ state: 'PENDING', decided_at: null }).where('id', '=', next.taskId).returning('version').executeTakeFirstOrThrow();
    expect(restart.version).toBeGreaterThan(0);
    const again = await accept(next.taskId, { award: award({ propertyAddress: '40 Oak Road', unit: null, utilities: 0 }) });
    expect(again.statusCode, again.body).toBe(200);
    const read = (await t.request({ method: 'GET', url: `/api/cases/${next.caseId}/award`, cookies: officer })).json();
    expect(read.award.total).toBe(3600_00);
    expect(read.previous).toEqual([expect.objectContaining({ total: 3700_00, state: 'cancelled' })]);
    expect(await events(next.caseId, 'award_set')).toHaveLength(2);
  });
});

describe('checks, one tax id across payee records, and a payee on no case', () => {
  it('pays a tenant by check through the register (cells guarded against formulas) and totals one tax id once in the report', async () => {
    const landlordCase = await newCase();
    const tenantCase = await newCase();
    const saved = await t.request({ method: 'PUT', url: `/api/cases/${landlordCase.caseId}/payee`, cookies: coordinator, payload: { kind: 'landlord', details: { ...LANDLORD, name: 'Lee Landlord LLC', accountNumber: '55554444' } } });
    expect(saved.statusCode, saved.body).toBe(200);
    const tenant = await t.request({
      method: 'PUT', url: `/api/cases/${tenantCase.caseId}/payee`, cookies: coordinator,
      payload: { kind: 'tenant', details: { name: '=HYPERLINK("http://x")', email: null, method: 'check', address: { line1: '7 Pine St', city: 'Springfield', state: 'IL', zip: '62701' } } },
    });
    expect(tenant.statusCode, tenant.body).toBe(200);
    expect((await accept(landlordCase.taskId, { award: award({ propertyAddress: '5 Birch Ln', arrearsMonths: ['2026-02'] }) })).statusCode).toBe(200);
    expect((await accept(tenantCase.taskId, { award: award({ propertyAddress: '7 Pine St', arrearsMonths: ['2026-02'], payeeKind: 'tenant', utilities: 0 }) })).statusCode).toBe(200);

    // Checks only: the landlord's direct deposit waits for another batch.
    const checks = await t.request({ method: 'POST', url: '/api/payment-batches', cookies: coordinator, payload: { payDate: '2026-03-20', method: 'check' } });
    expect(checks.statusCode, checks.body).toBe(201);
    expect(checks.json()).toMatchObject({ paymentCount: 1, checkCount: 1, achCount: 0, total: 1200_00 });
    const register = await t.request({ method: 'GET', url: `/api/payment-batches/${checks.json().id}/checks`, cookies: coordinator });
    expect(register.statusCode).toBe(200);
    expect(register.body).toContain(`'=HYPERLINK`);
    expect(register.body).toContain('7 Pine St');
    expect(register.body).toContain('1200.00');
    expect((await t.request({ method: 'GET', url: `/api/payment-batches/${checks.json().id}/nacha`, cookies: coordinator })).statusCode).toBe(404);
    const v1 = (await t.request({ method: 'GET', url: `/api/payment-batches/${checks.json().id}`, cookies: coordinator })).json().version;
    expect((await t.request({ method: 'POST', url: `/api/payment-batches/${checks.json().id}/paid`, cookies: coordinator, payload: { version: v1 } })).statusCode).toBe(200);

    const ach = await t.request({ method: 'POST', url: '/api/payment-batches', cookies: coordinator, payload: { payDate: '2026-03-20' } });
    expect(ach.statusCode, ach.body).toBe(201);
    expect(ach.json()).toMatchObject({ paymentCount: 1, achCount: 1, total: 1300_00 });
    // Marking paid before the export is refused.
    expect((await t.request({ method: 'POST', url: `/api/payment-batches/${ach.json().id}/paid`, cookies: coordinator, payload: { version: ach.json().version } })).json().error.code).toBe('BATCH_NOT_EXPORTED');
    expect((await t.request({ method: 'GET', url: `/api/payment-batches/${ach.json().id}/nacha`, cookies: coordinator })).statusCode).toBe(200);
    const v2 = (await t.request({ method: 'GET', url: `/api/payment-batches/${ach.json().id}`, cookies: coordinator })).json().version;
    expect((await t.request({ method: 'POST', url: `/api/payment-batches/${ach.json().id}/paid`, cookies: coordinator, payload: { version: v2 } })).statusCode).toBe(200);

    const year = new Date().getUTCFullYear();
    const items = (await t.request({ method: 'GET', url: `/api/reports/payees?year=${year}`, cookies: coordinator })).json().items;
    // Lee's two payee records share a tax id: one row, under the latest name.
    expect(items).toEqual([
      expect.objectContaining({ name: 'Lee Landlord LLC', payments: 2, total: 3700_00 + 1300_00, overThreshold: true, taxIdMasked: '••••6789' }),
      expect.objectContaining({ name: '=HYPERLINK("http://x")', kind: 'tenant', payments: 1, total: 1200_00, overThreshold: true, taxIdMasked: null }),
    ]);
    const csv = await t.request({ method: 'GET', url: `/api/reports/payees/export?year=${year}&format=csv`, cookies: coordinator });
    expect(csv.body).toContain(`'=HYPERLINK`);
  });

  it('shows a landlord of several tenants once in a batch: their payee records of each case share the tax id and account', async () => {
    const cases = [await newCase(), await newCase(), await newCase()];
    for (const [i, c] of cases.entries()) {
      // The third is another landlord of the same name (another tax id): a payee of their own.
      const details = i < 2 ? { ...LANDLORD, name: 'Harbor View Apartments', taxId: '45-6543210', accountNumber: '77778888' } : { ...LANDLORD, name: 'Harbor View Apartments', taxId: '45-0000001', accountNumber: '99990000' };
      expect((await t.request({ method: 'PUT', url: `/api/cases/${c.caseId}/payee`, cookies: coordinator, payload: { kind: 'landlord', details } })).statusCode).toBe(200);
      expect((await accept(c.taskId, { award: award({ propertyAddress: `${20 + i} Harbor St`, arrearsMonths: ['2026-04'], utilities: 0 }) })).statusCode).toBe(200);
    }
    // Colleagues' pages hear of it: the batch and the awards it took, ids only (realtime kind `payment`).
    const listener = new pg.Client({ connectionString: poolOf(t.db).options.connectionString });
    await listener.connect();
    const heard: Array<{ k: string; e: number; ids: number[]; c: number[] }> = [];
    listener.on('notification', (m) => m.payload && heard.push(JSON.parse(m.payload)));
    await listener.query('LISTEN casebook_rt');
    const made = await t.request({ method: 'POST', url: '/api/payment-batches', cookies: coordinator, payload: { payDate: '2026-05-01' } });
    expect(made.statusCode, made.body).toBe(201);
    const payment = () => heard.filter((n) => n.k === 'payment');
    await expect.poll(() => payment().some((n) => n.ids.includes(made.json().id))).toBe(true);
    const heardCases = () => new Set(payment().flatMap((n) => n.c));
    await expect.poll(() => cases.every((c) => heardCases().has(c.caseId))).toBe(true);
    await listener.end();
    expect(payment().every((n) => n.e === entityId && Object.keys(n).every((k) => ['k', 'e', 'ids', 'c', 'u', 'many'].includes(k)))).toBe(true);
    const detail = (await t.request({ method: 'GET', url: `/api/payment-batches/${made.json().id}`, cookies: coordinator })).json();
    const harbor = detail.payees.filter((p: { name: string }) => p.name === 'Harbor View Apartments');
    expect(harbor.map((p: { total: number; payments: Array<{ caseId: number }> }) => [p.total, p.payments.map((x) => x.caseId)])).toEqual(
      expect.arrayContaining([
        [2 * 1200_00, [cases[0].caseId, cases[1].caseId]],
        [1200_00, [cases[2].caseId]],
      ]),
    );
    expect(harbor).toHaveLength(2);
    // Each payment stays its own entry in the file (one per case).
    expect(made.json()).toMatchObject({ paymentCount: 3, achCount: 3 });
  });

  it("records a payee of no case (the parties' entry point) in the payee's own history, reads included", async () => {
    const { savePayeeDetails } = await import('./commands.js');
    const system = { system: true as const, entityId };
    const id = await t.db.transaction().execute((trx) =>
      savePayeeDetails(trx, system, { ...LANDLORD, taxId: '987654321', email: null, address: null, accountType: 'savings', entityId, kind: 'other', caseId: null, partyId: null, userId: null }),
    );
    expect((await t.request({ method: 'GET', url: `/api/payees/${id}/bank-details`, cookies: coordinator })).json().taxId).toBe('987654321');
    const history = await t.request({ method: 'GET', url: `/api/payees/${id}/events`, cookies: coordinator });
    expect(history.json().items.map((e: { action: string }) => e.action)).toEqual(['payee_saved', 'bank_details_read']);
    expect(history.json().items[1].user.id).toBe(coordinatorId);
    // Another tenant's doer cannot write into this one.
    await expect(t.db.transaction().execute((trx) => savePayeeDetails(trx, { system: true, entityId: entityId + 1000 }, { ...LANDLORD, email: null, taxId: null, address: null, accountType: 'checking', entityId, kind: 'other', caseId: null, partyId: null, userId: null, payeeId: id }))).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it("pays the tenant unless told once the landlord's deadline passed without their side (payTenantAfterDeadline)", async () => {
    const late = await newCase();
    await t.db.insertInto('case_parties').values({ entity_id: entityId, case_id: late.caseId, role: 'landlord', name: 'Late Landlord', email: 'late@example.test', state: 'invited', deadline_at: new Date(Date.now() - 86_400_000) }).execute();
    const read = (await t.request({ method: 'GET', url: `/api/cases/${late.caseId}/award`, cookies: officer })).json();
    expect(read).toMatchObject({ award: null, defaultPayeeKind: 'tenant' });
    const { payeeKind: _, ...withoutKind } = award({ propertyAddress: '8 Late Rd' });
    expect((await accept(late.taskId, { award: withoutKind })).statusCode).toBe(200);
    expect((await t.db.selectFrom('awards').where('case_id', '=', late.caseId).select('payee_kind').executeTakeFirstOrThrow()).payee_kind).toBe('tenant');
  });
});

describe("the tenant's calendar", () => {
  it("reads a batch's day and the report's year in the tenant's time zone (Bogotá), not UTC", async () => {
    const zone = await t.db.selectFrom('projects').where('entity_id', '=', entityId).select('time_zone').execute();
    expect(zone.map((z) => z.time_zone)).toContain('America/Bogota');

    // Approved at 23:30 in Bogotá on 9 March (04:30 UTC on the 10th): a batch of what was approved up to the 9th takes it.
    const late = await newCase();
    await t.request({ method: 'PUT', url: `/api/cases/${late.caseId}/payee`, cookies: coordinator, payload: { kind: 'landlord', details: { ...LANDLORD, accountNumber: '31313131' } } });
    expect((await accept(late.taskId, { award: award({ propertyAddress: '9 Night Owl Rd', arrearsMonths: ['2031-02'], utilities: 0 }) })).statusCode).toBe(200);
    await t.db.updateTable('awards').set({ approved_at: new Date('2031-03-10T04:30:00Z') }).where('case_id', '=', late.caseId).execute();
    const early = await t.request({ method: 'POST', url: '/api/payment-batches', cookies: coordinator, payload: { payDate: '2031-03-12', upTo: '2031-03-08' } });
    const earlyIds = early.statusCode === 201 ? (await t.request({ method: 'GET', url: `/api/payment-batches/${early.json().id}`, cookies: coordinator })).json().payees.flatMap((p: { payments: Array<{ caseId: number }> }) => p.payments.map((x) => x.caseId)) : [];
    expect(earlyIds).not.toContain(late.caseId);
    const made = await t.request({ method: 'POST', url: '/api/payment-batches', cookies: coordinator, payload: { payDate: '2031-03-12', upTo: '2031-03-09' } });
    expect(made.statusCode, made.body).toBe(201);
    const detail = (await t.request({ method: 'GET', url: `/api/payment-batches/${made.json().id}`, cookies: coordinator })).json();
    expect(detail.payees.flatMap((p: { payments: Array<{ caseId: number }> }) => p.payments.map((x) => x.caseId))).toContain(late.caseId);

    // Paid at 22:00 in Bogotá on 31 December 2030 (03:00 UTC on 1 January 2031): the 2030 report's.
    const { id, amount } = await t.db.selectFrom('payments').where('entity_id', '=', entityId).where('case_id', '=', late.caseId).select(['id', 'amount']).executeTakeFirstOrThrow();
    await t.db.updateTable('payments').set({ paid_at: new Date('2031-01-01T03:00:00Z') }).where('id', '=', id).execute();
    const total = async (year: number) =>
      (await t.request({ method: 'GET', url: `/api/reports/payees?year=${year}`, cookies: coordinator })).json<{ items: Array<{ total: number }> }>().items.reduce((sum, i) => sum + i.total, 0);
    expect(await total(2030)).toBe(amount);
    expect(await total(2031)).toBe(0);
  });
});
