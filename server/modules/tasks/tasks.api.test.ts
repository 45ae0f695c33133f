import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FieldDef, parseFormDefinition } from '../../../core/forms/definition.js';
import { createTestApp, login, type TestApp } from '../../../tests/support/app.js';
import { makeCase, makeEntity, makeForm, makeProject, makePublishedProtocolWithForms, makeTeam, makeTeamMember, makeUser } from '../../../tests/support/factories.js';
import { submitCase } from '../cases/commands.js';
import { acceptTask, type EngineEnv, rejectTask } from '../workflow/engine.js';

/**
 * Tasks through the API, on a tenant of this file's own made with the
 * factories (the demo seed plays no part): a published protocol (intake,
 * documents, then eligibility and landlord in parallel, a payment that waits
 * for both, a supervisor team nobody is in), its teams, and cases run through
 * the engine by the system so that tasks stand in every state the tests
 * look for. The rights each person holds are written out here.
 */
const ROLES = {
  coordinator: {
    wf_casos: ['show', 'update'], admin_cases: ['show', 'update'], wf_tareas: ['show', 'create', 'update', 'accept', 'reject', 'restart_task'],
    menutareas: ['show'], admintasks: ['show', 'update', 'restart_task'],
  },
  reviewer: { wf_casos: ['show'], menutareas: ['show'], wf_tareas: ['show', 'update', 'accept', 'reject'] },
  applicant: { wf_casos: ['show', 'create'], borradores: ['show', 'create', 'create_drafts'] },
  /** Another tenant's coordinator. */
  otherCoordinator: {
    wf_casos: ['show', 'update'], admin_cases: ['show', 'update'], wf_tareas: ['show', 'create', 'update', 'accept', 'reject', 'restart_task'],
    menutareas: ['show'], admintasks: ['show', 'update', 'restart_task'],
  },
} as const;

const f = (name: string, type: FieldDef['type'], label: string, label_en: string, extra: Partial<FieldDef> = {}): FieldDef => ({ name, type, label, label_en, ...extra });
const yesNo = [{ value: 'yes', label: 'Sí', label_en: 'Yes' }, { value: 'no', label: 'No', label_en: 'No' }];
const INTAKE_FORM = {
  name: 'Intake review',
  fields: [
    f('complete', 'radio', '¿La solicitud está completa?', 'Is the application complete?', { required: true, options: yesNo }),
    f('missingInfo', 'textarea', 'Información faltante', 'Missing information', { required: true, maxLength: 2000, visibleWhen: "complete == 'no'" }),
    f('notes', 'textarea', 'Notas', 'Notes', { maxLength: 2000 }),
  ],
};

let t: TestApp;
let coordinator: { sid: string };
let reviewer: { sid: string };
let payments: { sid: string };
let applicant: { sid: string };
let other: { sid: string };
let reviewerId: number;
let otherEntity: number;
const env: EngineEnv = { publicUrl: 'https://cases.example.org', smtpConfigured: false };

beforeAll(async () => {
  t = await createTestApp();
  const entityId = (await makeEntity(t.db)).id;
  otherEntity = (await makeEntity(t.db)).id;
  const user = (tenant: number, role: keyof typeof ROLES) => makeUser(t.db, tenant, { role, rules: ROLES[role] as never, password: 'Demo12345' });
  const [coord, rev, intake, pay, owner, otherCoord] = [
    await user(entityId, 'coordinator'), await user(entityId, 'reviewer'), await user(entityId, 'reviewer'), await user(entityId, 'reviewer'),
    await user(entityId, 'applicant'), await user(otherEntity, 'otherCoordinator'),
  ];
  reviewerId = rev.id;
  [coordinator, reviewer, payments, applicant, other] = await Promise.all([coord, rev, pay, owner, otherCoord].map((u) => login(t, u.email, 'Demo12345')));

  const form = (code: string, definition: Record<string, unknown>) => makeForm(t.db, entityId, { code, definition: parseFormDefinition(definition) });
  const simple = (name: string) => ({ name, fields: [f('notes', 'textarea', 'Notas', 'Notes')] });
  const forms = {
    intake: await form('intake-review', INTAKE_FORM), documents: await form('document-verification', simple('Document verification')),
    eligibility: await form('eligibility', simple('Eligibility')), landlord: await form('landlord-verification', simple('Landlord verification')),
    payment: await form('payment-approval', simple('Payment approval')),
  };
  // A form of the other tenant, for the refusal of a foreign form.
  await makeForm(t.db, otherEntity);
  const team = async (name: string, assignment: 'round_robin' | 'least_loaded', members: Array<[number, 'leader' | 'member']>) => {
    const row = await makeTeam(t.db, entityId, { name, assignment });
    for (const [userId, role] of members) await makeTeamMember(t.db, row, userId, { role });
    return row.id;
  };
  const intakeTeam = await team('Intake', 'round_robin', [[intake.id, 'member'], [rev.id, 'member'], [coord.id, 'leader']]);
  const reviewTeam = await team('Document review', 'least_loaded', [[rev.id, 'member'], [coord.id, 'leader']]);
  const paymentsTeam = await team('Payments', 'least_loaded', [[pay.id, 'member'], [coord.id, 'leader']]);
  const supervisors = await team('Supervisors', 'least_loaded', []);
  const task = (code: string, name: string, formId: number | null, responsible: Record<string, unknown>, onAccept: Array<{ to: string }>, extra: Record<string, unknown> = {}) =>
    ({ code, name, formId, responsible, expirationDays: 2, join: 'any', onAccept, onReject: null, ...extra });
  const protocol = await makePublishedProtocolWithForms(t.db, entityId, {
    start: ['intake'],
    tasks: [
      task('intake', 'Intake review', forms.intake.id, { kind: 'team', teamId: intakeTeam }, [{ to: 'documents' }], { onReject: { notEligible: true } }),
      task('documents', 'Document verification', forms.documents.id, { kind: 'team', teamId: reviewTeam }, [{ to: 'eligibility' }, { to: 'landlord' }], { onReject: { to: 'intake' } }),
      task('eligibility', 'Eligibility', forms.eligibility.id, { kind: 'team', teamId: reviewTeam }, [{ to: 'payment' }]),
      task('landlord', 'Landlord verification', forms.landlord.id, { kind: 'task', task: 'intake' }, [{ to: 'payment' }]),
      task('payment', 'Payment approval', forms.payment.id, { kind: 'team', teamId: paymentsTeam }, [{ to: 'supervisor' }], { join: 'all' }),
      task('supervisor', 'Supervisor approval', null, { kind: 'team', teamId: supervisors }, []),
    ],
  });

  // Cases of the applicant, moved on by the system through the engine.
  const projectId = (await makeProject(t.db, { entity_id: entityId })).id;
  const system = { system: true as const, entityId };
  const pendingTask = async (caseId: number, code: string) =>
    (await t.db.selectFrom('tasks').where('case_id', '=', caseId).where('code', '=', code).where('state', '=', 'PENDING').select('id').executeTakeFirstOrThrow()).id;
  const run = async (codes: string[]) => {
    const c = await makeCase(t.db, protocol, { ownerId: owner.id, projectId });
    await submitCase(t.db, env, system, c.id);
    for (const code of codes) await acceptTask(t.db, env, system, await pendingTask(c.id, code), { data: code === 'intake' ? { complete: 'yes' } : {} });
    return c.id;
  };
  // Two waiting at intake; one whose payment waits BLOCKED for eligibility; one at the supervisor nobody is assigned to (UNASSIGNED).
  await run([]);
  await run([]);
  await run(['intake', 'documents', 'landlord']);
  await run(['intake', 'documents', 'eligibility', 'landlord', 'payment']);
  // Documents sent back to intake with a reason (a REJECTED task), and a closed case.
  const sentBack = await run(['intake']);
  await rejectTask(t.db, env, system, await pendingTask(sentBack, 'documents'), { reason: 'The lease is missing its signature page.' });
  await makeCase(t.db, protocol, { ownerId: owner.id, projectId, state: 'CLOSED' });
});
afterAll(() => t.close());

type Err = { error: { code: string; message: string; details?: Array<{ path: string; message: string }> } };
type List<T> = { items: T[]; total: number };
type Task = { id: number; code: string; state: string; caseId: number; caseNumber: string; responsibleName: string | null; actions?: string[] };
const req = (method: string, url: string, who: { sid: string }, payload?: unknown, lang = 'en') =>
  t.request({ method: method as 'GET', url, cookies: { ...who, lang }, payload: payload as string });
const pendingIntake = async () => (await req('GET', '/api/tasks?state=PENDING&search=Intake&limit=100', coordinator)).json<List<Task>>().items.filter((x) => x.code === 'intake');

describe('task lists', () => {
  it('filter all tasks by state and protocol', async () => {
    const blocked = (await req('GET', '/api/tasks?state=BLOCKED', coordinator)).json<List<Task>>();
    expect(blocked.total).toBe(1);
    expect(blocked.items[0]).toMatchObject({ code: 'payment', state: 'BLOCKED', responsibleName: null });
    const several = (await req('GET', '/api/tasks?state=BLOCKED&state=UNASSIGNED', coordinator)).json<List<Task>>();
    expect(several.items.map((x) => x.state).sort()).toEqual(['BLOCKED', 'UNASSIGNED']);
    expect((await req('GET', '/api/tasks?state=NOPE', coordinator)).statusCode).toBe(400);
  });

  it("filter by protocol task, the days they were created (the tenant's) and who handled them, as the reports drill into them", async () => {
    const list = async (query: string) => (await req('GET', `/api/tasks?${query}&limit=100`, coordinator)).json<List<Task>>();
    expect((await list('code=payment')).items.map((x) => x.code)).toEqual(['payment', 'payment']);
    expect((await req('GET', '/api/tasks?code=NOPE!', coordinator)).statusCode).toBe(400);
    // 04:00 UTC on 10 January is 23:00 on the 9th in Bogotá, the tenant's zone.
    const supervisor = (await list('code=supervisor')).items[0];
    const created = await t.db.selectFrom('tasks').where('id', '=', supervisor.id).select('created_at').executeTakeFirstOrThrow();
    await t.db.updateTable('tasks').set({ created_at: new Date('2026-01-10T04:00:00Z') }).where('id', '=', supervisor.id).execute();
    try {
      expect((await list('from=2026-01-09&to=2026-01-09')).items.map((x) => x.id)).toEqual([supervisor.id]);
      expect((await list('from=2026-01-10&to=2026-01-10')).total).toBe(0);
    } finally {
      await t.db.updateTable('tasks').set({ created_at: created.created_at }).where('id', '=', supervisor.id).execute();
    }
    // Handled: decided by the person, or held by it while undecided.
    const decided = await t.db.selectFrom('tasks').where('state', '=', 'ACCEPTED').where('responsible_user_id', '<>', reviewerId).select('id').executeTakeFirstOrThrow();
    const before = (await list(`handledBy=${reviewerId}`)).items.map((x) => x.id);
    expect(before.length).toBeGreaterThan(0);
    await t.db.updateTable('tasks').set({ decided_by: reviewerId }).where('id', '=', decided.id).execute();
    try {
      expect((await list(`handledBy=${reviewerId}`)).items.map((x) => x.id).sort()).toEqual([...before, decided.id].sort());
    } finally {
      await t.db.updateTable('tasks').set({ decided_by: null }).where('id', '=', decided.id).execute();
    }
  });

  it("show my pending tasks with the spec's columns", async () => {
    const res = (await req('GET', '/api/tasks/pending', reviewer)).json<List<Task & { section8: boolean; thirdParty: boolean; requireIncome: boolean; possibleDuplicated: boolean }>>();
    expect(res.total).toBeGreaterThan(0);
    expect(res.items[0]).toHaveProperty('section8');
    expect(res.items[0]).toHaveProperty('thirdParty');
    expect(res.items[0].actions).toEqual(['accept', 'reject']);
    // The applicant has no task list.
    expect((await req('GET', '/api/tasks/pending', applicant)).statusCode).toBe(403);
  });
});

describe('one task', () => {
  it('tells the actions this user may take, and its next tasks', async () => {
    const task = (await pendingIntake())[0];
    const mine = (await req('GET', `/api/tasks/${task.id}`, coordinator)).json<{ actions: string[]; next: Array<{ code: string }>; form: unknown; case: { number: string } }>();
    expect(mine.actions).toEqual(expect.arrayContaining(['accept', 'reject', 'assign', 'save']));
    expect(mine.next.map((n) => n.code)).toEqual(['documents']);
    expect(mine.form).not.toBeNull();
    expect(mine.case.number).toBe(task.caseNumber);
    const stranger = (await req('GET', `/api/tasks/${task.id}`, payments)).json<{ actions: string[] }>();
    expect(stranger.actions).toEqual([]);
  });

  it("refuses someone who is neither responsible nor in its team, in both languages", async () => {
    const task = (await pendingIntake())[0];
    const en = await req('POST', `/api/tasks/${task.id}/accept`, payments, { data: { complete: 'yes' } });
    expect(en.statusCode).toBe(403);
    expect(en.json<Err>().error.message).toBe('You cannot accept or reject this task.');
    const es = await req('POST', `/api/tasks/${task.id}/reject`, payments, { reason: 'x' }, 'es');
    expect(es.json<Err>().error.message).toBe('No puede aceptar ni rechazar esta tarea.');
  });

  it('refuses an invalid form with the field messages, and a foreign tenant with 404', async () => {
    const task = (await pendingIntake())[0];
    const bad = await req('POST', `/api/tasks/${task.id}/accept`, coordinator, { data: { complete: 'no' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<Err>().error.details).toEqual([{ path: 'missingInfo', message: 'This field is required' }]);
    expect((await req('GET', `/api/tasks/${task.id}`, other)).statusCode).toBe(404);
    expect((await req('POST', `/api/tasks/${task.id}/accept`, other, { data: { complete: 'yes' } })).statusCode).toBe(404);
  });

  it('gives exactly one of 20 simultaneous accepts the task; the others get a clear 409', async () => {
    const task = (await pendingIntake())[0];
    const results = await Promise.all(Array.from({ length: 20 }, () => req('POST', `/api/tasks/${task.id}/accept`, coordinator, { data: { complete: 'yes' } })));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    const conflicts = results.filter((r) => r.statusCode === 409);
    expect(conflicts).toHaveLength(19);
    expect(conflicts[0].json<Err>().error.message).toMatch(/someone else may have decided it already/);
  });

  it('needs a reason to reject, and refuses a stale version', async () => {
    const task = (await pendingIntake())[0];
    const noReason = await req('POST', `/api/tasks/${task.id}/reject`, coordinator, { reason: '  ' });
    expect(noReason.json<Err>().error.details?.[0]).toEqual({ path: 'reason', message: 'This field is required' });
    const detail = (await req('GET', `/api/tasks/${task.id}`, coordinator)).json<{ version: number }>();
    const stale = await req('POST', `/api/tasks/${task.id}/accept`, coordinator, { data: { complete: 'yes' }, version: detail.version + 5 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json<Err>().error.code).toBe('STALE_TASK');
  });
});

describe('people who may not see a task', () => {
  it('get 404 from every route that names it, as for a task that does not exist; people who may see it get 403', async () => {
    const task = (await pendingIntake())[0];
    const entityId = (await t.db.selectFrom('cases').where('id', '=', task.caseId).select('entity_id').executeTakeFirstOrThrow()).entity_id;
    // Another applicant (no task rights, not the case's owner), and a role that may decide tasks but is not staff.
    await makeUser(t.db, entityId, { role: 'applicant', password: 'Demo12345', email: 'another-applicant@example.test' });
    await makeUser(t.db, entityId, { role: 'task-decider', rules: { wf_tareas: ['accept', 'reject', 'update'] } as never, password: 'Demo12345', email: 'decider@example.test' });
    const [stranger, decider] = await Promise.all([login(t, 'another-applicant@example.test'), login(t, 'decider@example.test')]);
    const before = (await req('GET', `/api/tasks/${task.id}`, coordinator)).json<{ version: number; responsibleId: number }>();
    const attempts = [
      req('POST', `/api/tasks/${task.id}/assign`, stranger, { userId: before.responsibleId }),
      req('POST', `/api/tasks/${task.id}/restart`, stranger),
      req('POST', `/api/tasks/${task.id}/accept`, decider, { data: { complete: 'yes' } }),
      req('POST', `/api/tasks/${task.id}/reject`, decider, { reason: 'not mine' }),
      req('PUT', `/api/tasks/${task.id}/data`, decider, { data: { complete: 'yes' } }),
    ];
    for (const res of await Promise.all(attempts)) expect(res.statusCode, `${res.raw.req.method} ${res.raw.req.url} ${res.body}`).toBe(404);
    // The case's owner may see its task, but not hand it on.
    expect((await req('POST', `/api/tasks/${task.id}/assign`, applicant, { userId: before.responsibleId })).statusCode).toBe(403);
    expect((await req('GET', `/api/tasks/${task.id}`, coordinator)).json<{ version: number }>().version).toBe(before.version);
  });
});

describe('administration', () => {
  it('restarts in bulk and reports what could not be done', async () => {
    const accepted = (await req('GET', '/api/tasks?state=ACCEPTED&limit=2', coordinator)).json<List<Task>>().items.map((x) => x.id);
    const pending = (await pendingIntake())[0].id;
    const res = await req('POST', '/api/tasks/bulk/restart', coordinator, { ids: [...accepted, pending] });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ done: number[]; failed: Array<{ id: number; message: string }> }>();
    expect(body.failed.map((f) => f.id)).toContain(pending);
    expect(body.done.length).toBeGreaterThanOrEqual(1);
    expect((await req('POST', '/api/tasks/bulk/restart', reviewer, { ids: accepted })).statusCode).toBe(403);
  });

  it('shows the tasks of a case as a timeline', async () => {
    const task = (await req('GET', '/api/tasks?state=REJECTED&limit=1', coordinator)).json<List<Task>>().items[0];
    const res = (await req('GET', `/api/cases/${task.caseId}/timeline`, coordinator)).json<{ tasks: Array<{ code: string; state: string; reason: string | null }> }>();
    expect(res.tasks.length).toBeGreaterThan(1);
    expect(res.tasks.some((x) => x.reason)).toBe(true);
  });
});

describe('ad-hoc tasks', () => {
  it('are created on an open case for a user or a team, and deciding them moves nothing else', async () => {
    const caseId = (await pendingIntake())[0].caseId;
    const before = (await req('GET', `/api/cases/${caseId}/timeline`, coordinator)).json<{ tasks: unknown[] }>().tasks.length;
    const created = await req('POST', '/api/tasks', coordinator, { caseId, name: 'Call the landlord', userId: reviewerId, expirationDays: 1, instructions: 'Confirm the rent amount' });
    expect(created.statusCode).toBe(201);
    const id = created.json<{ id: number }>().id;
    const task = (await req('GET', `/api/tasks/${id}`, reviewer)).json<{ state: string; actions: string[]; reason: string | null; instructions: string; next: unknown[] }>();
    expect(task).toMatchObject({ state: 'PENDING', instructions: 'Confirm the rent amount', reason: null, next: [] });
    expect(task.actions).toEqual(expect.arrayContaining(['accept', 'reject']));
    expect((await req('POST', `/api/tasks/${id}/accept`, reviewer, {})).statusCode).toBe(200);
    // A rejected one keeps its instructions beside the reason it was rejected for.
    const second = (await req('POST', '/api/tasks', coordinator, { caseId, name: 'Visit the flat', userId: reviewerId, instructions: 'Check the heating' })).json<{ id: number }>().id;
    expect((await req('POST', `/api/tasks/${second}/reject`, reviewer, { reason: 'The tenant moved out' })).statusCode).toBe(200);
    expect((await req('GET', `/api/tasks/${second}`, coordinator)).json()).toMatchObject({ state: 'REJECTED', instructions: 'Check the heating', reason: 'The tenant moved out' });
    expect((await req('GET', `/api/cases/${caseId}/timeline`, coordinator)).json<{ tasks: unknown[] }>().tasks.length).toBe(before + 2);
  });

  it('need a responsible and an open case of the tenant', async () => {
    const caseId = (await pendingIntake())[0].caseId;
    expect((await req('POST', '/api/tasks', coordinator, { caseId, name: 'Nobody' })).statusCode).toBe(400);
    const closed = (await req('GET', '/api/cases?state=CLOSED&limit=1', coordinator)).json<{ items: Array<{ id: number }> }>().items[0].id;
    const teamId = (await t.db.selectFrom('teams').where('name', '=', 'Intake').select('id').executeTakeFirstOrThrow()).id;
    expect((await req('POST', '/api/tasks', coordinator, { caseId: closed, name: 'Late', teamId })).statusCode).toBe(409);
    expect((await req('POST', '/api/tasks', other, { caseId, name: 'Foreign', teamId })).statusCode).toBe(404);
    expect((await req('POST', '/api/tasks', applicant, { caseId, name: 'Mine', teamId })).statusCode).toBe(403);
  });

  it('take a form of the tenant (its current version) and instructions, and refuse bad values with field messages in both languages', async () => {
    const caseId = (await pendingIntake())[0].caseId;
    const entityId = (await t.db.selectFrom('cases').where('id', '=', caseId).select('entity_id').executeTakeFirstOrThrow()).entity_id;
    const form = await t.db.selectFrom('forms').where('entity_id', '=', entityId).where('code', '=', 'intake-review').select(['id', 'current_version']).executeTakeFirstOrThrow();
    const teamId = (await t.db.selectFrom('teams').where('name', '=', 'Intake').select('id').executeTakeFirstOrThrow()).id;
    const created = await req('POST', '/api/tasks', coordinator, { caseId, name: '  Check the lease  ', teamId, formId: form.id, expirationDays: 0, instructions: '   ' });
    expect(created.statusCode).toBe(201);
    const task = (await req('GET', `/api/tasks/${created.json<{ id: number }>().id}`, coordinator)).json<{ name: string; code: string; reason: string | null; teamName: string; form: { versionId: number; definition: { name: string } } | null }>();
    expect(task).toMatchObject({ name: 'Check the lease', code: 'adhoc', reason: null, instructions: null, teamName: 'Intake' });
    const version = await t.db.selectFrom('form_versions').where('form_id', '=', form.id).where('version', '=', form.current_version).select(['id', 'in_use']).executeTakeFirstOrThrow();
    expect(task.form?.versionId).toBe(version.id);
    expect(version.in_use).toBe(true);

    const foreignForm = await t.db.selectFrom('forms').where('entity_id', '=', otherEntity).select('id').executeTakeFirstOrThrow();
    const foreignTeam = await t.db.insertInto('teams').values({ entity_id: otherEntity, name: 'Foreign team', last_assigned_user_id: null }).returning('id').executeTakeFirstOrThrow();
    const badForm = await req('POST', '/api/tasks', coordinator, { caseId, name: 'Foreign form', userId: reviewerId, formId: foreignForm.id });
    expect(badForm.statusCode).toBe(400);
    expect(badForm.json<Err>().error.details).toEqual([{ path: 'formId', message: 'You must choose an option' }]);
    // A team of another tenant is refused even beside a valid user.
    const badTeam = await req('POST', '/api/tasks', coordinator, { caseId, name: 'Foreign team', userId: reviewerId, teamId: foreignTeam.id });
    expect(badTeam.json<Err>().error.details).toEqual([{ path: 'teamId', message: 'You must choose an option' }]);
    const badDays = await req('POST', '/api/tasks', coordinator, { caseId, name: 'x'.repeat(201), userId: reviewerId, expirationDays: 1.5 }, 'es');
    expect(badDays.statusCode).toBe(400);
    expect(badDays.json<Err>().error.details).toEqual(
      expect.arrayContaining([
        { path: 'name', message: 'El texto es demasiado largo' },
        { path: 'expirationDays', message: 'Escriba un número entero de días entre 0 y 3650' },
      ]),
    );
    expect((await req('POST', '/api/tasks', coordinator, { caseId, name: 'Old field', userId: reviewerId, expirationDays: 3651 })).json<Err>().error.details).toEqual([
      { path: 'expirationDays', message: 'Enter a whole number of days from 0 to 3650' },
    ]);
  });

  it('are listed apart with adhoc=true, and left out with adhoc=false', async () => {
    const caseId = (await pendingIntake())[0].caseId;
    const { id } = (await req('POST', '/api/tasks', coordinator, { caseId, name: 'Listed apart', userId: reviewerId })).json<{ id: number }>();
    const adhoc = (await req('GET', '/api/tasks?adhoc=true&limit=100', coordinator)).json<List<Task>>();
    expect(adhoc.total).toBeGreaterThan(0);
    expect(adhoc.items.every((x) => x.code === 'adhoc')).toBe(true);
    expect(adhoc.items[0].id).toBe(id);
    const all = (await req('GET', '/api/tasks?limit=1', coordinator)).json<List<Task>>().total;
    const fromProtocols = (await req('GET', '/api/tasks?adhoc=false&limit=100', coordinator)).json<List<Task>>();
    expect(fromProtocols.items.some((x) => x.code === 'adhoc')).toBe(false);
    expect(fromProtocols.total + adhoc.total).toBe(all);
    // Combined with the other filters, and refused when it is not a yes/no.
    expect((await req('GET', `/api/tasks?adhoc=true&caseId=${caseId}&state=PENDING&search=Listed`, coordinator)).json<List<Task>>().items.map((x) => x.id)).toEqual([id]);
    expect((await req('GET', '/api/tasks?adhoc=maybe', coordinator)).statusCode).toBe(400);
    // Another tenant sees none of them.
    expect((await req('GET', '/api/tasks?adhoc=true', other)).json<List<Task>>().items.some((x) => x.id === id)).toBe(false);
  });
});
