import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FieldDef, parseFormDefinition } from '../../../core/forms/definition.js';
import { createTestDatabase } from '../../../tests/support/app.js';
import { makeEntity, makeForm, makeProject, makePublishedProtocolWithForms, makeTeam, makeTeamMember, makeUser } from '../../../tests/support/factories.js';
import { seedDemo } from '../../db/seed/demo.js';
import { seedDemoWorkflow } from '../../db/seed/workflow.js';
import { type DbHandle, openDb } from '../../db/pool.js';
import { AppError } from '../../errors.js';
import { actorForUser } from '../auth/sessions.js';
import { createDraft, submitCase } from '../cases/commands.js';
import { acceptTask, assignTask, type EngineEnv, rejectTask, sweepDeadlines, restartTask } from './engine.js';

/**
 * The engine through its commands, on a tenant of this file's own made with
 * the factories: the rental-assistance workflow written out here (intake,
 * documents, then eligibility and landlord in parallel, a payment that waits
 * for both, a supervisor nobody is in the team of for large amounts, a
 * notification), its forms with the fields the branches and checks read, its
 * teams, and people with their rules written out. Only the first describe
 * runs on the demo: it checks what the demo seed itself makes.
 */
const ROLES = {
  coordinator: {
    wf_casos: ['show', 'update'], admin_cases: ['show', 'update'], wf_tareas: ['show', 'create', 'update', 'accept', 'reject', 'restart_task'],
    menutareas: ['show'], admintasks: ['show', 'update', 'restart_task'],
  },
  reviewer: { wf_casos: ['show'], menutareas: ['show'], wf_tareas: ['show', 'update', 'accept', 'reject'] },
  applicant: { wf_casos: ['show', 'create'], borradores: ['show', 'create', 'create_drafts'] },
} as const;
/** Who is who (the emails the tests name them by) and their role. */
const PEOPLE: Array<[string, keyof typeof ROLES, 'home' | 'other']> = [
  ['coordinator@example.test', 'coordinator', 'home'],
  ['reviewer@example.test', 'reviewer', 'home'],
  ['intake@example.test', 'reviewer', 'home'],
  ['payments@example.test', 'reviewer', 'home'],
  ['applicant@example.test', 'applicant', 'home'],
  // Another tenant's coordinator.
  ['admin@other.example.test', 'coordinator', 'other'],
];

const f = (name: string, type: FieldDef['type'], label: string, label_en: string, extra: Partial<FieldDef> = {}): FieldDef => ({ name, type, label, label_en, ...extra });
const yesNo = [{ value: 'yes', label: 'Sí', label_en: 'Yes' }, { value: 'no', label: 'No', label_en: 'No' }];
const FORMS: Record<string, { name: string; fields: FieldDef[] }> = {
  intake: {
    name: 'Intake review',
    fields: [
      f('complete', 'radio', '¿La solicitud está completa?', 'Is the application complete?', { required: true, options: yesNo }),
      f('missingInfo', 'textarea', 'Información faltante', 'Missing information', { required: true, maxLength: 2000, visibleWhen: "complete == 'no'" }),
      f('notes', 'textarea', 'Notas', 'Notes', { maxLength: 2000 }),
    ],
  },
  documents: {
    name: 'Document verification',
    fields: [
      f('verified', 'select_multiple', 'Documentos verificados', 'Documents verified', {
        required: true,
        options: [{ value: 'lease', label: 'Contrato', label_en: 'Lease' }, { value: 'check_stubs', label: 'Colillas de pago', label_en: 'Check stubs' }],
      }),
      f('allDocumentsOk', 'checkbox', 'Todos los documentos son legibles', 'All documents are legible', { required: true }),
    ],
  },
  eligibility: {
    name: 'Eligibility',
    fields: [
      f('eligible', 'radio', '¿El hogar es elegible?', 'Is the household eligible?', { required: true, options: yesNo }),
      f('amiPercent', 'number', 'Porcentaje del ingreso medio', 'Percent of area median income', { required: true, min: 0, max: 300 }),
      f('reason', 'textarea', 'Motivo', 'Reason', { required: true, maxLength: 2000, visibleWhen: "eligible == 'no'" }),
    ],
  },
  landlord: {
    name: 'Landlord verification',
    fields: [
      f('landlordName', 'text', 'Nombre del arrendador', 'Landlord name', { required: true, maxLength: 120 }),
      f('landlordEmail', 'email', 'Correo del arrendador', 'Landlord email', { required: true }),
      f('leaseConfirmed', 'checkbox', 'El arrendador confirma el contrato', 'The landlord confirms the lease', { required: true }),
    ],
  },
  payment: {
    name: 'Payment approval',
    fields: [
      f('amount', 'currency', 'Valor a pagar', 'Amount to pay', { required: true, min: 1, max: 50000 }),
      f('paymentMethod', 'select', 'Medio de pago', 'Payment method', { required: true, options: [{ value: 'ach', label: 'Transferencia', label_en: 'ACH' }, { value: 'check', label: 'Cheque', label_en: 'Check' }] }),
    ],
  },
};

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let h: DbHandle;
let protocolId: number;
let projectId: number;
const env: EngineEnv = { publicUrl: 'https://cases.example.org', smtpConfigured: false };
beforeAll(async () => {
  database = await createTestDatabase();
  h = openDb(database.url, { max: 25 });
  const entityId = (await makeEntity(h.db)).id;
  const otherEntityId = (await makeEntity(h.db)).id;
  const ids = new Map<string, number>();
  for (const [email, role, tenant] of PEOPLE) {
    ids.set(email, (await makeUser(h.db, tenant === 'home' ? entityId : otherEntityId, { role, rules: ROLES[role] as never, email })).id);
  }
  const forms = new Map<string, number>();
  for (const [code, def] of Object.entries(FORMS)) forms.set(code, (await makeForm(h.db, entityId, { code, definition: parseFormDefinition(def) })).id);
  const team = async (name: string, assignment: 'round_robin' | 'least_loaded', members: Array<[string, 'leader' | 'member']>) => {
    const row = await makeTeam(h.db, entityId, { name, assignment });
    for (const [email, role] of members) await makeTeamMember(h.db, row, ids.get(email) as number, { role });
    return row.id;
  };
  const intakeTeam = await team('Intake', 'round_robin', [['intake@example.test', 'member'], ['reviewer@example.test', 'member'], ['coordinator@example.test', 'leader']]);
  const reviewTeam = await team('Document review', 'least_loaded', [['reviewer@example.test', 'member'], ['coordinator@example.test', 'leader']]);
  const paymentsTeam = await team('Payments', 'least_loaded', [['payments@example.test', 'member'], ['coordinator@example.test', 'leader']]);
  // Nobody yet: its tasks wait unassigned until a coordinator assigns them.
  const supervisors = await team('Supervisors', 'least_loaded', []);
  const task = (code: string, name: string, form: string | null, responsible: Record<string, unknown>, expirationDays: number, onAccept: Array<{ to: string; when?: string }>, onReject: Record<string, unknown> | null, join = 'any') =>
    ({ code, name, formId: form === null ? null : forms.get(form), responsible, expirationDays, join, onAccept, onReject });
  const protocol = await makePublishedProtocolWithForms(h.db, entityId, {
    start: ['intake'],
    tasks: [
      task('intake', 'Intake review', 'intake', { kind: 'team', teamId: intakeTeam }, 2, [{ to: 'documents' }], { notEligible: true }),
      task('documents', 'Document verification', 'documents', { kind: 'team', teamId: reviewTeam }, 3, [{ to: 'eligibility' }, { to: 'landlord' }], { to: 'intake' }),
      task('eligibility', 'Eligibility', 'eligibility', { kind: 'team', teamId: reviewTeam }, 3, [{ to: 'payment', when: "eligible == 'yes'" }], { notEligible: true }),
      task('landlord', 'Landlord verification', 'landlord', { kind: 'task', task: 'intake' }, 5, [{ to: 'payment' }], { to: 'intake' }),
      task('payment', 'Payment approval', 'payment', { kind: 'team', teamId: paymentsTeam }, 2, [{ to: 'supervisor', when: 'amount > 5000' }, { to: 'notify', when: 'amount <= 5000' }], { to: 'eligibility' }, 'all'),
      task('supervisor', 'Supervisor approval', null, { kind: 'team', teamId: supervisors }, 1, [{ to: 'notify' }], { to: 'payment' }),
      task('notify', 'Notify applicant and landlord', null, { kind: 'team', teamId: paymentsTeam }, 1, [], null),
    ],
  });
  protocolId = protocol.id;
  projectId = (await makeProject(h.db, { entity_id: entityId })).id;
  // A case whose intake is two days overdue, for the sweep.
  const late = await newCase(0);
  await h.db.updateTable('tasks').set({ due_at: new Date(Date.now() - 2 * 86_400_000) }).where('case_id', '=', late).execute();
});
afterAll(async () => {
  await h?.close();
  await database?.drop();
});

const userId = async (email: string) => (await h.db.selectFrom('users').where('email', '=', email).select('id').executeTakeFirstOrThrow()).id;
const actor = async (email: string) => actorForUser(h.db, await userId(email));
const protocol = async () => ({ id: protocolId });
const project = async () => projectId;
const tasksOf = (caseId: number) => h.db.selectFrom('tasks').where('case_id', '=', caseId).orderBy('id').select(['id', 'code', 'state', 'responsible_user_id', 'responsible_team_id', 'data', 'reason', 'version', 'due_at']).execute();
const errorCode = async (p: Promise<unknown>) => {
  try {
    await p;
    return 'ok';
  } catch (e) {
    if (e instanceof AppError) return e.code;
    throw e;
  }
};

const application = (n: number) => ({
  firstName: 'Test', lastName: `Applicant ${n}`, documentType: 'CC', documentNumber: `77${n}`, email: `t${n}@example.org`, phone: '3001234567',
  departamento: '11', municipio: '11001', zipCode: '11001', payRent: 800, householdInformation: [{ memberName: 'Test', relationship: 'self', age: 40 }],
});
async function newCase(n: number): Promise<number> {
  const applicant = await actor('applicant@example.test');
  const p = await protocol();
  const id = await h.db.transaction().execute(async (trx) => createDraft(trx, applicant, { protocolId: p.id, projectId: await project(), ownerId: applicant.userId, data: application(n) }));
  await submitCase(h.db, env, applicant, id);
  return id;
}
const intakeOk = { complete: 'yes' };
const docsOk = { verified: ['lease'], allDocumentsOk: true };

/**
 * These two check the demo seed's own content (what seedDemoWorkflow makes
 * through the engine), so they alone run on the demo, in a database of their own.
 */
describe('the demo, made through the engine', () => {
  let demo: Awaited<ReturnType<typeof createTestDatabase>>;
  let d: DbHandle;
  beforeAll(async () => {
    demo = await createTestDatabase();
    d = openDb(demo.url, { max: 5 });
    // The engine keeps published protocol and form versions by id for the life of the process (in one
    // database they never change); this file runs two databases, so the demo's ids keep out of the way.
    for (const table of ['protocol_versions', 'form_versions']) await sql`select setval(pg_get_serial_sequence(${table}, 'id'), 1000000)`.execute(d.db);
    await seedDemo(d.db);
    await seedDemoWorkflow(d.db, env);
  });
  afterAll(async () => {
    await d?.close();
    await demo?.drop();
  });

  it('has tasks and cases in every state the screens show', async () => {
    const tasks = await d.db.selectFrom('tasks').select(['state', sql<number>`count(*)::int`.as('n')]).groupBy('state').execute();
    expect(Object.fromEntries(tasks.map((t) => [t.state, t.n > 0]))).toMatchObject({ PENDING: true, BLOCKED: true, UNASSIGNED: true, ACCEPTED: true, REJECTED: true, CLOSED: true });
    const cases = await d.db.selectFrom('cases').select(['state', sql<number>`count(*)::int`.as('n')]).groupBy('state').orderBy('state').execute();
    expect(cases.map((c) => c.state)).toEqual(['CLOSED', 'DRAFT', 'INCONSISTENCY', 'PENDING', 'REJECTED', 'SUCCESS']);
    const rejected = await d.db.selectFrom('cases').where('state', '=', 'REJECTED').select('data').executeTakeFirstOrThrow();
    expect(rejected.data.tarea_retorno).toBe(-1);
  });

  it('numbers applications per project and month', async () => {
    const serials = (await d.db.selectFrom('cases').where('serial', 'is not', null).select('serial').orderBy('serial_seq').execute()).map((r) => r.serial as string);
    expect(serials.length).toBe(11);
    expect(new Set(serials).size).toBe(11);
    expect(serials[0]).toMatch(/^\d{4}-\d{2}-000001$/);
  });
});

describe('accept', () => {
  it('needs the responsible, a member of its team, or admintasks: "You cannot accept or reject this task."', async () => {
    const id = await newCase(1);
    const intake = (await tasksOf(id))[0];
    expect(intake.state).toBe('PENDING');
    // payments@ is in no team of this task.
    expect(await errorCode(acceptTask(h.db, env, await actor('payments@example.test'), intake.id, { data: intakeOk }))).toBe('TASK_NOT_YOURS');
    expect((await tasksOf(id))[0].state).toBe('PENDING');
  });

  it('refuses an invalid form and changes nothing', async () => {
    const id = await newCase(2);
    const intake = (await tasksOf(id))[0];
    const events = async () => (await h.db.selectFrom('case_events').where('case_id', '=', id).select('id').execute()).length;
    const before = await events();
    expect(await errorCode(acceptTask(h.db, env, await actor('coordinator@example.test'), intake.id, { data: { complete: 'maybe' } }))).toBe('VALIDATION');
    expect(await tasksOf(id)).toHaveLength(1);
    expect((await tasksOf(id))[0].state).toBe('PENDING');
    expect(await events()).toBe(before);
  });

  it('creates the next tasks, assigns them and sets due dates from the expiration days, in one go', async () => {
    const id = await newCase(3);
    const coord = await actor('coordinator@example.test');
    await acceptTask(h.db, env, coord, (await tasksOf(id))[0].id, { data: intakeOk });
    await acceptTask(h.db, env, coord, (await tasksOf(id))[1].id, { data: docsOk });
    const tasks = await tasksOf(id);
    expect(tasks.map((t) => [t.code, t.state])).toEqual([['intake', 'ACCEPTED'], ['documents', 'ACCEPTED'], ['eligibility', 'PENDING'], ['landlord', 'PENDING']]);
    // Landlord verification goes to whoever did intake.
    expect(tasks[3].responsible_user_id).toBe(tasks[0].responsible_user_id);
    const days = (new Date(tasks[2].due_at as Date).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(2.9);
    expect(days).toBeLessThan(3.01);
    const audit = await h.db.selectFrom('case_events').where('case_id', '=', id).select(['action', 'type', 'user_id', 'application_number']).orderBy('id').execute();
    expect(audit.map((a) => a.action)).toEqual(['case_created', 'case_submit', 'task_created', 'task_accepted', 'task_created', 'task_accepted', 'task_created', 'task_created']);
    expect(audit.every((a) => a.application_number === null || /^\d{4}-\d{2}-\d{6}$/.test(a.application_number))).toBe(true);
  });

  it('holds a task that waits for all its predecessors BLOCKED until the last is accepted', async () => {
    const id = await newCase(4);
    const coord = await actor('coordinator@example.test');
    await acceptTask(h.db, env, coord, (await tasksOf(id))[0].id, { data: intakeOk });
    await acceptTask(h.db, env, coord, (await tasksOf(id))[1].id, { data: docsOk });
    const landlord = (await tasksOf(id)).find((t) => t.code === 'landlord');
    await acceptTask(h.db, env, coord, landlord?.id as number, { data: { landlordName: 'L', landlordEmail: 'l@example.org', leaseConfirmed: true } });
    expect((await tasksOf(id)).find((t) => t.code === 'payment')?.state).toBe('BLOCKED');
    const eligibility = (await tasksOf(id)).find((t) => t.code === 'eligibility');
    await acceptTask(h.db, env, coord, eligibility?.id as number, { data: { eligible: 'yes', amiPercent: 50 } });
    const payment = (await tasksOf(id)).filter((t) => t.code === 'payment');
    expect(payment).toHaveLength(1);
    expect(payment[0].state).toBe('PENDING');
    expect(payment[0].responsible_user_id).not.toBeNull();
  });

  it('follows the branch whose condition holds', async () => {
    const id = await newCase(20);
    const coord = await actor('coordinator@example.test');
    const step = async (code: string, data: Record<string, unknown>) => acceptTask(h.db, env, coord, (await tasksOf(id)).find((t) => t.code === code && t.state === 'PENDING')?.id as number, { data });
    await step('intake', intakeOk);
    await step('documents', docsOk);
    await step('eligibility', { eligible: 'yes', amiPercent: 50 });
    await step('landlord', { landlordName: 'L', landlordEmail: 'l@example.org', leaseConfirmed: true });
    const payment = (await tasksOf(id)).find((t) => t.code === 'payment' && t.state === 'PENDING');
    await acceptTask(h.db, env, await actor('coordinator@example.test'), payment?.id as number, { data: { amount: 9000, paymentMethod: 'check' } });
    const supervisor = (await tasksOf(id)).find((t) => t.code === 'supervisor');
    // Nobody is in the Supervisors team: the task waits unassigned, and cannot be accepted until someone is assigned.
    expect(supervisor?.state).toBe('UNASSIGNED');
    expect(await errorCode(acceptTask(h.db, env, await actor('coordinator@example.test'), supervisor?.id as number))).toBe('INVALID_TRANSITION');
    await assignTask(h.db, env, await actor('coordinator@example.test'), supervisor?.id as number, { userId: await userId('coordinator@example.test') });
    expect((await tasksOf(id)).find((t) => t.code === 'supervisor')?.state).toBe('PENDING');
  });

  it('gives exactly one of 20 simultaneous accepts the task; the others get a 409', async () => {
    const id = await newCase(5);
    const intake = (await tasksOf(id))[0];
    const coord = await actor('coordinator@example.test');
    const results = await Promise.all(Array.from({ length: 20 }, () => errorCode(acceptTask(h.db, env, coord, intake.id, { data: intakeOk }))));
    expect(results.filter((r) => r === 'ok')).toHaveLength(1);
    expect(results.filter((r) => r === 'INVALID_TRANSITION')).toHaveLength(19);
    expect((await tasksOf(id)).filter((t) => t.code === 'documents')).toHaveLength(1);
  });

  it('refuses a stale version of the task and a foreign task', async () => {
    const id = await newCase(6);
    const intake = (await tasksOf(id))[0];
    const coord = await actor('coordinator@example.test');
    expect(await errorCode(acceptTask(h.db, env, coord, intake.id, { data: intakeOk, version: intake.version - 1 }))).toBe('STALE_TASK');
    expect(await errorCode(acceptTask(h.db, env, await actor('admin@other.example.test'), intake.id, { data: intakeOk }))).toBe('NOT_FOUND');
    expect((await tasksOf(id))[0].state).toBe('PENDING');
  });
});

describe('reject and restart', () => {
  it('sends the case back to the named earlier task with its data kept and the reason shown', async () => {
    const id = await newCase(7);
    const coord = await actor('coordinator@example.test');
    await acceptTask(h.db, env, coord, (await tasksOf(id))[0].id, { data: { complete: 'yes', notes: 'Looks fine' } });
    await rejectTask(h.db, env, coord, (await tasksOf(id))[1].id, { reason: 'Bank statement is illegible' });
    const tasks = await tasksOf(id);
    expect(tasks.map((t) => [t.code, t.state])).toEqual([['intake', 'ACCEPTED'], ['documents', 'REJECTED'], ['intake', 'PENDING']]);
    expect(tasks[2].data).toEqual({ complete: 'yes', notes: 'Looks fine' });
    expect(tasks[2].reason).toBe('Bank statement is illegible');
  });

  it("ends the case as 'Not eligible' with -1 under tarea_retorno", async () => {
    const id = await newCase(8);
    await rejectTask(h.db, env, await actor('coordinator@example.test'), (await tasksOf(id))[0].id, { reason: 'Outside the area' });
    const c = await h.db.selectFrom('cases').where('id', '=', id).select(['state', 'data']).executeTakeFirstOrThrow();
    expect(c.state).toBe('REJECTED');
    expect(c.data.tarea_retorno).toBe(-1);
    expect(await errorCode(acceptTask(h.db, env, await actor('coordinator@example.test'), (await tasksOf(id))[0].id))).toBe('INVALID_TRANSITION');
  });

  it('restarts a decided task for task administrators only', async () => {
    const id = await newCase(9);
    const coord = await actor('coordinator@example.test');
    await acceptTask(h.db, env, coord, (await tasksOf(id))[0].id, { data: intakeOk });
    const intake = (await tasksOf(id))[0];
    expect(await errorCode(restartTask(h.db, env, await actor('reviewer@example.test'), intake.id))).toBe('FORBIDDEN');
    await restartTask(h.db, env, coord, intake.id);
    expect((await tasksOf(id))[0].state).toBe('PENDING');
  });
});

describe('assignment', () => {
  it('takes turns in a round-robin team', async () => {
    const ids: number[] = [];
    for (const n of [10, 11, 12, 13]) ids.push(await newCase(n));
    const who = await Promise.all(ids.map(async (id) => (await tasksOf(id))[0].responsible_user_id));
    const members = (await h.db.selectFrom('team_members as m').innerJoin('teams as t', 't.id', 'm.team_id').where('t.name', '=', 'Intake').select('m.user_id').orderBy('m.user_id').execute()).map((m) => m.user_id);
    // Consecutive cases go to consecutive members, wrapping around.
    const positions = who.map((u) => members.indexOf(u as number));
    for (let i = 1; i < positions.length; i++) expect(positions[i]).toBe((positions[i - 1] + 1) % members.length);
  });
});

describe('overdue tasks', () => {
  it('are flagged once by the sweep, with a reminder queued', async () => {
    const before = (await h.db.selectFrom('mail_outbox').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()).n;
    const flagged = (await sweepDeadlines(h.db, env)).overdue;
    expect(flagged).toBeGreaterThanOrEqual(1);
    expect((await sweepDeadlines(h.db, env)).overdue).toBe(0);
    const reminders = await h.db.selectFrom('mail_outbox').where('subject', 'like', 'Overdue:%').select(['to_address', 'body_text']).execute();
    expect(reminders.length).toBeGreaterThanOrEqual(1);
    expect(reminders[0].body_text).toContain('https://cases.example.org/tasks/');
    // One to each responsible, and one to each leader of the task's team.
    expect((await h.db.selectFrom('mail_outbox').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()).n).toBeGreaterThanOrEqual(before + flagged);
  });
});

describe('submitting cases', () => {
  it('never gives two cases the same number, even all at once', async () => {
    const ids = await Promise.all(Array.from({ length: 15 }, (_, i) => newCase(100 + i)));
    const serials = await h.db.selectFrom('cases').where('id', 'in', ids).select('serial').execute();
    expect(new Set(serials.map((s) => s.serial)).size).toBe(15);
  });
});
