import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, login, type TestApp } from '../../../tests/support/app.js';
import { makeCase, makeEntity, makeFile, makeMasterItem, makeProject, makePublishedProtocol, makeTask, makeUser } from '../../../tests/support/factories.js';

/**
 * Comments through the API: who reads which comments of a thread, numbering
 * under concurrency, the checklist derived from the latest marks, edit and
 * delete with the history, the dashboard's filters (days of the tenant's
 * zone), mention notifications, quick comments, and
 * every bad input refused with nothing stored. The tenant, its people and
 * cases are made here with the factories.
 */
const STAFF = { wf_tareas: ['show'], wf_casos: ['show'] } as const;
const ROLES = {
  coordinator: {
    ...STAFF, admin_cases: ['show'], dashboard_comments: ['show', 'update', 'delete'], historialaplicacion: ['show'],
  },
  reviewer: { ...STAFF, dashboard_comments: ['show'], historialaplicacion: ['show'] },
  applicant: { wf_casos: ['show'] },
  // A tenant may let applicants read their application's history.
  historyApplicant: { wf_casos: ['show'], historialaplicacion: ['show'] },
} as const;

type Who = { id: number; sid: string; name: string };
type Comment = {
  id: number; number: number; body: string; visibleToApplicant: boolean; caseState: string; authorId: number | null; authorName: string; taskId: number | null;
  documents: Array<{ code: string; name: string; mark: string }>; mentions: Array<{ id: number; name: string }>; version: number; actions: string[]; caseNumber: string | null;
};
type Thread = { items: Comment[]; canComment: boolean; canUseStaffTools: boolean };
type Err = { error: { code: string; message: string } };

let t: TestApp;
let entityId: number;
let projectId: number;
let protocol: Awaited<ReturnType<typeof makePublishedProtocol>>;
let coordinator: Who;
let reviewer: Who;
let applicant: Who;
let otherApplicant: Who;
let inactiveStaff: { id: number };
let foreign: Who;
let foreignCase: { id: number };

async function person(entity: number, role: keyof typeof ROLES, extra: Record<string, unknown> = {}): Promise<Who> {
  const u = await makeUser(t.db, entity, { role: `comments-${role}`, rules: ROLES[role] as never, ...extra });
  return { id: u.id, name: u.name, sid: (await login(t, u.email, 'Passw0rd1')).sid };
}

const send = (who: Who | null, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, lang = 'en') =>
  t.request({ method, url, payload, cookies: who ? { sid: who.sid, lang } : { lang } });

/** A pending case owned by the applicant. */
const newCase = (ownerId = applicant.id) => makeCase(t.db, protocol, { ownerId, projectId, state: 'PENDING', data: { firstName: 'Ana' } });
const post = (who: Who, caseId: number, body: Record<string, unknown>) => send(who, 'POST', `/api/cases/${caseId}/comments`, body);
const thread = async (who: Who, caseId: number, query = '') => (await send(who, 'GET', `/api/cases/${caseId}/comments${query}`)).json<Thread>();
const stored = async () => ({
  comments: Number((await t.db.selectFrom('comments').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n),
  marks: Number((await t.db.selectFrom('case_document_marks').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n),
  mentions: Number((await t.db.selectFrom('comment_mentions').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n),
  notifications: Number((await t.db.selectFrom('notifications').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n),
  events: Number((await t.db.selectFrom('case_events').where('type', 'in', ['comment', 'document']).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n),
});

beforeAll(async () => {
  t = await createTestApp();
  entityId = (await makeEntity(t.db)).id;
  // A tenant five hours behind UTC (no daylight saving): its days start at 05:00 UTC.
  projectId = (await makeProject(t.db, { entity_id: entityId, is_default: true, time_zone: 'America/Bogota' })).id;
  protocol = await makePublishedProtocol(t.db, entityId);
  coordinator = await person(entityId, 'coordinator');
  reviewer = await person(entityId, 'reviewer');
  applicant = await person(entityId, 'applicant');
  otherApplicant = await person(entityId, 'applicant');
  inactiveStaff = await makeUser(t.db, entityId, { role: 'comments-reviewer', active: false });
  const definiciones = await t.db.selectFrom('masters').where('entity_id', '=', entityId).where('code', '=', 'definiciones').selectAll().executeTakeFirstOrThrow();
  await makeMasterItem(t.db, definiciones, { code: 'lease', name: 'Lease (all pages)' });
  await makeMasterItem(t.db, definiciones, { code: 'bank_statement', name: 'Bank statement' });
  await makeMasterItem(t.db, definiciones, { code: 'retired', name: 'Retired document', active: false });
  const quick = await t.db.selectFrom('masters').where('entity_id', '=', entityId).where('code', '=', 'comentarios_rapidos').selectAll().executeTakeFirstOrThrow();
  await t.db
    .insertInto('master_items')
    .values([
      { entity_id: entityId, master_id: quick.id, code: 'missing', name: 'Faltan documentos.', name_en: 'Documents are missing.' },
      // Only in Spanish: English readers get the Spanish text rather than nothing.
      { entity_id: entityId, master_id: quick.id, code: 'call_us', name: 'Llámenos, por favor.' },
    ])
    .execute();

  const otherEntity = (await makeEntity(t.db)).id;
  foreign = await person(otherEntity, 'coordinator');
  const foreignProtocol = await makePublishedProtocol(t.db, otherEntity);
  foreignCase = await makeCase(t.db, foreignProtocol, { ownerId: foreign.id, state: 'PENDING' });
});
afterAll(() => t.close());

describe('the thread', () => {
  it('shows staff every comment, the owner only those visible to the applicant, and nobody else anything', async () => {
    const c = await newCase();
    expect((await post(coordinator, c.id, { body: 'Internal note' })).statusCode).toBe(201);
    const visible = await post(coordinator, c.id, { body: 'Please upload\nyour lease', visibleToApplicant: true });
    expect(visible.statusCode, visible.body).toBe(201);
    expect(visible.json<Comment>()).toMatchObject({ number: 2, body: 'Please upload\nyour lease', visibleToApplicant: true, caseState: 'PENDING', authorId: coordinator.id, authorName: coordinator.name, caseNumber: c.serial, actions: ['edit', 'delete'] });

    const staffView = await thread(reviewer, c.id);
    expect(staffView.items.map((x) => [x.number, x.body])).toEqual([[1, 'Internal note'], [2, 'Please upload\nyour lease']]);
    expect(staffView.canUseStaffTools).toBe(true);
    // The reviewer holds the dashboard's show only: no actions on another's comment.
    expect(staffView.items[0].actions).toEqual([]);

    const ownerView = await thread(applicant, c.id);
    expect(ownerView.items.map((x) => x.number)).toEqual([2]);
    expect(ownerView).toMatchObject({ canComment: true, canUseStaffTools: false });

    for (const who of [otherApplicant, foreign]) {
      const res = await send(who, 'GET', `/api/cases/${c.id}/comments`);
      expect(res.statusCode).toBe(404);
      expect(res.json<Err>().error.code).toBe('NOT_FOUND');
    }
    expect((await send(null, 'GET', `/api/cases/${c.id}/comments`)).statusCode).toBe(401);
  });

  it("lets the owner comment: always visible to them, never with the staff tools", async () => {
    const c = await newCase();
    const res = await post(applicant, c.id, { body: 'I uploaded it', visibleToApplicant: false });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<Comment>()).toMatchObject({ number: 1, visibleToApplicant: true, authorId: applicant.id, actions: ['edit', 'delete'] });
    const before = await stored();
    for (const body of [{ body: 'x', documents: [{ code: 'lease', mark: 'received' }] }, { body: 'x', mentions: [coordinator.id] }]) {
      const refused = await post(applicant, c.id, body);
      expect(refused.statusCode).toBe(403);
      expect(refused.json<Err>().error.code).toBe('FORBIDDEN');
    }
    expect(await stored()).toEqual(before);
    // An applicant's edit keeps the comment visible to them.
    const edited = await send(applicant, 'PATCH', `/api/comments/${res.json<Comment>().id}`, { version: 1, body: 'I uploaded both', visibleToApplicant: false });
    expect(edited.json<Comment>()).toMatchObject({ body: 'I uploaded both', visibleToApplicant: true, version: 2 });
  });

  it("narrows to one task's comments, and refuses a task of another case", async () => {
    const task = await makeTask(t.db, entityId, { ownerId: applicant.id, protocol });
    const other = await newCase();
    expect((await post(coordinator, task.case_id, { body: 'On the case' })).statusCode).toBe(201);
    const onTask = await post(coordinator, task.case_id, { body: 'On the task', taskId: task.id });
    expect(onTask.json<Comment>()).toMatchObject({ taskId: task.id, number: 2 });
    expect((await thread(coordinator, task.case_id, `?taskId=${task.id}`)).items.map((x) => x.body)).toEqual(['On the task']);
    const before = await stored();
    const refused = await post(coordinator, other.id, { body: 'Wrong task', taskId: task.id });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<Err>().error.code).toBe('TASK_NOT_OF_CASE');
    expect(await stored()).toEqual(before);
  });

  it('numbers ten comments posted at once 1 to 10', async () => {
    const c = await newCase();
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => post(i % 2 ? coordinator : reviewer, c.id, { body: `Comment ${i}` })));
    expect(results.map((r) => r.statusCode)).toEqual(Array(10).fill(201));
    expect(results.map((r) => r.json<Comment>().number).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect((await thread(coordinator, c.id)).items.map((x) => x.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });
});

describe('the document checklist', () => {
  it('shows the latest mark of each document; a deleted comment no longer counts; the review accepts', async () => {
    const c = await newCase();
    const first = await post(coordinator, c.id, { body: 'Missing lease and bank statement', documents: [{ code: 'lease', mark: 'missing' }, { code: 'bank_statement', mark: 'missing' }] });
    expect(first.json<Comment>().documents).toEqual([
      { code: 'lease', name: 'Lease (all pages)', mark: 'missing' },
      { code: 'bank_statement', name: 'Bank statement', mark: 'missing' },
    ]);
    const second = await post(reviewer, c.id, { body: 'Lease received', documents: [{ code: 'lease', mark: 'received' }] });
    type Item = { code: string; mark: string | null; commentNumber: number | null; byName: string | null; fileId: string | null };
    const checklist = async (who: Who = coordinator) => (await send(who, 'GET', `/api/cases/${c.id}/checklist`)).json<{ items: Item[] }>().items;

    let items = await checklist();
    // Active documents only (the retired one was never marked).
    expect(items.map((i) => i.code).sort()).toEqual(['bank_statement', 'lease']);
    expect(items.find((i) => i.code === 'lease')).toMatchObject({ mark: 'received', commentNumber: 2, byName: reviewer.name });
    expect(items.find((i) => i.code === 'bank_statement')).toMatchObject({ mark: 'missing', commentNumber: 1 });

    expect((await send(reviewer, 'DELETE', `/api/comments/${second.json<Comment>().id}`)).statusCode).toBe(204);
    items = await checklist();
    expect(items.find((i) => i.code === 'lease')).toMatchObject({ mark: 'missing', commentNumber: 1 });

    // The applicant does not see marks of internal comments.
    expect((await checklist(applicant)).every((i) => i.mark === null)).toBe(true);

    const file = await makeFile(t.db, entityId, applicant.id);
    const accepted = await send(reviewer, 'POST', `/api/cases/${c.id}/checklist/lease/accept`, { fileId: file.id });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json<{ items: Item[] }>().items.find((i) => i.code === 'lease')).toMatchObject({ mark: 'accepted', commentNumber: null, fileId: file.id, byName: reviewer.name });
    // A review's mark is seen by the applicant too.
    expect((await checklist(applicant)).find((i) => i.code === 'lease')?.mark).toBe('accepted');
    const event = await t.db.selectFrom('case_events').where('case_id', '=', c.id).where('action', '=', 'document_accepted').selectAll().executeTakeFirstOrThrow();
    expect(event).toMatchObject({ type: 'document', user_id: reviewer.id, detail: { code: 'lease', fileId: file.id } });

    const before = await stored();
    for (const [url, body, status, code] of [
      [`/api/cases/${c.id}/checklist/nope/accept`, {}, 400, 'UNKNOWN_DOCUMENT'],
      [`/api/cases/${c.id}/checklist/retired/accept`, {}, 400, 'UNKNOWN_DOCUMENT'],
      [`/api/cases/${c.id}/checklist/lease/accept`, { fileId: 'not-a-file' }, 400, 'UNKNOWN_FILE'],
      [`/api/cases/${c.id}/checklist/lease/accept`, { fileId: crypto.randomUUID() }, 400, 'UNKNOWN_FILE'],
      [`/api/cases/${foreignCase.id}/checklist/lease/accept`, {}, 404, 'NOT_FOUND'],
    ] as const) {
      const res = await send(reviewer, 'POST', url, body);
      expect(res.statusCode, url).toBe(status);
      expect(res.json<Err>().error.code).toBe(code);
    }
    const byApplicant = await send(applicant, 'POST', `/api/cases/${c.id}/checklist/lease/accept`, {});
    expect(byApplicant.statusCode).toBe(403);
    expect(await stored()).toEqual(before);
  });
});

describe('edit and delete', () => {
  it('lets the author and the dashboard editors change a comment, others not, and keeps before and after in the history', async () => {
    const c = await newCase();
    const byReviewer = (await post(reviewer, c.id, { body: 'First words' })).json<Comment>();
    const byCoordinator = (await post(coordinator, c.id, { body: 'Coordinator note' })).json<Comment>();

    // The reviewer holds the dashboard's show only: not another's comment.
    const refused = await send(reviewer, 'PATCH', `/api/comments/${byCoordinator.id}`, { version: 1, body: 'Hijacked' });
    expect(refused.statusCode).toBe(403);
    expect((await send(reviewer, 'DELETE', `/api/comments/${byCoordinator.id}`)).statusCode).toBe(403);
    // Someone who cannot see the case: as if it did not exist.
    expect((await send(otherApplicant, 'PATCH', `/api/comments/${byCoordinator.id}`, { version: 1, body: 'x' })).statusCode).toBe(404);
    expect((await send(foreign, 'DELETE', `/api/comments/${byCoordinator.id}`)).statusCode).toBe(404);
    // The applicant cannot see an internal comment at all.
    expect((await send(applicant, 'DELETE', `/api/comments/${byCoordinator.id}`)).statusCode).toBe(404);

    const own = await send(reviewer, 'PATCH', `/api/comments/${byReviewer.id}`, { version: 1, body: 'Better words', visibleToApplicant: true });
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json<Comment>()).toMatchObject({ body: 'Better words', visibleToApplicant: true, version: 2 });
    const stale = await send(reviewer, 'PATCH', `/api/comments/${byReviewer.id}`, { version: 1, body: 'Lost update' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json<Err>().error.code).toBe('CONFLICT');

    const editor = await send(coordinator, 'PATCH', `/api/comments/${byReviewer.id}`, { version: 2, body: 'Corrected by the coordinator' });
    expect(editor.statusCode).toBe(200);
    expect((await send(coordinator, 'DELETE', `/api/comments/${byReviewer.id}`)).statusCode).toBe(204);
    expect((await send(coordinator, 'DELETE', `/api/comments/${byReviewer.id}`)).statusCode).toBe(404);
    expect((await thread(coordinator, c.id)).items.map((x) => x.id)).toEqual([byCoordinator.id]);

    const history = (await send(coordinator, 'GET', `/api/cases/${c.id}/history`)).json<Array<{ action: string; type: string; userName: string; detail: Record<string, unknown>; at: string }>>();
    const comments = history.filter((e) => e.type === 'comment');
    expect(comments.map((e) => [e.action, e.userName])).toEqual([
      ['comment_added', reviewer.name],
      ['comment_added', coordinator.name],
      ['comment_edited', reviewer.name],
      ['comment_edited', coordinator.name],
      ['comment_deleted', coordinator.name],
    ]);
    expect(comments[2].detail).toMatchObject({ commentId: byReviewer.id, number: 1, from: { body: 'First words', visibleToApplicant: false }, to: { body: 'Better words', visibleToApplicant: true } });
    expect(comments[3].detail).toMatchObject({ from: { body: 'Better words' }, to: { body: 'Corrected by the coordinator', visibleToApplicant: true } });
    expect(comments[4].detail).toMatchObject({ from: { body: 'Corrected by the coordinator' }, to: null });
    expect(comments.every((e) => typeof e.at === 'string')).toBe(true);

    // A deleted comment's number is never given again.
    expect((await post(coordinator, c.id, { body: 'After the deletion' })).json<Comment>().number).toBe(3);
  });
});

describe('the comments dashboard', () => {
  it("lists the tenant's comments with filters by day (in the tenant's zone), author, case and text", async () => {
    const c = await newCase();
    const other = await newCase();
    const late = (await post(coordinator, c.id, { body: 'Late on the 9th in Bogota' })).json<Comment>();
    const early = (await post(reviewer, other.id, { body: 'Early on the 10th' })).json<Comment>();
    // 03:00 UTC on the 10th is 22:00 on the 9th in Bogota; 06:00 UTC on the 10th is 01:00 on the 10th there.
    await t.db.updateTable('comments').set({ created_at: new Date('2031-03-10T03:00:00Z') }).where('id', '=', late.id).execute();
    await t.db.updateTable('comments').set({ created_at: new Date('2031-03-10T06:00:00Z') }).where('id', '=', early.id).execute();
    const list = async (query: string, who: Who = coordinator) => {
      const res = await send(who, 'GET', `/api/comments?${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ items: Comment[]; total: number }>();
    };
    expect((await list('from=2031-03-09&to=2031-03-09')).items.map((x) => x.id)).toEqual([late.id]);
    expect((await list('from=2031-03-10&to=2031-03-10')).items.map((x) => x.id)).toEqual([early.id]);
    const both = await list('from=2031-03-09&to=2031-03-10');
    expect(both).toMatchObject({ total: 2 });
    expect(both.items.map((x) => x.id)).toEqual([early.id, late.id]);
    expect((await list('from=2031-03-09&to=2031-03-10&descending=false')).items.map((x) => x.id)).toEqual([late.id, early.id]);
    expect((await list(`from=2031-03-09&authorId=${reviewer.id}`)).items.map((x) => x.id)).toEqual([early.id]);
    expect((await list(`caseNumber=${encodeURIComponent(String(c.serial))}`)).items.map((x) => x.id)).toEqual([late.id]);
    expect((await list('search=LATE on the 9th')).items.map((x) => x.id)).toEqual([late.id]);
    // The editors' actions come with each comment.
    expect((await list(`caseNumber=${encodeURIComponent(String(other.serial))}`)).items[0].actions).toEqual(['edit', 'delete']);
    expect((await list(`caseNumber=${encodeURIComponent(String(other.serial))}`, reviewer)).items[0].actions).toEqual(['edit', 'delete']);
    expect((await list(`caseNumber=${encodeURIComponent(String(c.serial))}`, reviewer)).items[0].actions).toEqual([]);
    // Another tenant's dashboard does not hold them.
    expect((await list('from=2031-03-09&to=2031-03-10', foreign)).total).toBe(0);
    // Without the dashboard's target.
    expect((await send(applicant, 'GET', '/api/comments')).statusCode).toBe(403);
    expect((await send(coordinator, 'GET', '/api/comments?from=2031-02-30')).statusCode).toBe(400);
  });
});

describe('mentions and notifications', () => {
  it('notifies the people mentioned, who read and mark their own notifications only', async () => {
    const c = await newCase();
    const before = (await send(reviewer, 'GET', '/api/notifications')).json<{ unread: number }>().unread;
    const res = await post(coordinator, c.id, { body: '@reviewer please check', mentions: [reviewer.id, reviewer.id, coordinator.id] });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<Comment>().mentions.map((m) => m.id).sort()).toEqual([coordinator.id, reviewer.id].sort());
    type List = { items: Array<{ id: number; kind: string; caseId: number; caseNumber: string; commentId: number; byName: string; readAt: string | null }>; unread: number };
    const list = (await send(reviewer, 'GET', '/api/notifications')).json<List>();
    expect(list.unread).toBe(before + 1);
    expect(list.items[0]).toMatchObject({ kind: 'mention', caseId: c.id, caseNumber: c.serial, commentId: res.json<Comment>().id, byName: coordinator.name, readAt: null });
    // The author is not notified of mentioning themself.
    expect((await send(coordinator, 'GET', '/api/notifications')).json<List>().items.filter((n) => n.caseId === c.id)).toEqual([]);

    expect((await send(coordinator, 'POST', `/api/notifications/${list.items[0].id}/read`)).statusCode).toBe(404);
    expect((await send(reviewer, 'POST', `/api/notifications/${list.items[0].id}/read`)).statusCode).toBe(204);
    const after = (await send(reviewer, 'GET', '/api/notifications')).json<List>();
    expect(after.unread).toBe(before);
    expect(after.items[0].readAt).not.toBeNull();

    await post(coordinator, c.id, { body: 'Again @reviewer', mentions: [reviewer.id] });
    await post(coordinator, c.id, { body: 'And again @reviewer', mentions: [reviewer.id] });
    expect((await send(reviewer, 'GET', '/api/notifications')).json<List>().unread).toBe(2);
    const all = await send(reviewer, 'POST', '/api/notifications/read-all');
    expect(all.json()).toEqual({ unread: 0 });
    expect((await send(reviewer, 'GET', '/api/notifications')).json<List>().unread).toBe(0);
  });

  it('offers the active staff of the tenant to mention, to staff only', async () => {
    const res = (await send(coordinator, 'GET', `/api/comments/mentionable?search=${encodeURIComponent(reviewer.name)}`)).json<{ items: Array<{ id: number }> }>();
    expect(res.items.map((u) => u.id)).toEqual([reviewer.id]);
    const everyone = (await send(coordinator, 'GET', '/api/comments/mentionable')).json<{ items: Array<{ id: number }> }>().items.map((u) => u.id);
    expect(everyone).toEqual(expect.arrayContaining([coordinator.id, reviewer.id]));
    for (const id of [applicant.id, inactiveStaff.id, foreign.id]) expect(everyone).not.toContain(id);
    expect((await send(applicant, 'GET', '/api/comments/mentionable')).statusCode).toBe(403);
  });
});

describe('quick comments', () => {
  it("come in the reader's language", async () => {
    const en = (await send(coordinator, 'GET', '/api/comments/quick', undefined, 'en')).json<{ items: Array<{ code: string; text: string }> }>();
    expect(en.items).toEqual([{ code: 'missing', text: 'Documents are missing.' }, { code: 'call_us', text: 'Llámenos, por favor.' }]);
    const es = (await send(coordinator, 'GET', '/api/comments/quick', undefined, 'es')).json<{ items: Array<{ code: string; text: string }> }>();
    expect(es.items).toEqual([{ code: 'missing', text: 'Faltan documentos.' }, { code: 'call_us', text: 'Llámenos, por favor.' }]);
    // Another tenant has its own (none here).
    expect((await send(foreign, 'GET', '/api/comments/quick')).json<{ items: unknown[] }>().items).toEqual([]);
  });
});

describe('bad input', () => {
  it('refuses each with a clear 4xx and stores nothing', async () => {
    const c = await newCase();
    const draft = await makeCase(t.db, protocol, { ownerId: applicant.id, projectId });
    const before = await stored();
    const cases: Array<[string, number, Record<string, unknown>, number, string]> = [
      ['empty', c.id, { body: '' }, 400, 'VALIDATION'],
      ['only spaces', c.id, { body: '   \n ' }, 400, 'VALIDATION'],
      ['over-long', c.id, { body: 'x'.repeat(5001) }, 400, 'VALIDATION'],
      ["another tenant's case", foreignCase.id, { body: 'Hello' }, 404, 'NOT_FOUND'],
      ['a case that does not exist', 999_999_999, { body: 'Hello' }, 404, 'NOT_FOUND'],
      ['a draft', draft.id, { body: 'Hello' }, 404, 'NOT_FOUND'],
      ["a mention of another tenant's user", c.id, { body: '@foreign', mentions: [foreign.id] }, 400, 'INVALID_MENTION'],
      ['a mention of someone who is not staff', c.id, { body: '@applicant', mentions: [applicant.id] }, 400, 'INVALID_MENTION'],
      ['a mention of an inactive person', c.id, { body: '@gone', mentions: [inactiveStaff.id] }, 400, 'INVALID_MENTION'],
      ['a mention of nobody', c.id, { body: '@nobody', mentions: [999_999_999] }, 400, 'INVALID_MENTION'],
      ['an unknown document', c.id, { body: 'Docs', documents: [{ code: 'passport', mark: 'missing' }] }, 400, 'UNKNOWN_DOCUMENT'],
      ['a retired document', c.id, { body: 'Docs', documents: [{ code: 'retired', mark: 'missing' }] }, 400, 'UNKNOWN_DOCUMENT'],
      ['a review mark in a comment', c.id, { body: 'Docs', documents: [{ code: 'lease', mark: 'accepted' }] }, 400, 'VALIDATION'],
      ['a task that does not exist', c.id, { body: 'Task', taskId: 999_999_999 }, 400, 'TASK_NOT_OF_CASE'],
      ['an unknown field', c.id, { body: 'Hello', html: '<b>x</b>' }, 400, 'VALIDATION'],
    ];
    for (const [label, caseId, body, status, code] of cases) {
      const res = await send(coordinator, 'POST', `/api/cases/${caseId}/comments`, body, 'es');
      expect(res.statusCode, label).toBe(status);
      const error = res.json<Err>().error;
      expect(error.code, label).toBe(code);
      expect(error.message, label).not.toBe('');
    }
    expect(await stored()).toEqual(before);
    // The message is in the caller's language.
    const es = (await send(coordinator, 'POST', `/api/cases/${c.id}/comments`, { body: 'x', mentions: [foreign.id] }, 'es')).json<Err>();
    expect(es.error.message).toBe('Solo se puede mencionar a personal activo de esta entidad.');
    const unknown = (await send(coordinator, 'POST', `/api/cases/${c.id}/comments`, { body: 'x', documents: [{ code: 'passport', mark: 'missing' }] }, 'en')).json<Err>();
    expect(unknown.error.message).toBe('"passport" is not a document of the checklist.');

    // A comment's text is kept as written, never as HTML.
    const html = await post(coordinator, c.id, { body: '<script>alert(1)</script> https://example.org' });
    expect(html.json<Comment>().body).toBe('<script>alert(1)</script> https://example.org');
    // Edits are checked the same way.
    const id = html.json<Comment>().id;
    for (const body of [{ version: 1, body: '' }, { version: 1, body: 'x'.repeat(5001) }, { body: 'no version' }]) {
      expect((await send(coordinator, 'PATCH', `/api/comments/${id}`, body)).statusCode).toBe(400);
    }
    expect((await send(coordinator, 'PATCH', `/api/comments/999999999`, { version: 1, body: 'x' })).statusCode).toBe(404);
  });
});

describe('the case history of an applicant allowed to read it', () => {
  it('holds no comment events: internal comments (and what an edit changed) stay with staff', async () => {
    const reader = await person(entityId, 'historyApplicant');
    const c = await newCase(reader.id);
    expect((await post(coordinator, c.id, { body: 'Internal: check the landlord first.' })).statusCode).toBe(201);
    expect((await post(coordinator, c.id, { body: 'Please upload your lease.', visibleToApplicant: true })).statusCode).toBe(201);
    const staffSide = (await send(coordinator, 'GET', `/api/cases/${c.id}/history`)).json<Array<{ type: string }>>();
    expect(staffSide.filter((e) => e.type === 'comment')).toHaveLength(2);
    const res = await send(reader, 'GET', `/api/cases/${c.id}/history`);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('Internal: check the landlord first.');
    expect(res.json<Array<{ type: string }>>().filter((e) => e.type === 'comment')).toEqual([]);
    // The comments visible to them are in their thread.
    expect((await thread(reader, c.id)).items.map((x) => x.body)).toEqual(['Please upload your lease.']);
  });
});
