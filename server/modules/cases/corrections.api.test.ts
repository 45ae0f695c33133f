import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, login, type TestApp } from '../../../tests/support/app.js';
import { makeCase, makeEntity, makeForm, makeMasterItem, makeProject, makePublishedProtocol, makeUser } from '../../../tests/support/factories.js';
import { DEMO_ROLES } from '../../db/seed/acl.js';
import { submitCase } from './commands.js';

/**
 * Returned for correction (issue 18), through the API: staff send an open
 * application back with a reason and what to fix; its applicant is told with
 * a link, changes only what was asked, gives the asked document and sends it
 * back; the workflow goes on where it was, the history keeps it all. Bad
 * input (a field not asked, a case not returned, another applicant's or
 * tenant's case) is refused with a clear message and changes nothing.
 */
const FORM = {
  name: 'Rental application',
  layout: 'stepper',
  fields: [
    {
      name: 'application', type: 'stepper', label: 'Solicitud', label_en: 'Application',
      children: [
        {
          name: 'step_person', type: 'step', label: 'Solicitante', label_en: 'Applicant',
          children: [
            { name: 'firstName', type: 'text', label: 'Nombres', label_en: 'First name', required: true },
            { name: 'lastName', type: 'text', label: 'Apellidos', label_en: 'Last name', required: true },
          ],
        },
        {
          name: 'step_rent', type: 'step', label: 'Renta', label_en: 'Rent',
          children: [
            { name: 'payRent', type: 'number', label: 'Renta mensual', label_en: 'Monthly rent', required: true, min: 1 },
            { name: 'note', type: 'static', label: 'Declaro que es cierto.', label_en: 'I declare it is true.' },
            { name: 'documents', type: 'file', label: 'Documentos', label_en: 'Documents', accept: ['pdf'] },
          ],
        },
      ],
    },
  ],
};
const rules = (code: string) => DEMO_ROLES.find((r) => r.code === code)?.rules as never;
const DATA = { firstName: 'Lucía', lastName: 'Ortega', payRent: 900 };

let t: TestApp;
let dataDir: string;
let entityId: number;
let protocol: Awaited<ReturnType<typeof makePublishedProtocol>>;
let applicant: { id: number; email: string };
let coordinator: { id: number; email: string; name: string };
const sid: Record<'applicant' | 'other' | 'coordinator' | 'reviewer' | 'stranger', { sid: string }> = {} as never;

type Err = { error: { code: string; message: string; details?: Array<{ path: string; message: string }> } };
type Detail = {
  version: number;
  data: Record<string, unknown>;
  actions: string[];
  correction: null | { id: number; reason: string; fields: string[]; documents: Array<{ code: string; name: string }>; requestedBy: string | null; state: string };
};
const as = (who: keyof typeof sid, method: string, url: string, payload?: unknown, lang = 'en') =>
  t.request({ method: method as 'GET', url, cookies: { ...sid[who], lang }, payload: payload as string });
const detail = async (who: keyof typeof sid, id: number) => (await as(who, 'GET', `/api/cases/${id}`)).json<Detail>();
const tasksOf = (caseId: number) => t.db.selectFrom('tasks').where('case_id', '=', caseId).select(['id', 'code', 'state', 'responsible_user_id', 'version']).orderBy('id').execute();
const events = (caseId: number) => t.db.selectFrom('case_events').where('case_id', '=', caseId).select(['action', 'detail']).orderBy('id').execute();
const corrections = (caseId: number) => t.db.selectFrom('case_corrections').where('case_id', '=', caseId).selectAll().orderBy('id').execute();
const caseRow = (caseId: number) => t.db.selectFrom('cases').where('id', '=', caseId).select(['state', 'data', 'version']).executeTakeFirstOrThrow();

/** An open application of the applicant: its first task (intake, the reviewer's) started. */
async function openCase(data: Record<string, unknown> = DATA) {
  const c = await makeCase(t.db, protocol, { ownerId: applicant.id, data });
  await submitCase(t.db, t.app.engine, { system: true, entityId }, c.id);
  return c.id;
}

/** Staff return it asking for the rent and the lease. */
async function returned(caseId: number, body: Record<string, unknown> = {}) {
  const { version } = await detail('coordinator', caseId);
  const res = await as('coordinator', 'POST', `/api/cases/${caseId}/correction`, { reason: 'The lease is missing its signature page.', fields: ['payRent'], documents: ['lease'], version, ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res;
}

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const boundary = '----casebookcorrection';
async function upload(who: keyof typeof sid, name = 'lease-signed.pdf') {
  const res = await t.request({
    method: 'POST',
    url: '/api/files',
    cookies: sid[who],
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/pdf\r\n\r\n`),
      PDF,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ id: string; name: string; size: number }>();
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'casebook-corrections-'));
  t = await createTestApp({ env: { DATA_DIR: dataDir, PUBLIC_URL: 'https://cases.example.org' } });
  entityId = (await makeEntity(t.db)).id;
  await makeProject(t.db, { entity_id: entityId, is_default: true });
  const checklist = await t.db.selectFrom('masters').where('entity_id', '=', entityId).where('code', '=', 'definiciones').selectAll().executeTakeFirstOrThrow();
  await makeMasterItem(t.db, checklist, { code: 'lease', name: 'Lease (all pages)' });
  await makeMasterItem(t.db, checklist, { code: 'check_stubs', name: 'Check stubs' });
  applicant = await makeUser(t.db, entityId, { role: 'applicant', rules: rules('applicant'), password: 'Demo12345', language: 'es', email: 'lucia@example.test' });
  const other = await makeUser(t.db, entityId, { role: 'applicant', password: 'Demo12345' });
  coordinator = await makeUser(t.db, entityId, { role: 'coordinator', rules: rules('coordinator'), password: 'Demo12345', name: 'Carla Coordinator', language: 'en' });
  const reviewer = await makeUser(t.db, entityId, { role: 'reviewer', rules: rules('reviewer'), password: 'Demo12345' });
  protocol = await makePublishedProtocol(t.db, entityId, {
    mainForm: await makeForm(t.db, entityId, { definition: FORM }),
    start: ['intake'],
    tasks: [
      { code: 'intake', name: 'Intake review', responsible: { kind: 'user', userId: reviewer.id }, onAccept: [{ to: 'decision' }] },
      { code: 'decision', name: 'Decision', responsible: { kind: 'user', userId: coordinator.id } },
    ],
  });
  // Another tenant's coordinator.
  const elsewhere = (await makeEntity(t.db)).id;
  const stranger = await makeUser(t.db, elsewhere, { role: 'coordinator', rules: rules('coordinator'), password: 'Demo12345' });
  for (const [key, user] of [['applicant', applicant], ['other', other], ['coordinator', coordinator], ['reviewer', reviewer], ['stranger', stranger]] as const) {
    sid[key] = await login(t, user.email);
  }
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('staff return an open application', () => {
  it('records what was asked, tells the applicant by email with the reason and the link, and leaves the tasks alone', async () => {
    const id = await openCase();
    const tasksBefore = await tasksOf(id);
    await returned(id);

    // Both sides see the open request; staff may cancel it, the applicant may resubmit it.
    const mine = await detail('applicant', id);
    expect(mine.correction).toMatchObject({
      state: 'open', reason: 'The lease is missing its signature page.', fields: ['payRent'],
      documents: [{ code: 'lease', name: 'Lease (all pages)' }], requestedBy: 'Carla Coordinator',
    });
    expect(mine.actions).toContain('resubmit');
    const staff = await detail('coordinator', id);
    expect(staff.actions).toEqual(expect.arrayContaining(['cancelCorrection', 'editData']));
    expect(staff.actions).not.toContain('returnForCorrection');

    // The email, in the applicant's language (Spanish), with the reason and the correction page's link.
    const [mail] = await t.db.selectFrom('mail_outbox').where('to_address', '=', applicant.email).where('event', '=', 'case_returned').where('case_id', '=', id).selectAll().execute();
    expect(mail.subject).toMatch(/necesita una corrección$/);
    expect(mail.body_html).toContain('The lease is missing its signature page.');
    expect(mail.body_text).toContain(`https://cases.example.org/cases/${id}/correct`);
    const [bell] = await t.db.selectFrom('notifications').where('user_id', '=', applicant.id).where('kind', '=', 'case_returned').where('case_id', '=', id).selectAll().execute();
    expect(bell).toMatchObject({ detail: 'The lease is missing its signature page.', task_id: null });

    const requested = (await events(id)).find((e) => e.action === 'correction_requested');
    expect(requested?.detail).toMatchObject({ reason: 'The lease is missing its signature page.', fields: ['payRent'], documents: ['lease'] });
    // The workflow stays where it was: the same tasks, in the same states, with the same people.
    expect(await tasksOf(id)).toEqual(tasksBefore);
  });

  it('refuses unknown fields and documents, asking for nothing, a second open request, a stale version, and people without the right; nothing changes', async () => {
    const id = await openCase();
    const { version } = await detail('coordinator', id);
    const post = (body: Record<string, unknown>, who: keyof typeof sid = 'coordinator', lang = 'en') =>
      as(who, 'POST', `/api/cases/${id}/correction`, { reason: 'Fix it', fields: ['payRent'], documents: [], version, ...body }, lang);

    const unknownField = await post({ fields: ['payRent', 'salary'] });
    expect(unknownField.statusCode).toBe(400);
    expect(unknownField.json<Err>().error.details).toEqual([{ path: 'fields', message: expect.stringContaining('salary') }]);
    // A text block holds no value: it cannot be corrected.
    expect((await post({ fields: ['note'] })).statusCode).toBe(400);
    const unknownDocument = await post({ fields: [], documents: ['passport'] }, 'coordinator', 'es');
    expect(unknownDocument.statusCode).toBe(400);
    expect(unknownDocument.json<Err>().error.details?.[0]).toMatchObject({ path: 'documents', message: expect.stringContaining('passport') });
    const nothing = await post({ fields: [], documents: [] });
    expect(nothing.statusCode).toBe(400);
    expect(nothing.json<Err>().error.details?.[0]?.path).toBe('fields');
    expect((await post({ reason: '   ' })).statusCode).toBe(400);
    expect((await post({ reason: 'x'.repeat(2001) })).statusCode).toBe(400);
    expect((await post({ version: version - 1 })).json<Err>().error.code).toBe('STALE_DRAFT');
    // The reviewer may not change the application's data (wf_casos update), nor may its applicant.
    expect((await post({}, 'reviewer')).statusCode).toBe(403);
    expect((await post({}, 'applicant')).statusCode).toBe(403);
    // Another tenant's staff: as if it did not exist.
    expect((await post({}, 'stranger')).statusCode).toBe(404);
    expect(await corrections(id)).toHaveLength(0);
    expect((await caseRow(id)).version).toBe(version);

    expect((await post({})).statusCode).toBe(201);
    const twice = await post({ version: (await detail('coordinator', id)).version });
    expect(twice.statusCode).toBe(409);
    expect(twice.json<Err>().error).toMatchObject({ code: 'CORRECTION_OPEN', message: expect.stringMatching(/already/i) });
    expect(await corrections(id)).toHaveLength(1);
  });

  it('refuses a case that is not open', async () => {
    const id = await openCase();
    expect((await as('coordinator', 'POST', `/api/cases/${id}/close`, {})).statusCode).toBe(200);
    const { version } = await detail('coordinator', id);
    const res = await as('coordinator', 'POST', `/api/cases/${id}/correction`, { reason: 'Fix it', fields: ['payRent'], version });
    expect(res.statusCode).toBe(409);
    expect(res.json<Err>().error.code).toBe('CASE_NOT_OPEN');
  });
});

describe('the applicant corrects and resubmits', () => {
  it('changes only the asked field, gives the lease, and the workflow continues where it was', async () => {
    const id = await openCase();
    const tasksBefore = await tasksOf(id);
    await returned(id);
    const file = await upload('applicant');
    const { version, data } = await detail('applicant', id);

    const res = await as('applicant', 'POST', `/api/cases/${id}/correction/resubmit`, {
      data: { ...data, payRent: 950 },
      documents: [{ code: 'lease', files: [{ id: file.id, name: 'whatever.pdf' }] }],
      version,
    });
    expect(res.statusCode, res.body).toBe(200);

    const saved = await caseRow(id);
    expect(saved.state).toBe('PENDING');
    // The asked field changed; the lease joined the form's file field under its stored name; the rest as it was.
    expect(saved.data).toEqual({ ...DATA, payRent: 950, documents: [{ id: file.id, name: 'lease-signed.pdf', size: file.size }] });
    expect(res.json<{ version: number }>().version).toBe(saved.version);
    const [correction] = await corrections(id);
    expect(correction).toMatchObject({ state: 'resubmitted', uploads: { lease: [{ id: file.id, name: 'lease-signed.pdf' }] } });
    expect(correction.resubmitted_at).toBeInstanceOf(Date);
    expect((await detail('applicant', id)).correction).toBeNull();

    // The checklist has the lease received, with its file.
    const checklist = (await as('coordinator', 'GET', `/api/cases/${id}/checklist`)).json<{ items: Array<{ code: string; mark: string | null; fileId: string | null }> }>();
    expect(checklist.items.find((i) => i.code === 'lease')).toMatchObject({ mark: 'received', fileId: file.id });

    // The history keeps the request, each changed field and the resubmission.
    const history = await events(id);
    const actions = history.map((e) => e.action);
    expect(actions.indexOf('correction_requested')).toBeLessThan(actions.indexOf('correction_resubmitted'));
    expect(history.filter((e) => e.action === 'field_changed').map((e) => e.detail)).toEqual([
      { field: 'documents', from: null, to: [{ id: file.id, name: 'lease-signed.pdf', size: file.size }] },
      { field: 'payRent', from: 900, to: 950 },
    ]);
    expect(history.find((e) => e.action === 'correction_resubmitted')?.detail).toMatchObject({ fields: ['documents', 'payRent'], documents: ['lease'] });

    // Whoever asked is told, in their language.
    const [told] = await t.db.selectFrom('notifications').where('user_id', '=', coordinator.id).where('kind', '=', 'case_resubmitted').where('case_id', '=', id).selectAll().execute();
    expect(told).toBeDefined();
    const [mail] = await t.db.selectFrom('mail_outbox').where('to_address', '=', coordinator.email).where('event', '=', 'case_resubmitted').where('case_id', '=', id).selectAll().execute();
    expect(mail.subject).toMatch(/was corrected and sent back$/);
    expect(mail.body_text).toContain(`https://cases.example.org/cases/${id}`);

    // The tasks are as they were, and the workflow goes on from there: intake is accepted, the decision follows.
    expect(await tasksOf(id)).toEqual(tasksBefore);
    const intake = tasksBefore[0];
    const accepted = await as('reviewer', 'POST', `/api/tasks/${intake.id}/accept`, { version: intake.version });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect((await tasksOf(id)).map((x) => [x.code, x.state])).toEqual([
      ['intake', 'ACCEPTED'],
      ['decision', 'PENDING'],
    ]);
  });

  it('refuses a change to a field that was not asked for, naming it, and saves nothing', async () => {
    const id = await openCase();
    await returned(id);
    const file = await upload('applicant');
    const before = await caseRow(id);
    const documents = [{ code: 'lease', files: [{ id: file.id, name: file.name }] }];

    const res = await as('applicant', 'POST', `/api/cases/${id}/correction/resubmit`, { data: { ...DATA, payRent: 950, lastName: 'Otero' }, documents, version: before.version });
    expect(res.statusCode).toBe(400);
    const error = res.json<Err>().error;
    expect(error.code).toBe('VALIDATION');
    expect(error.details).toEqual([{ path: 'lastName', message: expect.stringContaining('Last name') }]);
    expect(error.message).toContain('Last name');
    // In Spanish, the field's Spanish label.
    const es = await as('applicant', 'POST', `/api/cases/${id}/correction/resubmit`, { data: { lastName: 'Otero' }, documents, version: before.version }, 'es');
    expect(es.json<Err>().error.details?.[0]?.message).toContain('Apellidos');
    // A name the form does not have is refused the same way.
    expect((await as('applicant', 'POST', `/api/cases/${id}/correction/resubmit`, { data: { role: 'admin' }, documents, version: before.version })).json<Err>().error.details?.[0]?.path).toBe('role');

    expect(await caseRow(id)).toEqual(before);
    expect((await corrections(id))[0].state).toBe('open');
    expect(await t.db.selectFrom('case_document_marks').where('case_id', '=', id).selectAll().execute()).toHaveLength(0);
    expect((await events(id)).map((e) => e.action)).not.toContain('field_changed');
  });

  it('refuses an asked document left out, a file that is not the applicant’s, an invalid value, and a stale version', async () => {
    const id = await openCase();
    await returned(id);
    const before = await caseRow(id);
    const resubmit = (body: Record<string, unknown>) => as('applicant', 'POST', `/api/cases/${id}/correction/resubmit`, { data: { payRent: 950 }, version: before.version, ...body });

    const missing = await resubmit({ documents: [] });
    expect(missing.statusCode).toBe(400);
    expect(missing.json<Err>().error.details).toEqual([{ path: 'documents.lease', message: expect.stringContaining('Lease (all pages)') }]);
    const theirs = await upload('coordinator', 'someone-else.pdf');
    expect((await resubmit({ documents: [{ code: 'lease', files: [{ id: theirs.id, name: theirs.name }] }] })).json<Err>().error.details?.[0]?.path).toBe('documents.lease');
    const mine = await upload('applicant');
    const lease = [{ code: 'lease', files: [{ id: mine.id, name: mine.name }] }];
    expect((await resubmit({ documents: [...lease, { code: 'check_stubs', files: [{ id: mine.id, name: mine.name }] }] })).json<Err>().error.details?.[0]?.path).toBe('documents');
    // The form's own validator: the rent must be at least 1.
    const invalid = await resubmit({ data: { payRent: 0 }, documents: lease });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json<Err>().error.details?.[0]?.path).toBe('payRent');
    expect((await resubmit({ documents: lease, version: before.version - 1 })).json<Err>().error.code).toBe('STALE_DRAFT');

    expect(await caseRow(id)).toEqual(before);
    expect((await corrections(id))[0].state).toBe('open');
  });

  it('refuses a resubmission when nothing was returned, in the caller’s language, and changes nothing', async () => {
    const id = await openCase();
    const before = await caseRow(id);
    const en = await as('applicant', 'POST', `/api/cases/${id}/correction/resubmit`, { data: { payRent: 950 }, version: before.version });
    expect(en.statusCode).toBe(409);
    expect(en.json<Err>().error).toEqual({ code: 'NO_OPEN_CORRECTION', message: 'This application has no open request for correction.' });
    const es = await as('applicant', 'POST', `/api/cases/${id}/correction/resubmit`, { data: { payRent: 950 }, version: before.version }, 'es');
    expect(es.json<Err>().error.message).toBe('Esta radicación no tiene un pedido de corrección abierto.');
    expect(await caseRow(id)).toEqual(before);
  });

  it('another applicant, and another tenant, get 404 for the case; staff may not resubmit for the applicant', async () => {
    const id = await openCase();
    await returned(id);
    const before = await caseRow(id);
    const body = { data: { payRent: 1 }, version: before.version };
    expect((await as('other', 'GET', `/api/cases/${id}`)).statusCode).toBe(404);
    const other = await as('other', 'POST', `/api/cases/${id}/correction/resubmit`, body);
    expect(other.statusCode).toBe(404);
    expect(other.json<Err>().error.code).toBe('NOT_FOUND');
    expect((await as('stranger', 'POST', `/api/cases/${id}/correction/resubmit`, body)).statusCode).toBe(404);
    expect((await as('stranger', 'POST', `/api/cases/${id}/correction/cancel`)).statusCode).toBe(404);
    expect((await as('coordinator', 'POST', `/api/cases/${id}/correction/resubmit`, body)).statusCode).toBe(403);
    expect(await caseRow(id)).toEqual(before);
    expect((await corrections(id))[0].state).toBe('open');
  });
});

describe('ending a request', () => {
  it('staff cancel it: the applicant may no longer resubmit, the history keeps it', async () => {
    const id = await openCase();
    await returned(id);
    expect((await as('applicant', 'POST', `/api/cases/${id}/correction/cancel`)).statusCode).toBe(403);
    expect((await as('reviewer', 'POST', `/api/cases/${id}/correction/cancel`)).statusCode).toBe(403);
    const res = await as('coordinator', 'POST', `/api/cases/${id}/correction/cancel`);
    expect(res.statusCode, res.body).toBe(200);
    const [row] = await corrections(id);
    expect(row).toMatchObject({ state: 'cancelled', cancelled_by: coordinator.id });
    expect((await detail('applicant', id)).correction).toBeNull();
    expect((await detail('coordinator', id)).actions).toContain('returnForCorrection');
    const { version } = await caseRow(id);
    expect((await as('applicant', 'POST', `/api/cases/${id}/correction/resubmit`, { data: {}, version })).json<Err>().error.code).toBe('NO_OPEN_CORRECTION');
    const again = await as('coordinator', 'POST', `/api/cases/${id}/correction/cancel`);
    expect(again.statusCode).toBe(409);
    expect(again.json<Err>().error.code).toBe('NO_OPEN_CORRECTION');
    expect((await events(id)).map((e) => e.action)).toEqual(expect.arrayContaining(['correction_requested', 'correction_cancelled']));
    // The applicant, asked by email, is told by email and in the bell that they need not act; once.
    const told = await t.db.selectFrom('notifications').where('user_id', '=', applicant.id).where('kind', '=', 'correction_cancelled').where('case_id', '=', id).selectAll().execute();
    expect(told).toHaveLength(1);
    const mails = await t.db.selectFrom('mail_outbox').where('to_address', '=', applicant.email).where('event', '=', 'correction_cancelled').where('case_id', '=', id).selectAll().execute();
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toContain('ya no necesita corrección'); // the applicant reads Spanish
    // A new request may follow.
    await returned(id, { fields: [], documents: ['check_stubs'] });
    expect((await detail('applicant', id)).correction?.documents).toEqual([{ code: 'check_stubs', name: 'Check stubs' }]);
  });

  it('closing the case ends the open request', async () => {
    const id = await openCase();
    await returned(id);
    expect((await as('coordinator', 'POST', `/api/cases/${id}/close`, { reason: 'Withdrawn' })).statusCode).toBe(200);
    expect((await corrections(id))[0].state).toBe('cancelled');
    expect((await events(id)).find((e) => e.action === 'correction_cancelled')?.detail).toMatchObject({ because: 'case_close' });
    const { version } = await caseRow(id);
    expect((await as('applicant', 'POST', `/api/cases/${id}/correction/resubmit`, { data: {}, version })).json<Err>().error.code).toBe('NO_OPEN_CORRECTION');
  });
});
