import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, login, type TestApp } from '../../../tests/support/app.js';
import { makeCase, makeEntity, makeFile, makeForm, makeProject, makePublishedProtocol, makeUser } from '../../../tests/support/factories.js';
import { sweepParties } from './commands.js';
import { partyDeadlinePassed } from './waiting.js';

/**
 * Parties (issue 23) through the API, on tenants made here: an applicant
 * submits naming their landlord's email; the invitation is in the outbox with
 * a single-use link (only its hash kept); the landlord signs up through the
 * public sign-up, accepts, sees the case in "mine" and nothing else, saves and
 * submits the landlord form with a rent ledger and a W-9 of their own, signs,
 * gives payment details; the task waiting for them is refused before and
 * accepted after. Bad input: the link used twice, an unknown or replaced
 * link, a party opening a case or party not theirs, another tenant's file, a
 * wrong attestation name, a second submission, the task accepted too early.
 * The sweep reminds once per period and expires at the deadline.
 */
let t: TestApp;
const PASSWORD = 'Passw0rd1';
const LANDLORD_EMAIL = 'larry.landlord@example.test';
const DAY = 24 * 3600 * 1000;
type Err = { error: { code: string; message: string; details?: Array<{ path: string; message: string }> } };
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const ENV = { publicUrl: 'https://cases.example.org', smtpConfigured: false };

let entityId: number;
let projectUid: string;
let staff: { sid: string };
let applicant: { sid: string };
let otherStaff: { sid: string };
let coordinatorId: number;
let caseId: number;
let secondCaseId: number;
let otherTenantFileId: string;
let landlord: { sid: string };
let partyId: number;
let secondPartyId: number;

const STAFF_RULES = { wf_casos: ['show', 'update'], admin_cases: ['show'], wf_tareas: ['show', 'update', 'accept', 'reject'], historialaplicacion: ['show'] };

function multipart(filename: string, content: Buffer) {
  const boundary = '----partiestest';
  const parts = [
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ];
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const outboxTo = (to: string, event: string) =>
  t.db.selectFrom('mail_outbox').where('to_address', '=', to).where('event', '=', event).select(['id', 'subject', 'body_text', 'body_html', 'case_id']).orderBy('id').execute();
const tokenIn = (text: string) => /\/partes\/invitacion\/([A-Za-z0-9_-]{43})/.exec(text)?.[1] as string;
const partyRow = (id: number) => t.db.selectFrom('case_parties').where('id', '=', id).selectAll().executeTakeFirstOrThrow();
const history = (id: number) => t.db.selectFrom('case_events').where('case_id', '=', id).select(['action', 'detail']).orderBy('id').execute();
const reviewTask = (id: number) => t.db.selectFrom('tasks').where('case_id', '=', id).where('code', '=', 'review').select(['id', 'state', 'version']).executeTakeFirstOrThrow();

async function solvedCaptcha(): Promise<string> {
  const challenge = (await t.request({ method: 'GET', url: '/api/auth/captcha' })).json();
  const solution = await solveChallenge({ challenge, deriveKey } as never);
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

async function submittedCase(ownerId: number, projectId: number, protocol: Awaited<ReturnType<typeof makePublishedProtocol>>, landlordEmail: string, name: string) {
  const draft = await makeCase(t.db, protocol, { ownerId, projectId, data: { firstName: 'Ana', lastName: 'Tenantson', landlord: { name, email: landlordEmail, phone: '555-123-4567' } } });
  const res = await t.request({ method: 'POST', url: `/api/cases/drafts/${draft.id}/submit`, cookies: applicant, payload: {} });
  expect(res.statusCode, res.body).toBe(200);
  return draft.id;
}

beforeAll(async () => {
  t = await createTestApp({ env: { PAYMENTS_KEY: '1f'.repeat(32) } });
  const entity = await makeEntity(t.db, { name: 'Rent Relief Agency' });
  entityId = entity.id;
  const other = await makeEntity(t.db, { name: 'Other Agency' });
  const project = await makeProject(t.db, { entity_id: entity.id, language: 'en' });
  projectUid = project.uid;
  const landlordForm = await makeForm(t.db, entity.id, {
    definition: {
      name: 'Landlord form',
      fields: [
        { name: 'propertyAddress', type: 'text', label: 'Dirección', label_en: 'Property address', required: true },
        { name: 'monthlyRent', type: 'currency', label: 'Arriendo', label_en: 'Monthly rent', required: true },
        { name: 'ledger', type: 'file', label: 'Libro', label_en: 'Rent ledger', accept: ['pdf'], required: true },
        { name: 'w9', type: 'file', label: 'W-9', label_en: 'W-9', accept: ['pdf'], required: true },
      ],
    },
  });
  const mainForm = await makeForm(t.db, entity.id, {
    definition: {
      name: 'Application',
      fields: [
        { name: 'firstName', type: 'text', label: 'Nombre', label_en: 'First name', required: true },
        { name: 'lastName', type: 'text', label: 'Apellido', label_en: 'Last name' },
        { name: 'landlord', type: 'party', label: 'Arrendador', label_en: 'Landlord', partyRole: 'landlord', required: true },
      ],
    },
  });
  const people = await Promise.all([
    makeUser(t.db, entity.id, { role: 'coordinator', rules: STAFF_RULES as never, password: PASSWORD }),
    makeUser(t.db, entity.id, { role: 'applicant', rules: { wf_casos: ['show', 'create'], borradores: ['show', 'create', 'create_drafts'] } as never, password: PASSWORD }),
    makeUser(t.db, other.id, { role: 'coordinator', rules: STAFF_RULES as never, password: PASSWORD }),
  ]);
  coordinatorId = people[0].id;
  [staff, applicant, otherStaff] = await Promise.all(people.map((u) => login(t, u.email, PASSWORD)));
  const protocol = await makePublishedProtocol(t.db, entity.id, {
    mainForm,
    start: ['review'],
    tasks: [{ code: 'review', name: 'Review', responsible: { kind: 'user', userId: coordinatorId }, waitsForParty: 'landlord' }],
    parties: [{ role: 'landlord' }],
  });
  // Publishing freezes each party role's form as it does the tasks' (protocols/commands.ts): as it would leave it.
  const version = await t.db.selectFrom('protocol_versions').where('id', '=', protocol.versionId).select('definition').executeTakeFirstOrThrow();
  const parties = [{
    role: 'landlord', formId: landlordForm.id, formVersionId: landlordForm.versionId, deadlineDays: 14, remindEveryDays: 3, payTenantAfterDeadline: true,
    attestation: { en: 'I certify that what I gave is true.', es: 'Certifico que lo que di es cierto.' },
  }];
  await t.db.updateTable('protocol_versions').set({ definition: JSON.stringify({ ...(version.definition as object), parties }) }).where('id', '=', protocol.versionId).execute();
  await t.db.updateTable('form_versions').set({ in_use: true }).where('id', '=', landlordForm.versionId).execute();
  caseId = await submittedCase(people[1].id, project.id, protocol, LANDLORD_EMAIL, 'Larry Landlord');
  secondCaseId = await submittedCase(people[1].id, project.id, protocol, 'lee.owner@example.test', 'Lee Owner');
  otherTenantFileId = (await makeFile(t.db, other.id, people[2].id, { name: 'w9.pdf' })).id;
  partyId = (await t.db.selectFrom('case_parties').where('case_id', '=', caseId).select('id').executeTakeFirstOrThrow()).id;
  secondPartyId = (await t.db.selectFrom('case_parties').where('case_id', '=', secondCaseId).select('id').executeTakeFirstOrThrow()).id;
}, 60_000);
afterAll(() => t.close());

describe('invitations', () => {
  let token: string;

  it('submitting an application invites the landlord it names: a mail with a single-use link, only its hash kept, in the history', async () => {
    const mails = await outboxTo(LANDLORD_EMAIL, 'party_invited');
    expect(mails).toHaveLength(1);
    expect(mails[0].case_id).toBe(caseId);
    expect(mails[0].subject).toContain('Ana');
    token = tokenIn(mails[0].body_text);
    expect(token).toHaveLength(43);
    expect(mails[0].body_text).toContain(`/partes/invitacion/${token}`);
    const row = await partyRow(partyId);
    expect(row).toMatchObject({ role: 'landlord', name: 'Larry Landlord', email: LANDLORD_EMAIL, phone: '5551234567', field: 'landlord', state: 'invited', user_id: null });
    expect(row.token_hash?.length).toBe(32);
    expect(row.token_hash?.toString('utf8')).not.toContain(token);
    expect(row.deadline_at?.getTime()).toBeGreaterThan(Date.now() + 13 * DAY);
    expect((await history(caseId)).map((e) => e.action)).toContain('party_invited');
  });

  it('staff who may read the case list its parties; the applicant and another tenant do not', async () => {
    const res = await t.request({ method: 'GET', url: `/api/cases/${caseId}/parties`, cookies: staff });
    expect(res.statusCode, res.body).toBe(200);
    const [p] = res.json<{ items: Array<Record<string, unknown>> }>().items;
    expect(p).toMatchObject({ id: partyId, role: 'landlord', state: 'invited', email: LANDLORD_EMAIL, user: null, actions: ['resend'] });
    expect((await t.request({ method: 'GET', url: `/api/cases/${caseId}/parties`, cookies: applicant })).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: `/api/cases/${caseId}/parties`, cookies: otherStaff })).statusCode).toBe(404);
  });

  it('the link says who invites whom, with the applicant’s first name only; an unknown link is 404', async () => {
    const res = await t.request({ method: 'GET', url: `/api/parties/invitations/${token}` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ role: 'landlord', applicantFirstName: 'Ana', partyName: 'Larry Landlord', email: LANDLORD_EMAIL, valid: true, entity: { name: 'Rent Relief Agency' }, project: projectUid });
    expect(res.body).not.toContain('Tenantson');
    const unknown = await t.request({ method: 'GET', url: `/api/parties/invitations/${'A'.repeat(43)}` });
    expect(unknown.statusCode).toBe(404);
  });

  it('the landlord signs up through the public sign-up, accepts, and the link is used up: twice is 410 and nothing changes', async () => {
    const signup = await t.request({
      method: 'POST', url: '/api/auth/signup',
      payload: { name: 'Larry Landlord', email: LANDLORD_EMAIL, password: 'Secret123', passwordConfirm: 'Secret123', project: projectUid, captcha: await solvedCaptcha() },
    });
    expect(signup.statusCode, signup.body).toBe(201);
    landlord = await login(t, LANDLORD_EMAIL, 'Secret123');
    const before = await t.request({ method: 'GET', url: '/api/parties/mine', cookies: landlord });
    expect(before.json()).toEqual({ items: [], total: 0 });

    const accepted = await t.request({ method: 'POST', url: `/api/parties/invitations/${token}/accept`, cookies: landlord });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toEqual({ partyId, caseId });
    const row = await partyRow(partyId);
    expect(row.state).toBe('joined');
    expect(row.user_id).not.toBeNull();

    const again = await t.request({ method: 'POST', url: `/api/parties/invitations/${token}/accept`, cookies: staff });
    expect(again.statusCode).toBe(410);
    expect(again.json<Err>().error.code).toBe('PARTY_LINK_USED');
    expect(await partyRow(partyId)).toEqual(row);
    const shown = await t.request({ method: 'GET', url: `/api/parties/invitations/${token}` });
    expect(shown.statusCode).toBe(410);
    expect(shown.json<Err>().error.message).toMatch(/already used/);
  });
});

describe("the party's side", () => {
  it('mine lists the case with the applicant, state and deadline; the page shows the public timeline, the form, the attestation', async () => {
    const mine = await t.request({ method: 'GET', url: '/api/parties/mine', cookies: landlord });
    expect(mine.statusCode, mine.body).toBe(200);
    const list = mine.json<{ items: Array<Record<string, unknown>>; total: number }>();
    expect(list.total).toBe(1);
    expect(list.items[0]).toMatchObject({ id: partyId, role: 'landlord', state: 'joined', applicantName: 'Ana Tenantson', caseStatus: 'submitted' });
    expect(list.items[0].deadlineAt).toBeTruthy();

    const page = await t.request({ method: 'GET', url: `/api/parties/${partyId}`, cookies: landlord });
    expect(page.statusCode, page.body).toBe(200);
    const p = page.json<Record<string, unknown> & { form: { definition: { fields: Array<{ name: string }> } }; timeline: { events: Array<{ kind: string }> } }>();
    expect(p).toMatchObject({ role: 'landlord', state: 'joined', paymentRequired: true, attestation: { en: 'I certify that what I gave is true.' }, actions: ['save', 'submit'], case: { applicantFirstName: 'Ana' } });
    expect(p.form.definition.fields.map((f) => f.name)).toEqual(['propertyAddress', 'monthlyRent', 'ledger', 'w9']);
    expect(p.timeline.events.map((e) => e.kind)).toEqual(['submitted']);
    expect(page.body).not.toContain('Tenantson');
  });

  it('a party is given neither the case itself, nor another party, nor anything of another tenant (404)', async () => {
    expect((await t.request({ method: 'GET', url: `/api/cases/${caseId}`, cookies: landlord })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: `/api/cases/${caseId}/parties`, cookies: landlord })).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: `/api/parties/${secondPartyId}`, cookies: landlord })).statusCode).toBe(404);
    expect((await t.request({ method: 'PUT', url: `/api/parties/${secondPartyId}/form`, cookies: landlord, payload: { values: {} } })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: `/api/parties/${partyId}`, cookies: otherStaff })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: `/api/parties/${partyId}`, cookies: applicant })).statusCode).toBe(404);
  });

  it('the waiting task cannot be accepted before the landlord submits (409, translated, naming the role)', async () => {
    const task = await reviewTask(caseId);
    const res = await t.request({ method: 'POST', url: `/api/tasks/${task.id}/accept`, cookies: { ...staff, lang: 'es' }, payload: {} });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json<Err>().error).toMatchObject({ code: 'PARTY_NOT_SUBMITTED' });
    expect(res.json<Err>().error.message).toContain('arrendador');
    expect((await reviewTask(caseId)).state).toBe(task.state);
  });

  let ledger: { id: string; name: string };
  let w9: { id: string; name: string };
  const values = () => ({ propertyAddress: '12 Elm St, Unit 3', monthlyRent: 1250, ledger: [ledger], w9: [w9] });
  const payment = { name: 'Larry Landlord', email: LANDLORD_EMAIL, taxId: '12-3456789', method: 'ach', routingNumber: '011000015', accountNumber: '123456789', accountType: 'checking' };
  const submit = (body: Record<string, unknown>, who = landlord) => t.request({ method: 'POST', url: `/api/parties/${partyId}/submit`, cookies: who, payload: body });

  it('the landlord uploads a rent ledger and a W-9 and saves a draft; the W-9 reaches them and staff only', async () => {
    const up = async (name: string) => {
      const res = await t.request({ method: 'POST', url: '/api/files', cookies: landlord, ...multipart(name, PDF) });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<{ id: string; name: string }>();
    };
    ledger = await up('ledger.pdf');
    w9 = await up('w9.pdf');
    const saved = await t.request({ method: 'PUT', url: `/api/parties/${partyId}/form`, cookies: landlord, payload: { values: { propertyAddress: '12 Elm St' } } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await partyRow(partyId)).data).toEqual({ propertyAddress: '12 Elm St' });

    // Another tenant's W-9 by id: not found for the landlord, and not to be put on their side.
    expect((await t.request({ method: 'GET', url: `/api/files/${otherTenantFileId}/link`, cookies: landlord })).statusCode).toBe(404);
    const foreign = await t.request({ method: 'PUT', url: `/api/parties/${partyId}/form`, cookies: landlord, payload: { values: { w9: [{ id: otherTenantFileId, name: 'w9.pdf' }] } } });
    expect(foreign.statusCode).toBe(400);
    expect((await partyRow(partyId)).data).toEqual({ propertyAddress: '12 Elm St' });
  });

  it('a wrong attestation name, missing or bad payment details are refused and nothing changes', async () => {
    const before = await partyRow(partyId);
    const wrongName = await submit({ values: values(), attestation: { name: 'Someone Else', date: '2026-11-28' }, payment });
    expect(wrongName.statusCode).toBe(422);
    expect(wrongName.json<Err>().error).toMatchObject({ code: 'PARTY_ATTESTATION_NAME' });
    expect(wrongName.json<Err>().error.message).toContain('Larry Landlord');
    const noPayment = await submit({ values: values(), attestation: { name: 'Larry Landlord', date: '2026-11-28' } });
    expect(noPayment.statusCode).toBe(400);
    const badRouting = await submit({ values: values(), attestation: { name: 'Larry Landlord', date: '2026-11-28' }, payment: { ...payment, routingNumber: '123456789' } });
    expect(badRouting.statusCode).toBe(400);
    const missingFile = await submit({ values: { ...values(), w9: [] }, attestation: { name: 'Larry Landlord', date: '2026-11-28' }, payment });
    expect(missingFile.statusCode).toBe(400);
    expect(missingFile.json<Err>().error.details?.map((d) => d.path)).toContain('values.w9');
    expect(await partyRow(partyId)).toEqual(before);
    expect(await t.db.selectFrom('payees').where('party_id', '=', partyId).select('id').execute()).toEqual([]);
  });

  it('submits once, signed (the name matched loosely), with payment details; staff are told; a second submission is 409', async () => {
    const res = await submit({ values: values(), attestation: { name: '  larry   LANDLORD ', date: '2026-11-28' }, payment });
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<Record<string, unknown>>();
    expect(page).toMatchObject({ state: 'submitted', actions: [], payment: { method: 'ach', account: '••••6789' }, signature: { date: '2026-11-28', text: 'I certify that what I gave is true.' } });
    const row = await partyRow(partyId);
    expect(row.state).toBe('submitted');
    expect(row.payee_id).not.toBeNull();
    const payee = await t.db.selectFrom('payees').where('id', '=', row.payee_id as number).selectAll().executeTakeFirstOrThrow();
    expect(payee).toMatchObject({ party_id: partyId, case_id: caseId, kind: 'landlord', account_last4: '6789' });
    expect(JSON.stringify(payee)).not.toContain('123456789');
    const events = await history(caseId);
    expect(events.find((e) => e.action === 'party_submitted')?.detail).toMatchObject({ role: 'landlord', party: partyId });
    const notice = await t.db.selectFrom('notifications').where('user_id', '=', coordinatorId).where('kind', '=', 'party_submitted').select('case_id').execute();
    expect(notice).toEqual([{ case_id: caseId }]);

    const twice = await submit({ values: values(), attestation: { name: 'Larry Landlord', date: '2026-11-28' }, payment });
    expect(twice.statusCode).toBe(409);
    expect(twice.json<Err>().error.code).toBe('PARTY_ALREADY_SUBMITTED');
    expect((await t.request({ method: 'PUT', url: `/api/parties/${partyId}/form`, cookies: landlord, payload: { values: {} } })).statusCode).toBe(409);

    // Staff see what they gave and may read the W-9; the applicant may not.
    const list = await t.request({ method: 'GET', url: `/api/cases/${caseId}/parties`, cookies: staff });
    const listed = list.json<{ items: Array<Record<string, unknown> & { form: { fields: Array<{ name: string; label: string }> } | null }> }>().items[0];
    expect(listed).toMatchObject({ state: 'submitted', actions: [], values: { propertyAddress: '12 Elm St, Unit 3' } });
    // With their role's form as frozen, so the panel shows its labels, not the field names.
    expect(listed.form?.fields.map((f) => f.name)).toContain('propertyAddress');
    expect((await t.request({ method: 'GET', url: `/api/files/${w9.id}/link`, cookies: staff })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: `/api/files/${w9.id}/link`, cookies: landlord })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: `/api/files/${w9.id}/link`, cookies: applicant })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: `/api/files/${w9.id}/link`, cookies: otherStaff })).statusCode).toBe(404);
  });

  it('the waiting task can then be accepted', async () => {
    const task = await reviewTask(caseId);
    const res = await t.request({ method: 'POST', url: `/api/tasks/${task.id}/accept`, cookies: staff, payload: {} });
    expect(res.statusCode, res.body).toBe(200);
    expect((await reviewTask(caseId)).state).toBe('ACCEPTED');
    // Staff's decision: the landlord's list now says the application is in review, as the applicant's portal does.
    const mine = await t.request({ method: 'GET', url: '/api/parties/mine', cookies: landlord });
    expect(mine.json().items.find((r: { id: number }) => r.id === partyId)?.caseStatus).toBe('in_review');
  });
});

describe('the sweep, a resend, the deadline', () => {
  it('reminds a party still to act once per period', async () => {
    const invited = (await partyRow(secondPartyId)).invited_at as Date;
    const at = (days: number) => new Date(invited.getTime() + days * DAY + 60_000);
    expect(await sweepParties(t.db, ENV, at(1))).toMatchObject({ reminded: 0, expired: 0 });
    expect(await sweepParties(t.db, ENV, at(3))).toMatchObject({ reminded: 1 });
    expect(await sweepParties(t.db, ENV, at(3))).toMatchObject({ reminded: 0 });
    expect(await sweepParties(t.db, ENV, at(4))).toMatchObject({ reminded: 0 });
    expect(await sweepParties(t.db, ENV, at(6))).toMatchObject({ reminded: 1 });
    const reminders = await outboxTo('lee.owner@example.test', 'party_reminder');
    expect(reminders).toHaveLength(2);
    // Not yet joined: each reminder carries a fresh link, the one before is dead.
    const latest = tokenIn(reminders[1].body_text);
    expect((await t.request({ method: 'GET', url: `/api/parties/invitations/${latest}` })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: `/api/parties/invitations/${tokenIn(reminders[0].body_text)}` })).statusCode).toBe(404);
  });

  it('staff resend a new link (the old one dead); the applicant cannot accept their own landlord’s link', async () => {
    const before = await outboxTo('lee.owner@example.test', 'party_invited');
    const res = await t.request({ method: 'POST', url: `/api/cases/${secondCaseId}/parties/${secondPartyId}/resend`, cookies: staff, payload: {} });
    expect(res.statusCode, res.body).toBe(200);
    const after = await outboxTo('lee.owner@example.test', 'party_invited');
    expect(after).toHaveLength(before.length + 1);
    const fresh = tokenIn(after[after.length - 1].body_text);
    const mine = await t.request({ method: 'POST', url: `/api/parties/invitations/${fresh}/accept`, cookies: applicant });
    expect(mine.statusCode).toBe(409);
    expect(mine.json<Err>().error.code).toBe('PARTY_IS_APPLICANT');
    expect((await partyRow(secondPartyId)).state).toBe('invited');
    // A submitted party is not invited again.
    const done = await t.request({ method: 'POST', url: `/api/cases/${caseId}/parties/${partyId}/resend`, cookies: staff, payload: {} });
    expect(done.statusCode).toBe(409);
  });

  it('at the deadline the party expires, in the history with the tenant to be paid; the link says expired; the waiting task may go on', async () => {
    const task = await reviewTask(secondCaseId);
    expect((await t.request({ method: 'POST', url: `/api/tasks/${task.id}/accept`, cookies: staff, payload: {} })).statusCode).toBe(409);
    expect(await partyDeadlinePassed(t.db, secondCaseId, 'landlord')).toBe(false);
    const deadline = (await partyRow(secondPartyId)).deadline_at as Date;
    const token = tokenIn((await outboxTo('lee.owner@example.test', 'party_invited')).at(-1)?.body_text ?? '');
    expect(await sweepParties(t.db, ENV, new Date(deadline.getTime() + 60_000))).toMatchObject({ expired: 1 });
    expect(await sweepParties(t.db, ENV, new Date(deadline.getTime() + 120_000))).toMatchObject({ expired: 0, reminded: 0 });
    expect((await partyRow(secondPartyId)).state).toBe('expired');
    const actions = (await history(secondCaseId)).map((e) => e.action);
    expect(actions).toContain('party_expired');
    expect(actions).toContain('party_deadline_pay_tenant');
    expect(await partyDeadlinePassed(t.db, secondCaseId, 'landlord')).toBe(true);
    const link = await t.request({ method: 'GET', url: `/api/parties/invitations/${token}` });
    expect(link.statusCode).toBe(410);
    expect(link.json<Err>().error.code).toBe('PARTY_LINK_EXPIRED');
    expect((await t.request({ method: 'POST', url: `/api/tasks/${task.id}/accept`, cookies: staff, payload: {} })).statusCode).toBe(200);
    expect(entityId).toBeGreaterThan(0);
  });
});
