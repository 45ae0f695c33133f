import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFormDefinition } from '../../../core/forms/definition.js';
import { createTestApp, login, type TestApp } from '../../../tests/support/app.js';
import { makeCase, makeEntity, makeForm, makeProject, makePublishedProtocol, makeTeam, makeTeamMember, makeUser } from '../../../tests/support/factories.js';
import { submitCase } from '../cases/commands.js';
import { acceptTask, type EngineEnv } from '../workflow/engine.js';

/**
 * Protocols and teams through the API, on a tenant of this file's own made
 * with the factories (the demo seed plays no part): a published protocol of
 * six tasks over four teams and six forms, with cases run through the engine
 * so that it has accepted tasks, and a payment that waits BLOCKED for the
 * other branch. The rights each person holds are written out here.
 */
const CRUD = ['show', 'create', 'update', 'delete'];
const ROLES = {
  coordinator: { wf_protocolos: [...CRUD, 'export'], wf_equipos: CRUD, wf_equipos_integrantes: CRUD },
  /** Decides tasks; no rights on protocols. */
  reviewer: { wf_casos: ['show'], menutareas: ['show'], wf_tareas: ['show', 'update', 'accept', 'reject'] },
  applicant: { wf_casos: ['show', 'create'], borradores: ['show', 'create', 'create_drafts'] },
  /** Another tenant's administrator of protocols and teams. */
  otherAdmin: { wf_protocolos: [...CRUD, 'export'], wf_equipos: CRUD, wf_equipos_integrantes: CRUD },
} as const;

let t: TestApp;
let coordinator: { sid: string };
let reviewer: { sid: string };
let other: { sid: string };
let docnumber: string;
let reviewerId: number;
let otherAdminId: number;
let otherEntityId: number;
const env: EngineEnv = { publicUrl: 'https://cases.example.org', smtpConfigured: false };

beforeAll(async () => {
  t = await createTestApp();
  const entity = await makeEntity(t.db);
  const entityId = entity.id;
  docnumber = entity.docnumber;
  otherEntityId = (await makeEntity(t.db)).id;
  const user = (tenant: number, role: keyof typeof ROLES, extra: { name?: string } = {}) =>
    makeUser(t.db, tenant, { role, rules: ROLES[role] as never, password: 'Demo12345', ...extra });
  const [coord, rev, intake, payments, applicant, otherAdmin] = [
    await user(entityId, 'coordinator'), await user(entityId, 'reviewer', { name: 'Rafael Reviewer' }), await user(entityId, 'reviewer'),
    await user(entityId, 'reviewer'), await user(entityId, 'applicant'), await user(otherEntityId, 'otherAdmin'),
  ];
  reviewerId = rev.id;
  otherAdminId = otherAdmin.id;
  [coordinator, reviewer, other] = await Promise.all([coord, rev, otherAdmin].map((u) => login(t, u.email, 'Demo12345')));

  const form = (code: string, name: string) => makeForm(t.db, entityId, { code, definition: parseFormDefinition({ name, fields: [{ name: 'notes', type: 'text', label: 'Notas', label_en: 'Notes' }] }) });
  const main = await form('rental-application', 'Rental assistance application');
  const forms = {
    intake: await form('intake-review', 'Intake review'), documents: await form('document-verification', 'Document verification'), eligibility: await form('eligibility', 'Eligibility'),
    landlord: await form('landlord-verification', 'Landlord verification'), payment: await form('payment-approval', 'Payment approval'),
  };
  const team = async (name: string, assignment: 'round_robin' | 'least_loaded', members: Array<[number, 'leader' | 'member']>) => {
    const row = await makeTeam(t.db, entityId, { name, assignment });
    for (const [userId, role] of members) await makeTeamMember(t.db, row, userId, { role });
    return row.id;
  };
  // The reviewer is in two teams (a third is added by a test).
  const intakeTeam = await team('Intake', 'round_robin', [[intake.id, 'member'], [rev.id, 'member'], [coord.id, 'leader']]);
  const reviewTeam = await team('Document review', 'least_loaded', [[rev.id, 'member'], [coord.id, 'leader']]);
  const paymentsTeam = await team('Payments', 'least_loaded', [[payments.id, 'member'], [coord.id, 'leader']]);
  const supervisors = await team('Supervisors', 'least_loaded', []);
  const task = (code: string, name: string, formId: number | null, responsible: Record<string, unknown>, onAccept: Array<{ to: string }>, extra: Record<string, unknown> = {}) =>
    ({ code, name, formId, responsible, expirationDays: 2, join: 'any', onAccept, onReject: null, ...extra });
  const protocol = await makePublishedProtocol(t.db, entityId, {
    mainForm: main,
    start: ['intake'],
    tasks: [
      task('intake', 'Intake review', forms.intake.id, { kind: 'team', teamId: intakeTeam }, [{ to: 'documents' }], { onReject: { notEligible: true } }),
      task('documents', 'Document verification', forms.documents.id, { kind: 'team', teamId: reviewTeam }, [{ to: 'eligibility' }, { to: 'landlord' }]),
      task('eligibility', 'Eligibility', forms.eligibility.id, { kind: 'team', teamId: reviewTeam }, [{ to: 'payment' }]),
      task('landlord', 'Landlord verification', forms.landlord.id, { kind: 'task', task: 'intake' }, [{ to: 'payment' }]),
      task('payment', 'Payment approval', forms.payment.id, { kind: 'team', teamId: paymentsTeam }, [{ to: 'supervisor' }], { join: 'all' }),
      task('supervisor', 'Supervisor approval', null, { kind: 'team', teamId: supervisors }, []),
    ],
  });
  await t.db.updateTable('protocols').set({ code: 'rental-assistance', name: 'Rental assistance' }).where('id', '=', protocol.id).execute();

  // Cases run through the engine by the system: one with payment BLOCKED for eligibility, one with payment pending (7 tasks accepted).
  const projectId = (await makeProject(t.db, { entity_id: entityId })).id;
  const system = { system: true as const, entityId };
  const run = async (codes: string[]) => {
    const c = await makeCase(t.db, protocol, { ownerId: applicant.id, projectId });
    await submitCase(t.db, env, system, c.id);
    for (const code of codes) {
      const pending = await t.db.selectFrom('tasks').where('case_id', '=', c.id).where('code', '=', code).where('state', '=', 'PENDING').select('id').executeTakeFirstOrThrow();
      await acceptTask(t.db, env, system, pending.id, { data: {} });
    }
  };
  await run(['intake', 'documents', 'landlord']);
  await run(['intake', 'documents', 'eligibility', 'landlord']);
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
    expect(p).toMatchObject({ code: 'rental-assistance', publishedVersion: 1, publicUrl: `http://localhost:3000/publico/${docnumber}/rental-assistance` });
    expect((await req('GET', '/api/protocols', reviewer)).statusCode).toBe(403);
  });

  it('offer the tenant’s templates of the task events and its roles to whoever reads protocols; refuse another tenant’s template, one of another event, an unknown role', async () => {
    const options = await req('GET', '/api/protocols/task-options', coordinator);
    expect(options.statusCode).toBe(200);
    const { templates, roles } = options.json<{ templates: Array<{ id: number; event: string; isDefault: boolean }>; roles: Array<{ code: string }> }>();
    expect(new Set(templates.map((x) => x.event))).toEqual(new Set(['task_assigned', 'task_due_soon', 'task_overdue']));
    expect(roles.map((r) => r.code)).toContain('reviewer');
    expect((await req('GET', '/api/protocols/task-options', reviewer)).statusCode).toBe(403);
    const theirs = (await req('GET', '/api/protocols/task-options', other)).json<{ templates: Array<{ id: number }> }>().templates.map((x) => x.id);
    expect(theirs.some((id) => templates.some((x) => x.id === id))).toBe(false);

    const main = await formId('rental-application');
    const assigned = templates.find((x) => x.event === 'task_assigned')?.id as number;
    const dueSoon = templates.find((x) => x.event === 'task_due_soon')?.id as number;
    const draft = (extra: Record<string, unknown>) => ({
      code: `messages-${Math.random().toString(36).slice(2, 8)}`, name: 'Messages', caseType: 'RADICACION_INTERNA', mainFormId: main,
      definition: { start: ['a'], tasks: [{ code: 'a', name: 'A', responsible: { kind: 'owner' }, ...extra }] },
    });
    const bad = await req('POST', '/api/protocols', coordinator, draft({ mailTemplates: { task_assigned: dueSoon, task_overdue: theirs[0] }, escalation: { role: 'nobody', afterDays: 1 } }));
    expect(bad.statusCode).toBe(422);
    expect(bad.json<Err>().error.details?.map((d) => d.path).sort()).toEqual(['tasks.a.escalation.role', 'tasks.a.mailTemplates.task_assigned', 'tasks.a.mailTemplates.task_overdue']);
    const good = await req('POST', '/api/protocols', coordinator, draft({ mailTemplates: { task_assigned: assigned }, escalation: { role: 'reviewer', afterDays: 2 } }));
    expect(good.statusCode).toBe(201);
    expect(good.json<{ definition: { tasks: Array<Record<string, unknown>> } }>().definition.tasks[0]).toMatchObject({ mailTemplates: { task_assigned: assigned }, escalation: { role: 'reviewer', afterDays: 2 } });
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

  it('keep a public page in both languages: saved, kept by a save that leaves it out, capped', async () => {
    const p = await rental();
    const before = (await req('GET', `/api/protocols/${p.id}`, coordinator)).json<Detail & { name: string; description: string; caseType: string; public: boolean; mainFormId: number; publicPage: Record<string, string> }>();
    expect(before.publicPage).toEqual({ titleEn: '', titleEs: '', descriptionEn: '', descriptionEs: '', eligibilityEn: '', eligibilityEs: '' });
    const body = { code: before.code, name: before.name, description: before.description, caseType: before.caseType, public: true, mainFormId: before.mainFormId, definition: before.definition };
    const page = { titleEn: ' Rental help ', titleEs: 'Ayuda para el alquiler', descriptionEn: 'Rent help.\nTwo lines.', descriptionEs: 'Ayuda.', eligibilityEn: 'Tenants.', eligibilityEs: 'Arrendatarios.' };
    const saved = await req('PUT', `/api/protocols/${p.id}`, coordinator, { ...body, publicPage: page });
    expect(saved.statusCode).toBe(200);
    expect(saved.json<{ publicPage: unknown }>().publicPage).toEqual({ ...page, titleEn: 'Rental help' });
    // The page's texts are not part of the workflow: saving them leaves nothing to publish.
    expect(saved.json<Detail>().changedSincePublished).toBe(false);
    const kept = await req('PUT', `/api/protocols/${p.id}`, coordinator, body);
    expect(kept.json<{ publicPage: unknown }>().publicPage).toEqual({ ...page, titleEn: 'Rental help' });
    const long = await req('PUT', `/api/protocols/${p.id}`, coordinator, { ...body, publicPage: { ...page, eligibilityEs: 'x'.repeat(4001) } }, 'es');
    expect(long.statusCode).toBe(400);
    expect(long.json<Err>().error.details).toEqual([{ path: 'publicPage.eligibilityEs', message: 'El texto es demasiado largo' }]);
  });

  it('export one JSON file and import it into another tenant, forms included', async () => {
    const p = await rental();
    const file = await req('GET', `/api/protocols/${p.id}/export`, coordinator);
    expect(file.headers['content-disposition']).toBe('attachment; filename="protocol-rental-assistance.json"');
    const exported = file.json<{ forms: unknown[]; teams: Record<string, string>; protocol: { publicPage: unknown; definition: { tasks: Array<{ formId: string | null }> } } }>();
    expect(exported.forms).toHaveLength(6);
    expect(exported.protocol.definition.tasks[0].formId).toBe('intake-review');
    expect(exported.protocol.publicPage).toMatchObject({ titleEn: 'Rental help', eligibilityEs: 'Arrendatarios.' });
    // The other tenant lacks the teams: refused, and nothing is created.
    const otherForms = () => t.db.selectFrom('forms').where('entity_id', '=', otherEntityId).select('id').execute();
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
    expect((d as Detail & { publicPage: unknown }).publicPage).toEqual(exported.protocol.publicPage);
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
    const add = await req('POST', '/api/team-members', coordinator, { teamId: team.id, userId: reviewerId, role: 'leader' });
    expect(add.statusCode).toBe(201);
    expect((await req('GET', `/api/team-members?search=Rafael`, coordinator)).json<{ total: number }>().total).toBeGreaterThanOrEqual(3);
    expect((await req('POST', '/api/team-members', coordinator, { teamId: team.id, userId: reviewerId })).json<Err>().error.code).toBe('DUPLICATE');
    const foreign = otherAdminId;
    expect((await req('POST', '/api/team-members', coordinator, { teamId: team.id, userId: foreign })).statusCode).toBe(400);
    // A team that protocols use cannot be deleted.
    const intake = (await req('GET', '/api/teams?search=Intake', coordinator)).json<{ items: Array<{ id: number }> }>().items[0];
    expect((await req('DELETE', `/api/teams/${intake.id}`, coordinator)).json<Err>().error.code).toBe('IN_USE');
  });
});
