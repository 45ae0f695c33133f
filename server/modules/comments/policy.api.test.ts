import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, login, type TestApp } from '../../../tests/support/app.js';
import { makeCase, makeEntity, makeMasterItem, makeProject, makePublishedProtocol, makeUser } from '../../../tests/support/factories.js';

/**
 * Who may do what with comments, through the API, as a table written out
 * here: a role (the rights it holds) x its relation to the case x an action
 * -> the status. 404: the case (or the comment) is not one the role may see
 * (staff see every case of their tenant; anyone else the cases they own or
 * take part in; nobody another tenant's). 403: a staff tool (accepting a
 * document) for someone who is not staff, or another's comment without the
 * dashboard's update / delete. Each row acts on a case of its own, with one
 * comment by someone else, visible to the applicant; a refused write leaves
 * the comments, the marks and the history as they were.
 */
const ROLES = {
  applicant: { wf_casos: ['show'] },
  /** Staff who hold the dashboard's show only. */
  reviewer: { wf_tareas: ['show'], wf_casos: ['show'], dashboard_comments: ['show'] },
  /** Staff with the dashboard's update and delete. */
  coordinator: { wf_tareas: ['show'], admin_cases: ['show'], wf_casos: ['show'], dashboard_comments: ['show', 'update', 'delete'] },
  /** Case administration alone is staff too. */
  caseAdmin: { admin_cases: ['show'], wf_casos: ['show'] },
} as const;
type Role = keyof typeof ROLES;

const RELATIONS = ['owner', 'participant', 'none', 'otherTenant'] as const;
type Relation = (typeof RELATIONS)[number];

type Action = 'read' | 'post' | 'checklist' | 'accept' | 'editOthers' | 'deleteOthers';
const WRITES: ReadonlySet<Action> = new Set(['post', 'accept', 'editOthers', 'deleteOthers']);

//                                 owner participant none otherTenant
const TABLE: Record<Role, Record<Action, [number, number, number, number]>> = {
  applicant: {
    read: [200, 200, 404, 404],
    post: [201, 201, 404, 404],
    checklist: [200, 200, 404, 404],
    accept: [403, 403, 403, 403],
    editOthers: [403, 403, 404, 404],
    deleteOthers: [403, 403, 404, 404],
  },
  reviewer: {
    read: [200, 200, 200, 404],
    post: [201, 201, 201, 404],
    checklist: [200, 200, 200, 404],
    accept: [200, 200, 200, 404],
    editOthers: [403, 403, 403, 404],
    deleteOthers: [403, 403, 403, 404],
  },
  coordinator: {
    read: [200, 200, 200, 404],
    post: [201, 201, 201, 404],
    checklist: [200, 200, 200, 404],
    accept: [200, 200, 200, 404],
    editOthers: [200, 200, 200, 404],
    deleteOthers: [204, 204, 204, 404],
  },
  caseAdmin: {
    read: [200, 200, 200, 404],
    post: [201, 201, 201, 404],
    checklist: [200, 200, 200, 404],
    accept: [200, 200, 200, 404],
    editOthers: [403, 403, 403, 404],
    deleteOthers: [403, 403, 403, 404],
  },
};

let t: TestApp;
let entityId: number;
let projectId: number;
let protocol: Awaited<ReturnType<typeof makePublishedProtocol>>;
let other: { entityId: number; protocol: Awaited<ReturnType<typeof makePublishedProtocol>>; ownerId: number };
let someone: { id: number };
const people = {} as Record<Role, { id: number; sid: string }>;

beforeAll(async () => {
  t = await createTestApp();
  entityId = (await makeEntity(t.db)).id;
  projectId = (await makeProject(t.db, { entity_id: entityId, is_default: true })).id;
  protocol = await makePublishedProtocol(t.db, entityId);
  someone = await makeUser(t.db, entityId);
  for (const role of Object.keys(ROLES) as Role[]) {
    const user = await makeUser(t.db, entityId, { role: `comment-policy-${role}`, rules: ROLES[role] as never });
    people[role] = { id: user.id, sid: (await login(t, user.email, 'Passw0rd1')).sid };
  }
  const otherEntity = (await makeEntity(t.db)).id;
  for (const id of [entityId, otherEntity]) {
    const definiciones = await t.db.selectFrom('masters').where('entity_id', '=', id).where('code', '=', 'definiciones').selectAll().executeTakeFirstOrThrow();
    await makeMasterItem(t.db, definiciones, { code: 'lease', name: 'Lease' });
  }
  other = { entityId: otherEntity, protocol: await makePublishedProtocol(t.db, otherEntity), ownerId: (await makeUser(t.db, otherEntity)).id };
});
afterAll(() => t.close());

/** A pending case in the given relation to the user, with one comment by someone else, visible to the applicant. */
async function caseFor(relation: Relation, userId: number) {
  const c =
    relation === 'otherTenant'
      ? await makeCase(t.db, other.protocol, { ownerId: other.ownerId, state: 'PENDING' })
      : await makeCase(t.db, protocol, { ownerId: relation === 'owner' ? userId : someone.id, projectId, state: 'PENDING', participantIds: relation === 'participant' ? [userId] : [] });
  const comment = await t.db
    .insertInto('comments')
    .values({ entity_id: c.entity_id, case_id: c.id, number: 1, body: 'By someone else', visible_to_applicant: true, case_state: 'PENDING', author_id: relation === 'otherTenant' ? other.ownerId : someone.id })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { ...c, commentId: comment.id };
}

function request(action: Action, c: { id: number; commentId: number }, sid: string) {
  const send = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) => t.request({ method, url, cookies: { sid, lang: 'en' }, payload });
  switch (action) {
    case 'read':
      return send('GET', `/api/cases/${c.id}/comments`);
    case 'post':
      return send('POST', `/api/cases/${c.id}/comments`, { body: 'From the policy table', visibleToApplicant: true });
    case 'checklist':
      return send('GET', `/api/cases/${c.id}/checklist`);
    case 'accept':
      return send('POST', `/api/cases/${c.id}/checklist/lease/accept`, {});
    case 'editOthers':
      return send('PATCH', `/api/comments/${c.commentId}`, { version: 1, body: 'Edited by the policy table' });
    case 'deleteOthers':
      return send('DELETE', `/api/comments/${c.commentId}`);
  }
}

const snapshot = async (caseId: number) => ({
  comments: await t.db.selectFrom('comments').where('case_id', '=', caseId).select(['id', 'body', 'version', 'deleted_at']).orderBy('id').execute(),
  marks: await t.db.selectFrom('case_document_marks').where('case_id', '=', caseId).select('id').execute(),
  events: await t.db.selectFrom('case_events').where('case_id', '=', caseId).select('id').execute(),
});

const rows = (Object.keys(TABLE) as Role[]).flatMap((role) =>
  (Object.keys(TABLE[role]) as Action[]).flatMap((action) => RELATIONS.map((relation, i) => [role, relation, action, TABLE[role][action][i]] as const)),
);

describe('the comment policy, through the API', () => {
  it.each(rows)('%s, %s of the case: %s -> %i', async (role, relation, action, status) => {
    const person = people[role];
    const c = await caseFor(relation, person.id);
    const before = await snapshot(c.id);
    const res = await request(action, c, person.sid);
    expect(res.statusCode, res.body).toBe(status);
    const after = await snapshot(c.id);
    if (status >= 400) {
      expect(res.json<{ error: { code: string } }>().error.code).toBe(status === 404 ? 'NOT_FOUND' : 'FORBIDDEN');
      expect(after).toEqual(before);
    } else if (WRITES.has(action)) {
      // A write that went through is in the history.
      expect(after.events.length).toBe(before.events.length + 1);
    } else {
      expect(after).toEqual(before);
    }
  });

  it('sends with each comment the actions its reader may take, and whether the staff tools are theirs', async () => {
    const expected: Record<Role, { others: string[]; staffTools: boolean }> = {
      applicant: { others: [], staffTools: false },
      reviewer: { others: [], staffTools: true },
      coordinator: { others: ['edit', 'delete'], staffTools: true },
      caseAdmin: { others: [], staffTools: true },
    };
    for (const role of Object.keys(expected) as Role[]) {
      const c = await caseFor('owner', people[role].id);
      await request('post', c, people[role].sid);
      const res = (await request('read', c, people[role].sid)).json<{ items: Array<{ authorId: number; actions: string[] }>; canUseStaffTools: boolean }>();
      expect(res.canUseStaffTools, role).toBe(expected[role].staffTools);
      expect(res.items.find((x) => x.authorId === someone.id)?.actions, role).toEqual(expected[role].others);
      // Their own comment: always edit and delete.
      expect(res.items.find((x) => x.authorId === people[role].id)?.actions, role).toEqual(['edit', 'delete']);
    }
  });
});
