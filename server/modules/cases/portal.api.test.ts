import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, login, type TestApp } from '../../../tests/support/app.js';
import { makeCase, makeEntity, makeForm, makeMasterItem, makeProject, makePublishedProtocol, makeUser } from '../../../tests/support/factories.js';
import { DEMO_ROLES } from '../../db/seed/acl.js';
import { submitCase } from './commands.js';

/**
 * The applicant's portal (issue 18): GET /api/cases/:id/public-timeline says
 * where an application stands in plain words and lists its public steps,
 * built from the history without task names, staff's names, reasons or
 * internal comments; the owner and staff read it, another applicant and
 * another tenant get 404.
 */
const FORM = {
  name: 'Rental application',
  fields: [
    { name: 'firstName', type: 'text', label: 'Nombres', label_en: 'First name', required: true },
    { name: 'payRent', type: 'number', label: 'Renta mensual', label_en: 'Monthly rent', required: true, min: 1 },
  ],
};
const rules = (code: string) => DEMO_ROLES.find((r) => r.code === code)?.rules as never;

type Timeline = {
  status: string;
  submittedAt: string | null;
  updatedAt: string;
  events: Array<{ kind: string; at: string; documents: string[] }>;
  requestedDocuments: Array<{ code: string; name: string; source: string }>;
};

let t: TestApp;
let entityId: number;
let protocol: Awaited<ReturnType<typeof makePublishedProtocol>>;
let applicant: { id: number; email: string };
const sid: Record<'applicant' | 'other' | 'coordinator' | 'reviewer' | 'stranger', { sid: string }> = {} as never;

const as = (who: keyof typeof sid, method: string, url: string, payload?: unknown) =>
  t.request({ method: method as 'GET', url, cookies: { ...sid[who], lang: 'en' }, payload: payload as string });
const timeline = async (who: keyof typeof sid, id: number) => {
  const res = await as(who, 'GET', `/api/cases/${id}/public-timeline`);
  expect(res.statusCode, res.body).toBe(200);
  return { body: res.body, json: res.json<Timeline>() };
};

beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_URL: 'https://cases.example.org' } });
  entityId = (await makeEntity(t.db)).id;
  await makeProject(t.db, { entity_id: entityId, is_default: true });
  const checklist = await t.db.selectFrom('masters').where('entity_id', '=', entityId).where('code', '=', 'definiciones').selectAll().executeTakeFirstOrThrow();
  await makeMasterItem(t.db, checklist, { code: 'lease', name: 'Lease (all pages)' });
  await makeMasterItem(t.db, checklist, { code: 'check_stubs', name: 'Check stubs' });
  await makeMasterItem(t.db, checklist, { code: 'bank', name: 'Bank statement' });
  applicant = await makeUser(t.db, entityId, { role: 'applicant', rules: rules('applicant'), password: 'Demo12345' });
  const other = await makeUser(t.db, entityId, { role: 'applicant', rules: rules('applicant'), password: 'Demo12345' });
  const coordinator = await makeUser(t.db, entityId, { role: 'coordinator', rules: rules('coordinator'), password: 'Demo12345', name: 'Carla Coordinator' });
  const reviewer = await makeUser(t.db, entityId, { role: 'reviewer', rules: rules('reviewer'), password: 'Demo12345', name: 'Rita Reviewer' });
  protocol = await makePublishedProtocol(t.db, entityId, {
    mainForm: await makeForm(t.db, entityId, { definition: FORM }),
    start: ['intake'],
    tasks: [
      { code: 'intake', name: 'Secret intake triage', responsible: { kind: 'user', userId: reviewer.id }, onAccept: [{ to: 'decision' }] },
      { code: 'decision', name: 'Internal eligibility decision', responsible: { kind: 'user', userId: coordinator.id } },
    ],
  });
  const elsewhere = (await makeEntity(t.db)).id;
  const stranger = await makeUser(t.db, elsewhere, { role: 'coordinator', rules: rules('coordinator'), password: 'Demo12345' });
  for (const [key, user] of [['applicant', applicant], ['other', other], ['coordinator', coordinator], ['reviewer', reviewer], ['stranger', stranger]] as const) {
    sid[key] = await login(t, user.email);
  }
});
afterAll(async () => {
  await t.close();
});

async function openCase() {
  const c = await makeCase(t.db, protocol, { ownerId: applicant.id, data: { firstName: 'Lucía', payRent: 900 } });
  await submitCase(t.db, t.app.engine, { system: true, entityId }, c.id);
  return c.id;
}
const firstTask = (caseId: number) => t.db.selectFrom('tasks').where('case_id', '=', caseId).select(['id', 'version']).orderBy('id').executeTakeFirstOrThrow();

describe('the public timeline of an application', () => {
  it('follows the application in plain words: submitted, in review, documents requested, returned, resubmitted, approved; nothing internal in it', async () => {
    const id = await openCase();
    let { json } = await timeline('applicant', id);
    expect(json.status).toBe('submitted');
    expect(json.submittedAt).not.toBeNull();
    expect(json.events.map((e) => e.kind)).toEqual(['submitted']);
    expect(json.requestedDocuments).toEqual([]);

    // The reviewer decides the first task: the review has started.
    const task = await firstTask(id);
    const accepted = await as('reviewer', 'POST', `/api/tasks/${task.id}/accept`, { version: task.version });
    expect(accepted.statusCode, accepted.body).toBe(200);
    ({ json } = await timeline('applicant', id));
    expect(json.status).toBe('in_review');
    expect(json.events.map((e) => e.kind)).toEqual(['submitted', 'in_review']);

    // A message to the applicant asks for the check stubs; an internal note marks the bank statement (not theirs to see).
    const visible = await as('coordinator', 'POST', `/api/cases/${id}/comments`, { body: 'Please send your check stubs.', visibleToApplicant: true, documents: [{ code: 'check_stubs', mark: 'missing' }] });
    expect(visible.statusCode, visible.body).toBe(201);
    const internal = await as('coordinator', 'POST', `/api/cases/${id}/comments`, { body: 'Internal: the bank statement looks odd.', documents: [{ code: 'bank', mark: 'missing' }] });
    expect(internal.statusCode, internal.body).toBe(201);
    ({ json } = await timeline('applicant', id));
    expect(json.status).toBe('documents_requested');
    expect(json.events.at(-1)).toMatchObject({ kind: 'documents_requested', documents: ['Check stubs'] });
    expect(json.requestedDocuments).toEqual([{ code: 'check_stubs', name: 'Check stubs', source: 'checklist' }]);

    // Returned for correction: the lease is asked; the reason stays on the case, not in the timeline.
    const { version } = (await as('coordinator', 'GET', `/api/cases/${id}`)).json<{ version: number }>();
    const returned = await as('coordinator', 'POST', `/api/cases/${id}/correction`, { reason: 'Staff-only wording: lease unsigned.', fields: ['payRent'], documents: ['lease'], version });
    expect(returned.statusCode, returned.body).toBe(201);
    const seen = await timeline('applicant', id);
    expect(seen.json.status).toBe('returned');
    expect(seen.json.events.at(-1)).toMatchObject({ kind: 'returned', documents: ['Lease (all pages)'] });
    expect(seen.json.requestedDocuments).toEqual([
      { code: 'lease', name: 'Lease (all pages)', source: 'correction' },
      { code: 'check_stubs', name: 'Check stubs', source: 'checklist' },
    ]);
    for (const secret of ['Secret intake triage', 'Internal eligibility decision', 'Carla Coordinator', 'Rita Reviewer', 'Staff-only wording', 'Internal:', 'Bank statement', 'Please send']) {
      expect(seen.body).not.toContain(secret);
    }

    // Staff see the same public view (what the applicant sees), not their internal marks.
    const staff = await timeline('coordinator', id);
    expect(staff.json.status).toBe('returned');
    expect(staff.body).not.toContain('Bank statement');
  });

  it('says approved, closed and reopened from the case transitions', async () => {
    const id = await openCase();
    const complete = await as('coordinator', 'POST', `/api/cases/${id}/complete`, {});
    expect(complete.statusCode, complete.body).toBe(200);
    let { json } = await timeline('applicant', id);
    expect(json.status).toBe('approved');
    expect(json.events.map((e) => e.kind)).toEqual(['submitted', 'approved']);
    expect(json.requestedDocuments).toEqual([]);

    const other = await openCase();
    const close = await as('coordinator', 'POST', `/api/cases/${other}/close`, { reason: 'Internal close reason' });
    expect(close.statusCode, close.body).toBe(200);
    const closed = await timeline('applicant', other);
    expect(closed.json.status).toBe('closed');
    expect(closed.json.events.map((e) => e.kind)).toEqual(['submitted', 'closed']);
    expect(closed.body).not.toContain('Internal close reason');
    json = closed.json;
    expect(json.submittedAt).not.toBeNull();
  });

  it('is 404 for another applicant, another tenant and a missing case; 400 for a bad id', async () => {
    const id = await openCase();
    expect((await as('other', 'GET', `/api/cases/${id}/public-timeline`)).statusCode).toBe(404);
    expect((await as('stranger', 'GET', `/api/cases/${id}/public-timeline`)).statusCode).toBe(404);
    expect((await as('applicant', 'GET', '/api/cases/999999/public-timeline')).statusCode).toBe(404);
    expect((await as('applicant', 'GET', '/api/cases/abc/public-timeline')).statusCode).toBe(400);
    expect((await t.request({ method: 'GET', url: `/api/cases/${id}/public-timeline` })).statusCode).toBe(401);
  });
});

describe('the plain-words statuses of a page of the applicant\'s list', () => {
  it('answers each case the caller may read by the timeline\'s rule and leaves the others out', async () => {
    const submitted = await openCase();
    const approved = await openCase();
    expect((await as('coordinator', 'POST', `/api/cases/${approved}/complete`, {})).statusCode).toBe(200);
    const res = await as('applicant', 'GET', `/api/cases/public-statuses?ids=${submitted},${approved},999999`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ items: [{ id: submitted, status: 'submitted' }, { id: approved, status: 'approved' }] });
    // Another applicant and another tenant learn nothing of them.
    expect((await as('other', 'GET', `/api/cases/public-statuses?ids=${submitted},${approved}`)).json()).toEqual({ items: [] });
    expect((await as('stranger', 'GET', `/api/cases/public-statuses?ids=${submitted}`)).json()).toEqual({ items: [] });
  });

  it('refuses a list that is not ids, or longer than a page', async () => {
    for (const ids of ['', 'abc', '1,,2', '1;2', Array.from({ length: 51 }, (_, i) => i + 1).join(',')]) {
      expect((await as('applicant', 'GET', `/api/cases/public-statuses?ids=${encodeURIComponent(ids)}`)).statusCode, ids).toBe(400);
    }
    expect((await as('applicant', 'GET', '/api/cases/public-statuses')).statusCode).toBe(400);
  });
});
