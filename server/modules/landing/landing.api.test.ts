import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, login, type TestApp } from '../../../tests/support/app.js';
import { makeCase, makeEntity, makeProject, makePublishedProtocol, makeUser } from '../../../tests/support/factories.js';
import { hashCode } from './repo.js';

/**
 * Landing pages through the API, on tenants made here: staff who may read a
 * case make, read and revoke its link; the code is 256 random bits kept only
 * hashed; the public page shows the applicant's view (number, programme,
 * status, dates, public steps) and nothing of the staff's; a wrong, revoked
 * or other entity's code is the same 404; an applicant, another tenant or a
 * draft gets no link.
 */
let t: TestApp;
const PASSWORD = 'Passw0rd1';
let staff: { sid: string };
let reader: { sid: string };
let applicant: { sid: string };
let otherStaff: { sid: string };
let caseId: number;
let draftId: number;
let otherCaseId: number;
const ENTITY = { name: 'Landing Agency', docnumber: '900333444' };
const OTHER = { name: 'Other Landing', docnumber: '900555666' };
type Err = { error: { code: string } };
type Page = { entity: { name: string; docnumber: string }; number: string | null; programme: { en: string; es: string }; status: string; events: Array<{ kind: string }> };

const STAFF = { wf_casos: ['show', 'update'], admin_cases: ['show'], wf_tareas: ['show'] };

beforeAll(async () => {
  t = await createTestApp();
  const entity = await makeEntity(t.db, ENTITY);
  const other = await makeEntity(t.db, OTHER);
  const project = await makeProject(t.db, { entity_id: entity.id });
  const otherProject = await makeProject(t.db, { entity_id: other.id });
  const protocol = await makePublishedProtocol(t.db, entity.id);
  await t.db.updateTable('protocols').set({ name: 'Ayuda de arriendo', name_en: 'Rental aid' }).where('id', '=', protocol.id).execute();
  const otherProtocol = await makePublishedProtocol(t.db, other.id);
  const users = await Promise.all([
    makeUser(t.db, entity.id, { role: 'coordinator', rules: STAFF as never, password: PASSWORD }),
    makeUser(t.db, entity.id, { role: 'reviewer', rules: { wf_casos: ['show'], wf_tareas: ['show'] } as never, password: PASSWORD }),
    makeUser(t.db, entity.id, { role: 'applicant', rules: { wf_casos: ['show', 'create'] } as never, password: PASSWORD }),
    makeUser(t.db, other.id, { role: 'coordinator', rules: STAFF as never, password: PASSWORD }),
  ]);
  [staff, reader, applicant, otherStaff] = await Promise.all(users.map((u) => login(t, u.email, PASSWORD)));
  const owner = users[2].id;
  caseId = (await makeCase(t.db, protocol, { ownerId: owner, projectId: project.id, state: 'PENDING', data: { secretNote: 'income 1234' } })).id;
  draftId = (await makeCase(t.db, protocol, { ownerId: owner, projectId: project.id })).id;
  otherCaseId = (await makeCase(t.db, otherProtocol, { ownerId: users[3].id, projectId: otherProject.id, state: 'PENDING' })).id;
  // Its history: submitted by the applicant, then a staff comment in the events that the public never sees.
  await t.db
    .insertInto('case_events')
    .values([
      { entity_id: entity.id, case_id: caseId, user_id: owner, action: 'case_submit', type: 'case', detail: JSON.stringify({}) },
      { entity_id: entity.id, case_id: caseId, user_id: users[0].id, action: 'note_added', type: 'case', detail: JSON.stringify({ note: 'staff only remark' }) },
    ] as never)
    .execute();
});
afterAll(() => t.close());

const link = (who: { sid: string }, method: 'GET' | 'POST' | 'DELETE', id = caseId) => t.request({ method, url: `/api/cases/${id}/landing-link`, cookies: who });
const page = (path: string, lang = 'en') => t.request({ method: 'GET', url: `/api${path}`, cookies: { lang } });
const links = () => t.db.selectFrom('case_landing_links').selectAll().orderBy('id').execute();

describe('landing links', () => {
  it('staff make a link: a 256-bit code in the address, only its hash kept; the page shows the public view', async () => {
    expect((await link(reader, 'GET')).json()).toEqual({ active: false, createdAt: null });
    const res = await link(reader, 'POST');
    expect(res.statusCode).toBe(201);
    const made = res.json<{ active: boolean; createdAt: string; path: string }>();
    const m = /^\/landing\/900333444\/landing-agency\/([A-Za-z0-9_-]{43})$/.exec(made.path);
    expect(m, made.path).not.toBeNull();
    const code = (m as RegExpExecArray)[1];
    expect(Buffer.from(code, 'base64url')).toHaveLength(32);
    const [stored] = await links();
    expect(Buffer.from(stored.code_hash).equals(hashCode(code))).toBe(true);
    expect(JSON.stringify(stored)).not.toContain(code);
    expect((await link(reader, 'GET')).json<{ active: boolean }>().active).toBe(true);

    const res2 = await page(made.path);
    expect(res2.statusCode).toBe(200);
    expect(res2.headers['x-robots-tag']).toBe('noindex, nofollow');
    expect(res2.headers['cache-control']).toBe('no-store');
    const body = res2.json<Page>();
    expect(body).toMatchObject({ entity: { name: 'Landing Agency', docnumber: '900333444' }, programme: { en: 'Rental aid', es: 'Ayuda de arriendo' }, status: 'submitted' });
    expect(body.number).toMatch(/^2026-01-/);
    expect(body.events.map((e) => e.kind)).toEqual(['submitted']);
    // Nothing of the form's data or the staff's notes.
    expect(res2.body).not.toContain('income 1234');
    expect(res2.body).not.toContain('staff only remark');
    expect(res2.body).not.toContain('note_added');
  });

  it('a new link revokes the one before; revoking ends it; every wrong code is the same 404', async () => {
    const first = (await link(staff, 'POST')).json<{ path: string }>().path;
    const second = (await link(staff, 'POST')).json<{ path: string }>().path;
    expect(second).not.toBe(first);
    expect((await page(first)).statusCode).toBe(404);
    expect((await page(second)).statusCode).toBe(200);
    expect((await links()).filter((l) => l.revoked_at === null)).toHaveLength(1);

    const code = second.split('/').pop() as string;
    // The same code under another entity's docnumber, a changed code, and the name does not matter.
    const wrong = [
      `/landing/${OTHER.docnumber}/landing-agency/${code}`,
      `/landing/900333444/landing-agency/${code.slice(0, -1)}${code.endsWith('A') ? 'B' : 'A'}`,
    ];
    for (const p of wrong) {
      const res = await page(p);
      expect(res.statusCode, p).toBe(404);
      expect(res.json<Err>().error.code).toBe('NOT_FOUND');
    }
    expect((await page(`/landing/900333444/any-name/${code}`)).statusCode).toBe(200);

    const revoked = await link(staff, 'DELETE');
    expect(revoked.json()).toEqual({ active: false, createdAt: null });
    const gone = await page(second);
    expect(gone.statusCode).toBe(404);
    expect(gone.body).toBe((await page(wrong[1])).body);
  });

  it('a malformed address is 400', async () => {
    for (const p of ['/landing/900333444/landing-agency/short', '/landing/900333444/Bad%20Name/' + 'a'.repeat(43), '/landing/%3Cx%3E/n/' + 'a'.repeat(43)]) {
      expect((await page(p)).statusCode, p).toBe(400);
    }
  });

  it('the page speaks the reader\'s language only through its words: the same data in Spanish', async () => {
    const path = (await link(staff, 'POST')).json<{ path: string }>().path;
    expect((await page(path, 'es')).json<Page>().programme.es).toBe('Ayuda de arriendo');
  });

  it.each([
    ['the applicant (no staff)', () => applicant, () => caseId, 403],
    ['staff of another tenant', () => otherStaff, () => caseId, 404],
    ['staff, for a draft', () => staff, () => draftId, 404],
    ['staff, for another tenant\'s case', () => staff, () => otherCaseId, 404],
  ] as const)('%s: no link is read, made or revoked', async (_who, who, id, status) => {
    const before = await links();
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const res = await link(who(), method, id());
      expect(res.statusCode, method).toBe(status);
    }
    expect(await links()).toEqual(before);
  });

  it('needs a session to make one, and a valid case id', async () => {
    expect((await t.request({ method: 'POST', url: `/api/cases/${caseId}/landing-link` })).statusCode).toBe(401);
    expect((await link(staff, 'POST', 'abc' as never)).statusCode).toBe(400);
  });
});
