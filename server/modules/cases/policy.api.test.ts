import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, login, type TestApp } from '../../../tests/support/app.js';
import { makeCase, makeEntity, makeProject, makePublishedProtocol, makeUser } from '../../../tests/support/factories.js';

/**
 * Who may do what to a case, through the API, as a table written out here:
 * a role (the rights it holds) x its relation to the case x an action ->
 * the status. 403: the role lacks the route's target (or correcting data or
 * returning it for correction, which are staff work); 404: the case is not one the role may see (staff see
 * every case of their tenant; anyone else the cases they own or take part
 * in; nobody another tenant's). Each row acts on a case of its own, and a
 * refused write leaves it as it was. The tenant, its people and its cases
 * are made here with the factories; the demo seed plays no part.
 */
const ROLES = {
  applicant: { wf_casos: ['show'], historialaplicacion: ['show'], aplicacionessimilares: ['show'] },
  /** Every case target, no staff rights: a custom role an administrator may well make. */
  caseClerk: {
    wf_casos: ['show', 'update'], wf_cerrar_caso: ['confirm'], change_owner_case: ['update'], wf_casos_participantes: ['update'],
    aplicacionessimilares: ['show'], historialaplicacion: ['show'],
  },
  reviewer: { wf_tareas: ['show'], wf_casos: ['show', 'update'], historialaplicacion: ['show'] },
  coordinator: {
    wf_tareas: ['show'], admin_cases: ['show', 'update'], wf_casos: ['show', 'update'], wf_cerrar_caso: ['confirm'], change_owner_case: ['update'],
    wf_casos_participantes: ['update'], aplicacionessimilares: ['show'], historialaplicacion: ['show'],
  },
} as const;
type Role = keyof typeof ROLES;

const RELATIONS = ['owner', 'participant', 'none', 'otherTenant'] as const;
type Relation = (typeof RELATIONS)[number];

type Action = 'read' | 'history' | 'similar' | 'close' | 'changeOwner' | 'participants' | 'correctData' | 'returnForCorrection';
const WRITES: ReadonlySet<Action> = new Set(['close', 'changeOwner', 'participants', 'correctData', 'returnForCorrection']);

//                                 owner participant none otherTenant
const TABLE: Record<Role, Record<Action, [number, number, number, number]>> = {
  applicant: {
    read: [200, 200, 404, 404],
    history: [200, 200, 404, 404],
    similar: [200, 200, 404, 404],
    close: [403, 403, 403, 403],
    changeOwner: [403, 403, 403, 403],
    participants: [403, 403, 403, 403],
    correctData: [403, 403, 403, 403],
    returnForCorrection: [403, 403, 403, 403],
  },
  caseClerk: {
    read: [200, 200, 404, 404],
    history: [200, 200, 404, 404],
    similar: [200, 200, 404, 404],
    close: [200, 200, 404, 404],
    changeOwner: [200, 200, 404, 404],
    participants: [200, 200, 404, 404],
    correctData: [403, 403, 403, 403],
    returnForCorrection: [403, 403, 403, 403],
  },
  reviewer: {
    read: [200, 200, 200, 404],
    history: [200, 200, 200, 404],
    similar: [403, 403, 403, 403],
    close: [403, 403, 403, 403],
    changeOwner: [403, 403, 403, 403],
    participants: [403, 403, 403, 403],
    correctData: [200, 200, 200, 404],
    returnForCorrection: [201, 201, 201, 404],
  },
  coordinator: {
    read: [200, 200, 200, 404],
    history: [200, 200, 200, 404],
    similar: [200, 200, 200, 404],
    close: [200, 200, 200, 404],
    changeOwner: [200, 200, 200, 404],
    participants: [200, 200, 200, 404],
    correctData: [200, 200, 200, 404],
    returnForCorrection: [201, 201, 201, 404],
  },
};

let t: TestApp;
let entityId: number;
let projectId: number;
let protocol: Awaited<ReturnType<typeof makePublishedProtocol>>;
let other: { entityId: number; projectId: number; protocol: Awaited<ReturnType<typeof makePublishedProtocol>>; ownerId: number };
let someone: { id: number };
const people = {} as Record<Role, { id: number; sid: string }>;

beforeAll(async () => {
  t = await createTestApp();
  entityId = (await makeEntity(t.db)).id;
  projectId = (await makeProject(t.db, { entity_id: entityId })).id;
  protocol = await makePublishedProtocol(t.db, entityId);
  someone = await makeUser(t.db, entityId);
  for (const role of Object.keys(ROLES) as Role[]) {
    const user = await makeUser(t.db, entityId, { role: `policy-${role}`, rules: ROLES[role] as never });
    people[role] = { id: user.id, sid: (await login(t, user.email, 'Passw0rd1')).sid };
  }
  const otherEntity = (await makeEntity(t.db)).id;
  other = {
    entityId: otherEntity,
    projectId: (await makeProject(t.db, { entity_id: otherEntity })).id,
    protocol: await makePublishedProtocol(t.db, otherEntity),
    ownerId: (await makeUser(t.db, otherEntity)).id,
  };
});
afterAll(() => t.close());

/** A pending case in the given relation to the user. */
async function caseFor(relation: Relation, userId: number) {
  if (relation === 'otherTenant') return makeCase(t.db, other.protocol, { ownerId: other.ownerId, projectId: other.projectId, state: 'PENDING', data: { firstName: 'Ana' } });
  const ownerId = relation === 'owner' ? userId : someone.id;
  return makeCase(t.db, protocol, { ownerId, projectId, state: 'PENDING', data: { firstName: 'Ana' }, participantIds: relation === 'participant' ? [userId] : [] });
}

function request(action: Action, c: { id: number; version: number }, sid: string) {
  const url = `/api/cases/${c.id}`;
  const send = (method: 'GET' | 'POST' | 'PUT', path: string, payload?: object) => t.request({ method, url: `${url}${path}`, cookies: { sid, lang: 'en' }, payload });
  switch (action) {
    case 'read':
      return send('GET', '');
    case 'history':
      return send('GET', '/history');
    case 'similar':
      return send('GET', '/similar');
    case 'close':
      return send('POST', '/close', { reason: 'policy table' });
    case 'changeOwner':
      return send('PUT', '/owner', { userId: someone.id });
    case 'participants':
      return send('PUT', '/participants', { userIds: [someone.id] });
    case 'correctData':
      return send('PUT', '/data', { data: { firstName: 'Corrected' }, version: c.version });
    case 'returnForCorrection':
      return send('POST', '/correction', { reason: 'policy table', fields: ['firstName'], version: c.version });
  }
}

const rows = (Object.keys(TABLE) as Role[]).flatMap((role) =>
  (Object.keys(TABLE[role]) as Action[]).flatMap((action) => RELATIONS.map((relation, i) => [role, relation, action, TABLE[role][action][i]] as const)),
);

describe('the case policy, through the API', () => {
  it.each(rows)('%s, %s of the case: %s -> %i', async (role, relation, action, status) => {
    const person = people[role];
    const c = await caseFor(relation, person.id);
    const before = await t.db.selectFrom('cases').where('id', '=', c.id).select(['state', 'owner_id', 'data', 'version']).executeTakeFirstOrThrow();
    const participantsBefore = await t.db.selectFrom('case_participants').where('case_id', '=', c.id).select('user_id').execute();
    const res = await request(action, c, person.sid);
    expect(res.statusCode, res.body).toBe(status);
    if (status >= 400) {
      expect(res.json<{ error: { code: string } }>().error.code).toBe(status === 404 ? 'NOT_FOUND' : 'FORBIDDEN');
      // Refused: nothing changed.
      expect(await t.db.selectFrom('cases').where('id', '=', c.id).select(['state', 'owner_id', 'data', 'version']).executeTakeFirstOrThrow()).toEqual(before);
      expect(await t.db.selectFrom('case_participants').where('case_id', '=', c.id).select('user_id').execute()).toEqual(participantsBefore);
    } else if (action === 'participants') {
      expect(await t.db.selectFrom('case_participants').where('case_id', '=', c.id).select('user_id').execute()).toEqual([{ user_id: someone.id }]);
    } else if (WRITES.has(action)) {
      expect((await t.db.selectFrom('cases').where('id', '=', c.id).select('version').executeTakeFirstOrThrow()).version).toBeGreaterThan(before.version);
    }
  });

  it('sends with each case the actions its reader may take, as the table allows them', async () => {
    const expected: Record<Role, string[]> = {
      applicant: [],
      caseClerk: ['close', 'changeOwner', 'participants'],
      reviewer: ['editData', 'returnForCorrection'],
      coordinator: ['close', 'changeOwner', 'participants', 'editData', 'returnForCorrection'],
    };
    for (const role of Object.keys(expected) as Role[]) {
      const c = await caseFor('owner', people[role].id);
      const res = await t.request({ method: 'GET', url: `/api/cases/${c.id}`, cookies: { sid: people[role].sid } });
      expect(res.json<{ actions: string[] }>().actions, role).toEqual(expected[role]);
    }
  });
});
