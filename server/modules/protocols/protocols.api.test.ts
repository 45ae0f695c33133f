import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, login, type TestApp } from '../../../tests/support/app.js';

let t: TestApp;
let coordinator: { sid: string };
let reviewer: { sid: string };
let other: { sid: string };
beforeAll(async () => {
  t = await createTestApp({ demo: true, workflow: true });
  [coordinator, reviewer, other] = await Promise.all(['coordinator@demo.test', 'reviewer@demo.test', 'admin@other.test'].map((e) => login(t, e)));
});
afterAll(() => t.close());

type Err = { error: { code: string; message: string; details?: Array<{ path: string; message: string }> } };
type Detail = { id: number; code: string; publishedVersion: number | null; publicUrl: string; definition: { tasks: Array<{ code: string; formId: number | null }> }; changedSincePublished: boolean; versions: unknown[] };
const req = (method: string, url: string, who: { sid: string }, payload?: unknown, lang = 'en') =>
  t.request({ method: method as 'GET', url, cookies: { ...who, lang }, payload: payload as string });
const rental = async () => (await req('GET', '/api/protocols?search=rental', coordinator)).json<{ items: Detail[] }>().items[0];
const formId = async (code: string) => (await t.db.selectFrom('forms').where('code', '=', code).select('id').executeTakeFirstOrThrow()).id;

describe('protocols', () => {
  it('list with the public URL and counts', async () => {
    const p = await rental();
    expect(p).toMatchObject({ code: 'rental-assistance', publishedVersion: 1, publicUrl: 'http://localhost:3000/publico/900100200/rental-assistance' });
    expect((await req('GET', '/api/protocols', reviewer)).statusCode).toBe(403);
  });

  it('refuse a definition with a missing start, unknown forms or a loop that never ends, naming each', async () => {
    const main = await formId('rental-application');
    const base = { code: 'broken', name: 'Broken', caseType: 'RADICACION_INTERNA', mainFormId: main };
    const noStart = await req('POST', '/api/protocols', coordinator, { ...base, definition: { tasks: [{ code: 'a', name: 'A', responsible: { kind: 'owner' } }] } });
    expect(noStart.statusCode).toBe(422);
    expect(noStart.json<Err>().error.details).toContainEqual({ path: 'start', message: 'Choose the task a case starts with' });
    const loop = await req('POST', '/api/protocols', coordinator, {
      ...base,
      definition: { start: ['a'], tasks: [{ code: 'a', name: 'A', formId: 999999, responsible: { kind: 'owner' }, onAccept: [{ to: 'b' }] }, { code: 'b', name: 'B', responsible: { kind: 'owner' }, onAccept: [{ to: 'a' }] }] },
    });
    const messages = loop.json<Err>().error.details?.map((d) => `${d.path}: ${d.message}`) ?? [];
    expect(messages).toContain('tasks.a: From this task a case could go round for ever: give the loop a way out');
    expect(await t.db.selectFrom('protocols').where('code', '=', 'broken').select('id').executeTakeFirst()).toBeUndefined();
  });

  it('publish a frozen version: running cases keep theirs, new cases get the new one', async () => {
    const p = await rental();
    const before = (await req('GET', `/api/protocols/${p.id}`, coordinator)).json<Detail & { name: string; description: string; caseType: string; public: boolean; mainFormId: number }>();
    const edited = structuredClone(before.definition) as unknown as { tasks: Array<{ code: string; name: string }> };
    edited.tasks[0].name = 'Intake review (v2)';
    const saved = await req('PUT', `/api/protocols/${p.id}`, coordinator, { code: before.code, name: before.name, description: before.description, caseType: before.caseType, public: before.public, mainFormId: before.mainFormId, definition: edited });
    expect(saved.json<Detail>().changedSincePublished).toBe(true);
    const published = (await req('POST', `/api/protocols/${p.id}/publish`, coordinator)).json<Detail>();
    expect(published.publishedVersion).toBe(2);
    expect(published.changedSincePublished).toBe(false);
    const versions = await t.db.selectFrom('cases').where('protocol_id', '=', p.id).where('state', '<>', 'DRAFT').select('protocol_version_id').distinct().execute();
    expect(versions).toHaveLength(1); // every running case still on version 1
  });

  it('export one JSON file and import it into another tenant, forms included', async () => {
    const p = await rental();
    const file = await req('GET', `/api/protocols/${p.id}/export`, coordinator);
    expect(file.headers['content-disposition']).toBe('attachment; filename="protocol-rental-assistance.json"');
    const exported = file.json<{ forms: unknown[]; teams: Record<string, string>; protocol: { definition: { tasks: Array<{ formId: string | null }> } } }>();
    expect(exported.forms).toHaveLength(6);
    expect(exported.protocol.definition.tasks[0].formId).toBe('intake-review');
    // The other tenant lacks the teams: refused, and nothing is created.
    const otherForms = () => t.db.selectFrom('forms').innerJoin('entities', 'entities.id', 'forms.entity_id').where('entities.docnumber', '=', '900300400').select('forms.id').execute();
    const before = (await otherForms()).length;
    const refused = await req('POST', '/api/protocols/import', other, exported);
    expect(refused.statusCode).toBe(422);
    expect(refused.json<Err>().error.details?.[0].message).toBe('This team does not exist');
    expect((await otherForms()).length).toBe(before);
    // Once the teams exist there, the import goes through whole.
    for (const name of new Set(Object.values(exported.teams))) expect((await req('POST', '/api/teams', other, { name })).statusCode).toBe(201);
    const imported = await req('POST', '/api/protocols/import', other, exported);
    expect(imported.statusCode).toBe(201);
    const d = imported.json<Detail>();
    expect(d.publishedVersion).toBeNull();
    expect(d.definition.tasks.every((x) => x.formId === null || typeof x.formId === 'number')).toBe(true);
    expect((await req('POST', `/api/protocols/${d.id}/publish`, other)).statusCode).toBe(200);
  });

  it('refuse an import that is not an export', async () => {
    for (const bad of [{}, { format: 'other' }, { format: 'casebook-protocol', formatVersion: 1, protocol: { code: 'X Y' }, forms: [] }]) {
      expect((await req('POST', '/api/protocols/import', coordinator, bad)).statusCode).toBe(400);
    }
  });

  it("group a protocol's tasks by state with counts", async () => {
    const p = await rental();
    const res = (await req('GET', `/api/protocols/${p.id}/tasks?state=BLOCKED`, coordinator)).json<{ counts: Record<string, number>; items: Array<{ code: string }> }>();
    expect(Object.keys(res.counts)).toEqual(['REJECTED', 'PENDING', 'BLOCKED', 'UNASSIGNED', 'ACCEPTED']);
    expect(res.counts.BLOCKED).toBe(1);
    expect(res.items.map((i) => i.code)).toEqual(['payment']);
    expect(res.counts.ACCEPTED).toBeGreaterThan(5);
  });

  it('refuse a code the tenant uses already, on create and on save', async () => {
    const p = await rental();
    const main = await formId('rental-application');
    const body = { code: p.code, name: 'Copy', caseType: 'RADICACION_INTERNA', mainFormId: main, definition: { start: ['a'], tasks: [{ code: 'a', name: 'A', responsible: { kind: 'owner' } }] } };
    const created = await req('POST', '/api/protocols', coordinator, body);
    expect(created.statusCode).toBe(409);
    expect(created.json<Err>().error.code).toBe('DUPLICATE');
    const other = await req('POST', '/api/protocols', coordinator, { ...body, code: 'copy-of-rental' });
    expect(other.statusCode).toBe(201);
    const renamed = await req('PUT', `/api/protocols/${other.json<Detail>().id}`, coordinator, body);
    expect(renamed.statusCode).toBe(409);
    expect(renamed.json<Err>().error.code).toBe('DUPLICATE');
    expect((await req('DELETE', `/api/protocols/${other.json<Detail>().id}`, coordinator)).statusCode).toBe(204);
  });

  it('cannot be deleted while cases use them; another tenant sees 404', async () => {
    const p = await rental();
    expect((await req('DELETE', `/api/protocols/${p.id}`, coordinator)).json<Err>().error.code).toBe('IN_USE');
    expect((await req('GET', `/api/protocols/${p.id}`, other)).statusCode).toBe(404);
  });
});

describe('teams', () => {
  it('create, add members (a user may be in several teams), and refuse foreign users', async () => {
    const team = (await req('POST', '/api/teams', coordinator, { name: 'Appeals', assignment: 'round_robin' })).json<{ id: number }>();
    const reviewerId = (await t.db.selectFrom('users').where('email', '=', 'reviewer@demo.test').select('id').executeTakeFirstOrThrow()).id;
    const add = await req('POST', '/api/team-members', coordinator, { teamId: team.id, userId: reviewerId, role: 'leader' });
    expect(add.statusCode).toBe(201);
    expect((await req('GET', `/api/team-members?search=Rafael`, coordinator)).json<{ total: number }>().total).toBeGreaterThanOrEqual(3);
    expect((await req('POST', '/api/team-members', coordinator, { teamId: team.id, userId: reviewerId })).json<Err>().error.code).toBe('DUPLICATE');
    const foreign = (await t.db.selectFrom('users').where('email', '=', 'admin@other.test').select('id').executeTakeFirstOrThrow()).id;
    expect((await req('POST', '/api/team-members', coordinator, { teamId: team.id, userId: foreign })).statusCode).toBe(400);
    // A team that protocols use cannot be deleted.
    const intake = (await req('GET', '/api/teams?search=Intake', coordinator)).json<{ items: Array<{ id: number }> }>().items[0];
    expect((await req('DELETE', `/api/teams/${intake.id}`, coordinator)).json<Err>().error.code).toBe('IN_USE');
  });
});
