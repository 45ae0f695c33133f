import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, login, type TestApp } from '../../../tests/support/app.js';
import { makeCase, makeEntity, makeFile, makeProject, makeProtocol, makeUser } from '../../../tests/support/factories.js';

/**
 * Who gets a download link to a file (GET /api/files/:id/link), by relation
 * to the file and to the record that holds it. A link is the file itself for
 * five minutes, so it is given by the record's rule: the uploader always;
 * staff (task or case administration) for anything of the tenant but
 * another person's draft; the owner and participants of a submitted case; a
 * draft's owner alone. Everyone else, and every other tenant, gets 404.
 */

// Rules written out here, not read from the demo seed.
const APPLICANT = { wf_casos: ['show', 'create'], borradores: ['show', 'create', 'create_drafts'] };
const STAFF = { wf_casos: ['show'], wf_tareas: ['show', 'update', 'accept', 'reject'] };

type Who = 'uploader' | 'staff of the tenant' | 'owner of the case' | 'participant of the case' | 'another applicant' | 'a user of another tenant';
type Where = 'in a submitted case' | 'in a draft' | 'an orphan upload';

const ALLOWED = 200;
const NOT_FOUND = 404;

// prettier-ignore
const TABLE: Array<[Who, Record<Where, number>]> = [
  //                             submitted case                   draft                        orphan upload
  ['uploader',                  { 'in a submitted case': ALLOWED,   'in a draft': ALLOWED,   'an orphan upload': ALLOWED }],
  ['staff of the tenant',       { 'in a submitted case': ALLOWED,   'in a draft': NOT_FOUND, 'an orphan upload': ALLOWED }],
  ['owner of the case',         { 'in a submitted case': ALLOWED,   'in a draft': ALLOWED,   'an orphan upload': NOT_FOUND }],
  ['participant of the case',   { 'in a submitted case': ALLOWED,   'in a draft': NOT_FOUND, 'an orphan upload': NOT_FOUND }],
  ['another applicant',         { 'in a submitted case': NOT_FOUND, 'in a draft': NOT_FOUND, 'an orphan upload': NOT_FOUND }],
  ['a user of another tenant',  { 'in a submitted case': NOT_FOUND, 'in a draft': NOT_FOUND, 'an orphan upload': NOT_FOUND }],
];
const ROWS = TABLE.flatMap(([who, byWhere]) => Object.entries(byWhere).map(([where, status]) => [who, where as Where, status] as const));

let t: TestApp;
const sessions = new Map<Who, { sid: string }>();
const files = new Map<Where, string>();

beforeAll(async () => {
  t = await createTestApp();
  const entity = await makeEntity(t.db);
  const elsewhere = await makeEntity(t.db);
  const project = await makeProject(t.db, { entity_id: entity.id });
  await makeProject(t.db, { entity_id: elsewhere.id });
  const users: Record<Who, { id: number; email: string }> = {
    uploader: await makeUser(t.db, entity.id, { role: 'applicant', rules: APPLICANT as never }),
    'staff of the tenant': await makeUser(t.db, entity.id, { role: 'staff', rules: STAFF as never }),
    'owner of the case': await makeUser(t.db, entity.id, { role: 'applicant' }),
    'participant of the case': await makeUser(t.db, entity.id, { role: 'applicant' }),
    'another applicant': await makeUser(t.db, entity.id, { role: 'applicant' }),
    // Staff there: the tenant is the boundary, whatever the rights.
    'a user of another tenant': await makeUser(t.db, elsewhere.id, { role: 'staff', rules: STAFF as never }),
  };
  for (const [who, user] of Object.entries(users) as Array<[Who, { email: string }]>) sessions.set(who, await login(t, user.email, 'Passw0rd1'));

  const uploader = users.uploader.id;
  const protocol = await makeProtocol(t.db, entity.id);
  const held = (id: string) => ({ firstName: 'Ana', proof: [{ id, name: 'proof.pdf' }] });
  const inCase = (await makeFile(t.db, entity.id, uploader)).id;
  await makeCase(t.db, protocol, { projectId: project.id, ownerId: users['owner of the case'].id, state: 'PENDING', data: held(inCase), participantIds: [users['participant of the case'].id] });
  const inDraft = (await makeFile(t.db, entity.id, uploader)).id;
  await makeCase(t.db, protocol, { projectId: project.id, ownerId: users['owner of the case'].id, state: 'DRAFT', data: held(inDraft), participantIds: [users['participant of the case'].id] });
  const orphan = (await makeFile(t.db, entity.id, uploader)).id;
  files.set('in a submitted case', inCase).set('in a draft', inDraft).set('an orphan upload', orphan);
});
afterAll(() => t.close());

describe('a link to a file', () => {
  it.each(ROWS)('%s, file %s: %i', async (who, where, status) => {
    const res = await t.request({ method: 'GET', url: `/api/files/${files.get(where)}/link`, cookies: sessions.get(who) });
    expect(res.statusCode, res.body).toBe(status);
    if (status === ALLOWED) expect(res.json<{ url: string }>().url).toContain(files.get(where));
  });
});
