import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDateTime } from '../../../core/dates.js';
import { createTestApp, login, type TestApp } from '../../../tests/support/app.js';
import { makeCase, makeEntity, makeForm, makePublishedProtocol, makeTask, makeTeam, makeTeamMember, makeUser } from '../../../tests/support/factories.js';
import { startSmtp } from '../../../tests/support/smtp.js';
import { DEMO_ROLES } from '../../db/seed/acl.js';
import { actorForUser } from '../auth/sessions.js';
import { requestTransition, submitCase } from '../cases/commands.js';
import { addComment } from '../comments/commands.js';
import { acceptTask, type EngineEnv, rejectTask, sweepDeadlines } from '../workflow/engine.js';
import { sendDigests } from './commands.js';

/**
 * Issue 16's notifications end to end below the browser: each event reaches
 * its recipients in the bell and, as they chose, by email (the tenant's
 * template, or the protocol task's, in the recipient's language and time
 * zone); reminders and both escalation steps go once however often (and
 * however concurrently) the sweep runs, each in the case history; the daily
 * digest replaces the task and mention emails and goes once a day.
 */
let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let env: EngineEnv;
let entityId: number;
let applicant: { id: number; email: string };
let staff: { id: number; email: string; name: string };
let bogota: { id: number; email: string; name: string };
let leader: { id: number; email: string };
let supervisor: { id: number; email: string };
let customTemplateId: number;
let protocol: Awaited<ReturnType<typeof makePublishedProtocol>>;

const system = () => ({ system: true as const, entityId });
const outboxTo = (to: string, event?: string) => {
  let q = t.db.selectFrom('mail_outbox').where('to_address', '=', to);
  if (event) q = q.where('event', '=', event);
  return q.select(['id', 'subject', 'body_text', 'body_html', 'event', 'case_id', 'user_id']).orderBy('id').execute();
};
const bell = (userId: number, kind?: string) => {
  let q = t.db.selectFrom('notifications').where('user_id', '=', userId);
  if (kind) q = q.where('kind', '=', kind as never);
  return q.selectAll().orderBy('id').execute();
};
const history = (caseId: number, action: string) => t.db.selectFrom('case_events').where('case_id', '=', caseId).where('action', '=', action).select(['detail']).execute();
const tasksOf = (caseId: number) => t.db.selectFrom('tasks').where('case_id', '=', caseId).selectAll().orderBy('id').execute();

/** A case of `protocol` owned by the applicant, submitted by the system. */
async function submitted(data: Record<string, unknown> = { firstName: 'Lucía' }) {
  const c = await makeCase(t.db, protocol, { ownerId: applicant.id, data });
  await submitCase(t.db, env, system(), c.id);
  return c.id;
}

beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestApp({ env: { SMTP_URL: smtp.url, PUBLIC_URL: 'https://cases.example.org' } });
  env = t.app.engine;
  entityId = (await makeEntity(t.db)).id;
  const rules = (code: string) => DEMO_ROLES.find((r) => r.code === code)?.rules as never;
  applicant = await makeUser(t.db, entityId, { role: 'applicant', rules: rules('applicant'), language: 'es', email: 'lucia@example.test' });
  staff = await makeUser(t.db, entityId, { role: 'coordinator', rules: rules('coordinator'), language: 'en', email: 'sam@example.test', name: 'Sam Staff' });
  bogota = await makeUser(t.db, entityId, { role: 'reviewer', rules: rules('reviewer'), language: 'es', time_zone: 'America/Bogota', email: 'beatriz@example.test', name: 'Beatriz Revisora' });
  leader = await makeUser(t.db, entityId, { role: 'coordinator', email: 'leo@example.test' });
  supervisor = await makeUser(t.db, entityId, { role: 'supervisor', email: 'sofia@example.test' });
  customTemplateId = (
    await t.db
      .insertInto('mail_templates')
      .values({
        entity_id: entityId, name: 'Review assigned', event: 'task_assigned',
        subject_en: 'Review {{caseNumber}} now', subject_es: 'Revise {{caseNumber}} ya',
        body_html_en: '<p>{{recipientName}}: {{taskName}} for {{applicantFirstName}}, due {{dueDate}}. {{recordLink}}</p>',
        body_html_es: '<p>{{recipientName}}: {{taskName}} para {{applicantFirstName}}, vence {{dueDate}}. {{recordLink}}</p>',
        body_text_en: '{{recipientName}}: {{taskName}} for {{applicantFirstName}}, due {{dueDate}}. {{recordLink}}',
        body_text_es: '{{recipientName}}: {{taskName}} para {{applicantFirstName}}, vence {{dueDate}}. {{recordLink}}',
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  const mainForm = await makeForm(t.db, entityId);
  protocol = await makePublishedProtocol(t.db, entityId, {
    mainForm,
    start: ['intake'],
    tasks: [
      { code: 'intake', name: 'Intake', responsible: { kind: 'user', userId: staff.id }, onAccept: [{ to: 'documents' }] },
      { code: 'documents', name: 'Documentos', responsible: { kind: 'owner' }, onAccept: [{ to: 'review' }] },
      {
        code: 'review', name: 'Revisión', responsible: { kind: 'user', userId: bogota.id }, expirationDays: 3,
        mailTemplates: { task_assigned: customTemplateId }, onReject: { to: 'documents' },
      },
    ],
  });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

describe('events reach their recipients', () => {
  it('a submitted application: the applicant hears it arrived, the first task is assigned', async () => {
    const caseId = await submitted();
    const [arrived] = await outboxTo(applicant.email, 'application_submitted');
    // In the applicant's language (Spanish), from the seeded default template, with the number filled.
    const serial = (await t.db.selectFrom('cases').where('id', '=', caseId).select('serial').executeTakeFirstOrThrow()).serial as string;
    expect(arrived.subject).toBe(`Recibimos su solicitud ${serial}`);
    expect(arrived.body_html).toContain('Hola Lucía');
    // The reference number and the link to the application (issue 18's confirmation).
    expect(arrived.body_text).toContain(serial);
    expect(arrived.body_text).toContain(`https://cases.example.org/cases/${caseId}`);
    expect(arrived.case_id).toBe(caseId);
    expect(await bell(applicant.id, 'application_submitted')).toHaveLength(1);
    const [assigned] = (await outboxTo(staff.email, 'task_assigned')).filter((m) => m.case_id === caseId);
    expect(assigned.subject).toBe(`New task: Intake (${serial})`);
    expect(assigned.body_text).toContain(`https://cases.example.org/tasks/${(await tasksOf(caseId))[0].id}`);
  });

  it('accepting a task: the next responsible receives the task’s chosen template over SMTP, in Spanish, the due date in Bogotá time', async () => {
    const caseId = await submitted({ firstName: 'Marta' });
    await acceptTask(t.db, env, system(), (await tasksOf(caseId))[0].id);
    await acceptTask(t.db, env, system(), (await tasksOf(caseId))[1].id);
    const review = (await tasksOf(caseId))[2];
    const mail = await smtp.waitFor(bogota.email, 20_000);
    const serial = (await t.db.selectFrom('cases').where('id', '=', caseId).select('serial').executeTakeFirstOrThrow()).serial as string;
    expect(mail.subject).toBe(`Revise ${serial} ya`);
    const due = formatDateTime(review.due_at as Date, 'America/Bogota');
    expect(formatDateTime(review.due_at as Date, 'America/Bogota')).not.toBe(formatDateTime(review.due_at as Date, 'UTC'));
    expect(mail.text).toContain(`Beatriz Revisora: Revisión para Marta, vence ${due}. https://cases.example.org/tasks/${review.id}`);
    const [n] = await bell(bogota.id, 'task_assigned');
    expect(n).toMatchObject({ task_id: review.id, case_id: caseId });
  });

  it('a task sent back to the applicant: "returned for correction" with the reason and the link; closing tells them too', async () => {
    const caseId = await submitted();
    await acceptTask(t.db, env, system(), (await tasksOf(caseId))[0].id);
    await acceptTask(t.db, env, system(), (await tasksOf(caseId))[1].id);
    await rejectTask(t.db, env, system(), (await tasksOf(caseId))[2].id, { reason: 'Falta la firma del contrato' });
    const again = (await tasksOf(caseId))[3];
    expect(again).toMatchObject({ code: 'documents', responsible_user_id: applicant.id });
    const [returned] = (await outboxTo(applicant.email, 'case_returned')).filter((m) => m.case_id === caseId);
    expect(returned.subject).toMatch(/necesita una corrección$/);
    expect(returned.body_html).toContain('Falta la firma del contrato');
    expect(returned.body_text).toContain(`https://cases.example.org/tasks/${again.id}`);
    expect((await bell(applicant.id, 'case_returned')).at(-1)).toMatchObject({ case_id: caseId, task_id: again.id, detail: 'Falta la firma del contrato' });

    await requestTransition(t.db, env, await actorForUser(t.db, staff.id), caseId, 'close', { reason: 'Retirada por la solicitante' });
    const [closed] = (await outboxTo(applicant.email, 'case_closed')).filter((m) => m.case_id === caseId);
    expect(closed.subject).toMatch(/fue cerrada$/);
    expect(closed.body_html).toContain('Retirada por la solicitante');
  });
});

describe('deadlines', () => {
  /** A pending task of the protocol's review step for `responsible` in `team`, due at `dueAt`. */
  async function taskDue(dueAt: Date, options: { responsible?: number; team?: number | null; escalation?: { role: string; afterDays: number } } = {}) {
    const p = options.escalation
      ? await makePublishedProtocol(t.db, entityId, { tasks: [{ code: 'review', name: 'Escalated review', responsible: { kind: 'owner' }, escalation: options.escalation }] })
      : undefined;
    const task = await makeTask(t.db, entityId, { ownerId: applicant.id, protocol: p, responsibleUserId: options.responsible ?? bogota.id, teamId: options.team ?? null });
    // Given two days ago (a reminder is for a task that had more than a day), due as asked.
    await t.db.updateTable('tasks').set({ due_at: dueAt, created_at: new Date(Date.now() - 2 * 86_400_000) }).where('id', '=', task.id).execute();
    return task;
  }
  const hours = (h: number) => new Date(Date.now() + h * 3_600_000);

  it('remind the responsible once when due within a day, in the history', async () => {
    const task = await taskDue(hours(5));
    const far = await taskDue(hours(72));
    const [a, b] = await Promise.all([sweepDeadlines(t.db, env), sweepDeadlines(t.db, env)]);
    expect(a.reminded + b.reminded).toBeGreaterThanOrEqual(1);
    await sweepDeadlines(t.db, env);
    expect((await bell(bogota.id, 'task_due_soon')).filter((n) => n.task_id === task.id)).toHaveLength(1);
    expect((await bell(bogota.id, 'task_due_soon')).filter((n) => n.task_id === far.id)).toHaveLength(0);
    const mails = (await outboxTo(bogota.email, 'task_due_soon')).filter((m) => m.case_id === task.case_id);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toMatch(/^Vence pronto: /);
    expect(await history(task.case_id, 'task_reminded')).toHaveLength(1);
  });

  it('an overdue task tells its responsible and its team’s leaders once, then the protocol’s role once, each in the history', async () => {
    const team = await makeTeam(t.db, entityId);
    await makeTeamMember(t.db, team, bogota.id);
    await makeTeamMember(t.db, team, leader.id, { role: 'leader' });
    const task = await taskDue(hours(-2), { team: team.id, escalation: { role: 'supervisor', afterDays: 1 } });
    await Promise.all([sweepDeadlines(t.db, env), sweepDeadlines(t.db, env), sweepDeadlines(t.db, env)]);
    const row = await t.db.selectFrom('tasks').where('id', '=', task.id).selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ overdue: true, escalation_level: 1 });
    expect((row.escalate_at as Date).getTime()).toBe((row.due_at as Date).getTime() + 86_400_000);
    expect((await outboxTo(bogota.email, 'task_overdue')).filter((m) => m.case_id === task.case_id)).toHaveLength(1);
    const toLeader = (await outboxTo(leader.email, 'task_overdue')).filter((m) => m.case_id === task.case_id);
    expect(toLeader).toHaveLength(1);
    expect(toLeader[0].body_text).toContain('Beatriz Revisora');
    expect((await history(task.case_id, 'task_escalated')).map((e) => e.detail)).toEqual([{ level: 1, to: [leader.id] }]);
    expect(await outboxTo(supervisor.email)).toHaveLength(0);

    // A day past the due date: the role's turn, once however many sweeps run.
    await t.db.updateTable('tasks').set({ escalate_at: hours(-1) }).where('id', '=', task.id).execute();
    await Promise.all([sweepDeadlines(t.db, env), sweepDeadlines(t.db, env)]);
    await sweepDeadlines(t.db, env);
    expect((await outboxTo(supervisor.email, 'task_overdue')).filter((m) => m.case_id === task.case_id)).toHaveLength(1);
    expect((await history(task.case_id, 'task_escalated')).map((e) => e.detail)).toEqual([
      { level: 1, to: [leader.id] },
      { level: 2, role: 'supervisor', to: [supervisor.id] },
    ]);
    expect((await outboxTo(leader.email, 'task_overdue')).filter((m) => m.case_id === task.case_id)).toHaveLength(1);
  });
});

describe('each person’s choice', () => {
  it('GET gives every event by email at first; PUT keeps a choice, refuses an unknown event and changes nothing then', async () => {
    const u = await makeUser(t.db, entityId, { role: 'reviewer' });
    const { sid } = await login(t, u.email, 'Passw0rd1');
    const get = await t.request({ method: 'GET', url: '/api/notifications/preferences', cookies: { sid } });
    expect(get.statusCode).toBe(200);
    expect(get.json<{ emailEvents: string[]; digest: boolean }>().emailEvents).toContain('task_assigned');
    const bad = await t.request({ method: 'PUT', url: '/api/notifications/preferences', cookies: { sid }, payload: { emailEvents: ['task_assigned', 'constructor'], digest: true } });
    expect(bad.statusCode).toBe(400);
    expect((await t.request({ method: 'GET', url: '/api/notifications/preferences', cookies: { sid } })).json()).toMatchObject({ digest: false });
    const put = await t.request({ method: 'PUT', url: '/api/notifications/preferences', cookies: { sid }, payload: { emailEvents: ['mention', 'mention'], digest: true } });
    expect(put.json()).toEqual({ emailEvents: ['mention'], digest: true });
    expect((await t.request({ method: 'GET', url: '/api/notifications/preferences', cookies: { sid } })).json()).toEqual({ emailEvents: ['mention'], digest: true });
    expect((await t.request({ method: 'GET', url: '/api/notifications/preferences' })).statusCode).toBe(401);
  });

  it('an event turned off for email still rings the bell; with the digest, task mail waits for one email a day at 7:00 local time', async () => {
    const quiet = await makeUser(t.db, entityId, { role: 'reviewer', email_events: [], time_zone: 'America/New_York', email: 'quiet@example.test' });
    const digester = await makeUser(t.db, entityId, { role: 'reviewer', digest: true, time_zone: 'Europe/Madrid', language: 'es', email: 'daria@example.test', name: 'Daria' });
    await makeTask(t.db, entityId, { ownerId: applicant.id, responsibleUserId: quiet.id });
    const task = await makeTask(t.db, entityId, { ownerId: applicant.id });
    // Reassigned to the digester through the engine: the bell rings, no mail of its own.
    const { assignTask } = await import('../workflow/engine.js');
    await assignTask(t.db, env, await actorForUser(t.db, staff.id), task.id, { userId: digester.id });
    await makeTask(t.db, entityId, { ownerId: applicant.id, responsibleUserId: quiet.id });
    expect(await bell(digester.id, 'task_assigned')).toHaveLength(1);
    expect(await outboxTo(digester.email)).toHaveLength(0);
    await t.db.updateTable('tasks').set({ due_at: new Date(Date.now() - 3_600_000), overdue: true }).where('id', '=', task.id).execute();
    const soon = await makeTask(t.db, entityId, { ownerId: applicant.id, responsibleUserId: digester.id });
    await t.db.updateTable('tasks').set({ due_at: new Date(Date.now() + 5 * 3_600_000) }).where('id', '=', soon.id).execute();

    // 06:30 in Madrid: not yet. 07:10: one digest, in Spanish, listing the overdue task. Again the same day: nothing.
    // Tomorrow in Madrid (the tasks' due dates are now's, and the digest lists what falls due within two days).
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Madrid' }).format(new Date(Date.now() + 86_400_000));
    const madrid = (hhmm: string) =>
      ['+01:00', '+02:00'].map((offset) => new Date(`${day}T${hhmm}:00${offset}`)).find((d) => new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Madrid', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(d) === hhmm) as Date;
    expect(await sendDigests(t.db, env, madrid('06:30'))).toBe(0);
    const [first, second] = await Promise.all([sendDigests(t.db, env, madrid('07:10')), sendDigests(t.db, env, madrid('07:10'))]);
    expect(first + second).toBeGreaterThanOrEqual(1);
    expect(await sendDigests(t.db, env, madrid('18:00'))).toBe(0);
    const digests = await outboxTo(digester.email, 'digest');
    expect(digests).toHaveLength(1);
    expect(digests[0].subject).toBe('Sus tareas y menciones de hoy');
    // One line per task, overdue first: line breaks in the HTML part too.
    expect(digests[0].body_text).toMatch(/Vencida desde [^\n]+\nVence /);
    expect(digests[0].body_html).toMatch(/<br ?\/?>/);
    // The next morning: the next one.
    expect(await sendDigests(t.db, env, new Date(madrid('07:10').getTime() + 86_400_000))).toBeGreaterThanOrEqual(1);
    expect(await outboxTo(digester.email, 'digest')).toHaveLength(2);
  });
});

describe('comments', () => {
  it('a mention emails the mentioned; a comment for the applicant emails the applicant; the author hears of neither', async () => {
    const caseId = await submitted();
    const author = await actorForUser(t.db, staff.id);
    await addComment(t.db, env, author, caseId, { body: 'Beatriz, mira el contrato <b>por favor</b>', visibleToApplicant: true, documents: [], mentions: [bogota.id, staff.id] });
    const [mention] = (await outboxTo(bogota.email, 'mention')).filter((m) => m.case_id === caseId);
    expect(mention.subject).toMatch(/^Sam Staff lo mencionó en el caso /);
    // The comment is a value: escaped in the HTML part, never markup.
    expect(mention.body_html).toContain('&lt;b&gt;por favor&lt;/b&gt;');
    const [visible] = (await outboxTo(applicant.email, 'comment_visible')).filter((m) => m.case_id === caseId);
    expect(visible.body_text).toContain('Beatriz, mira el contrato');
    expect((await outboxTo(staff.email)).filter((m) => m.case_id === caseId && ['mention', 'comment_visible'].includes(m.event ?? ''))).toHaveLength(0);
  });
});

describe('the outbox after all this', () => {
  it('holds no message with an unfilled placeholder', async () => {
    const left = await t.db.selectFrom('mail_outbox').where(sql<boolean>`subject || body_text like '%{{%'`).select('id').execute();
    expect(left).toHaveLength(0);
  });
});
