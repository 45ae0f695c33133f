import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../tests/support/app.js';
import { seedDemo } from '../../db/seed/demo.js';
import { RENTAL_PROTOCOL_CODE, seedDemoWorkflow } from '../../db/seed/workflow.js';
import { type DbHandle, openDb } from '../../db/pool.js';
import { AppError } from '../../errors.js';
import { actorForUser } from '../auth/sessions.js';
import { createDraft, submitCase } from '../cases/commands.js';
import { acceptTask, assignTask, type EngineEnv, markOverdueTasks, rejectTask, restartTask } from './engine.js';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let h: DbHandle;
const env: EngineEnv = { publicUrl: 'https://cases.example.org', smtpConfigured: false };
beforeAll(async () => {
  database = await createTestDatabase();
  h = openDb(database.url, { max: 25 });
  await seedDemo(h.db);
  await seedDemoWorkflow(h.db, env);
});
afterAll(async () => {
  await h.close();
  await database.drop();
});

const userId = async (email: string) => (await h.db.selectFrom('users').where('email', '=', email).select('id').executeTakeFirstOrThrow()).id;
const actor = async (email: string) => actorForUser(h.db, await userId(email));
const protocol = async () => h.db.selectFrom('protocols').where('code', '=', RENTAL_PROTOCOL_CODE).select(['id', 'entity_id']).executeTakeFirstOrThrow();
const project = async () => (await h.db.selectFrom('projects').where('uid', '=', 'applications').select('id').executeTakeFirstOrThrow()).id;
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
  const applicant = await actor('applicant@demo.test');
  const p = await protocol();
  const id = await h.db.transaction().execute(async (trx) => createDraft(trx, applicant, { protocolId: p.id, projectId: await project(), ownerId: applicant.userId, data: application(n) }));
  await submitCase(h.db, env, applicant, id);
  return id;
}
const intakeOk = { complete: 'yes' };
const docsOk = { verified: ['lease'], allDocumentsOk: true };

describe('the demo, made through the engine', () => {
  it('has tasks and cases in every state the screens show', async () => {
    const tasks = await h.db.selectFrom('tasks').select(['state', sql<number>`count(*)::int`.as('n')]).groupBy('state').execute();
    expect(Object.fromEntries(tasks.map((t) => [t.state, t.n > 0]))).toMatchObject({ PENDING: true, BLOCKED: true, UNASSIGNED: true, ACCEPTED: true, REJECTED: true, CLOSED: true });
    const cases = await h.db.selectFrom('cases').select(['state', sql<number>`count(*)::int`.as('n')]).groupBy('state').orderBy('state').execute();
    expect(cases.map((c) => c.state)).toEqual(['CLOSED', 'DRAFT', 'INCONSISTENCY', 'PENDING', 'REJECTED', 'SUCCESS']);
    const rejected = await h.db.selectFrom('cases').where('state', '=', 'REJECTED').select('data').executeTakeFirstOrThrow();
    expect(rejected.data.tarea_retorno).toBe(-1);
  });

  it('numbers applications per project and month', async () => {
    const serials = (await h.db.selectFrom('cases').where('serial', 'is not', null).select('serial').orderBy('serial_seq').execute()).map((r) => r.serial as string);
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
    expect(await errorCode(acceptTask(h.db, env, await actor('payments@demo.test'), intake.id, { data: intakeOk }))).toBe('TASK_NOT_YOURS');
    expect((await tasksOf(id))[0].state).toBe('PENDING');
  });

  it('refuses an invalid form and changes nothing', async () => {
    const id = await newCase(2);
    const intake = (await tasksOf(id))[0];
    const events = async () => (await h.db.selectFrom('case_events').where('case_id', '=', id).select('id').execute()).length;
    const before = await events();
    expect(await errorCode(acceptTask(h.db, env, await actor('coordinator@demo.test'), intake.id, { data: { complete: 'maybe' } }))).toBe('VALIDATION');
    expect(await tasksOf(id)).toHaveLength(1);
    expect((await tasksOf(id))[0].state).toBe('PENDING');
    expect(await events()).toBe(before);
  });

  it('creates the next tasks, assigns them and sets due dates from the expiration days, in one go', async () => {
    const id = await newCase(3);
    const coord = await actor('coordinator@demo.test');
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
    const coord = await actor('coordinator@demo.test');
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
    const coord = await actor('coordinator@demo.test');
    const step = async (code: string, data: Record<string, unknown>) => acceptTask(h.db, env, coord, (await tasksOf(id)).find((t) => t.code === code && t.state === 'PENDING')?.id as number, { data });
    await step('intake', intakeOk);
    await step('documents', docsOk);
    await step('eligibility', { eligible: 'yes', amiPercent: 50 });
    await step('landlord', { landlordName: 'L', landlordEmail: 'l@example.org', leaseConfirmed: true });
    const payment = (await tasksOf(id)).find((t) => t.code === 'payment' && t.state === 'PENDING');
    await acceptTask(h.db, env, await actor('coordinator@demo.test'), payment?.id as number, { data: { amount: 9000, paymentMethod: 'check' } });
    const supervisor = (await tasksOf(id)).find((t) => t.code === 'supervisor');
    // Nobody is in the Supervisors team: the task waits unassigned, and cannot be accepted until someone is assigned.
    expect(supervisor?.state).toBe('UNASSIGNED');
    expect(await errorCode(acceptTask(h.db, env, await actor('coordinator@demo.test'), supervisor?.id as number))).toBe('INVALID_TRANSITION');
    await assignTask(h.db, env, await actor('coordinator@demo.test'), supervisor?.id as number, { userId: await userId('coordinator@demo.test') });
    expect((await tasksOf(id)).find((t) => t.code === 'supervisor')?.state).toBe('PENDING');
  });

  it('gives exactly one of 20 simultaneous accepts the task; the others get a 409', async () => {
    const id = await newCase(5);
    const intake = (await tasksOf(id))[0];
    const coord = await actor('coordinator@demo.test');
    const results = await Promise.all(Array.from({ length: 20 }, () => errorCode(acceptTask(h.db, env, coord, intake.id, { data: intakeOk }))));
    expect(results.filter((r) => r === 'ok')).toHaveLength(1);
    expect(results.filter((r) => r === 'INVALID_TRANSITION')).toHaveLength(19);
    expect((await tasksOf(id)).filter((t) => t.code === 'documents')).toHaveLength(1);
  });

  it('refuses a stale version of the task and a foreign task', async () => {
    const id = await newCase(6);
    const intake = (await tasksOf(id))[0];
    const coord = await actor('coordinator@demo.test');
    expect(await errorCode(acceptTask(h.db, env, coord, intake.id, { data: intakeOk, version: intake.version - 1 }))).toBe('STALE_TASK');
    expect(await errorCode(acceptTask(h.db, env, await actor('admin@other.test'), intake.id, { data: intakeOk }))).toBe('NOT_FOUND');
    expect((await tasksOf(id))[0].state).toBe('PENDING');
  });
});

describe('reject and restart', () => {
  it('sends the case back to the named earlier task with its data kept and the reason shown', async () => {
    const id = await newCase(7);
    const coord = await actor('coordinator@demo.test');
    await acceptTask(h.db, env, coord, (await tasksOf(id))[0].id, { data: { complete: 'yes', notes: 'Looks fine' } });
    await rejectTask(h.db, env, coord, (await tasksOf(id))[1].id, { reason: 'Bank statement is illegible' });
    const tasks = await tasksOf(id);
    expect(tasks.map((t) => [t.code, t.state])).toEqual([['intake', 'ACCEPTED'], ['documents', 'REJECTED'], ['intake', 'PENDING']]);
    expect(tasks[2].data).toEqual({ complete: 'yes', notes: 'Looks fine' });
    expect(tasks[2].reason).toBe('Bank statement is illegible');
  });

  it("ends the case as 'Not eligible' with -1 under tarea_retorno", async () => {
    const id = await newCase(8);
    await rejectTask(h.db, env, await actor('coordinator@demo.test'), (await tasksOf(id))[0].id, { reason: 'Outside the area' });
    const c = await h.db.selectFrom('cases').where('id', '=', id).select(['state', 'data']).executeTakeFirstOrThrow();
    expect(c.state).toBe('REJECTED');
    expect(c.data.tarea_retorno).toBe(-1);
    expect(await errorCode(acceptTask(h.db, env, await actor('coordinator@demo.test'), (await tasksOf(id))[0].id))).toBe('INVALID_TRANSITION');
  });

  it('restarts a decided task for task administrators only', async () => {
    const id = await newCase(9);
    const coord = await actor('coordinator@demo.test');
    await acceptTask(h.db, env, coord, (await tasksOf(id))[0].id, { data: intakeOk });
    const intake = (await tasksOf(id))[0];
    expect(await errorCode(restartTask(h.db, env, await actor('reviewer@demo.test'), intake.id))).toBe('FORBIDDEN');
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
    const flagged = await markOverdueTasks(h.db, env);
    expect(flagged).toBeGreaterThanOrEqual(1);
    expect(await markOverdueTasks(h.db, env)).toBe(0);
    const reminders = await h.db.selectFrom('mail_outbox').where('subject', 'like', 'Overdue:%').select(['to_address', 'body_text']).execute();
    expect(reminders.length).toBeGreaterThanOrEqual(1);
    expect(reminders[0].body_text).toContain('https://cases.example.org/tasks/');
    expect((await h.db.selectFrom('mail_outbox').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()).n).toBe(before + flagged);
  });
});

describe('submitting cases', () => {
  it('never gives two cases the same number, even all at once', async () => {
    const ids = await Promise.all(Array.from({ length: 15 }, (_, i) => newCase(100 + i)));
    const serials = await h.db.selectFrom('cases').where('id', 'in', ids).select('serial').execute();
    expect(new Set(serials.map((s) => s.serial)).size).toBe(15);
  });
});
