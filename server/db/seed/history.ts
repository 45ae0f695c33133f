import { hash } from '@node-rs/argon2';
import { sql } from 'kysely';
import { lockCase } from '../../modules/cases/repo.js';
import { setCaseState } from '../../modules/cases/transitions.js';
import { addComment } from '../../modules/comments/commands.js';
import type { Actor } from '../../modules/acl/policy.js';
import { actorForUser } from '../../modules/auth/sessions.js';
import type { NotifyEnv } from '../../modules/notifications/commands.js';
import type { ProtocolDefinition } from '../../../core/workflow/protocol.js';
import { openCasesInBulk, reserveIn } from '../../modules/workflow/bulk.js';
import { acceptTask, closeOpenTasks, rejectTask } from '../../modules/workflow/engine.js';
import type { Db } from '../pool.js';
import { DEMO_DECISIONS, demoAward, RENTAL_PROTOCOL_CODE } from './workflow.js';

/**
 * Six months of history for the demo's reports and dashboard (issue 19): a
 * few hundred applications of the rental-assistance protocol, each from an
 * applicant account of its own, submitted and worked through the engine by
 * the demo's staff (intake, documents, eligibility and landlord, payment,
 * notification, completion; some sent back, not eligible, withdrawn, stuck
 * at a supervisor nobody is assigned to, or still under way), with comments.
 *
 * The engine stamps what it writes with the clock (`now()` in SQL, `new
 * Date()` in code), and each person acts as they would today. So every
 * engine call is timed: the rows of its case that it wrote carry stamps
 * within its window of real time, and when all the applications are done
 * one transaction moves each such stamp back by its call's distance from the
 * moment the call stands for (the case's creation and changes, its tasks'
 * creation, decision and due dates, its history, comments and
 * notifications). Windows of one case never overlap: the next call starts
 * at least 2 ms after the last one ended, and the boundary lies in between,
 * so a stamp belongs to exactly one call. Stamps the database writes are
 * compared on its own clock (its distance from ours measured once).
 * Submissions take the moment they stand for themselves (`submitCase`'s
 * `now`), so their application numbers follow the month.
 *
 * Nothing of the history is overdue or due within a day: what is still
 * open started within the last 20 hours (or waits unassigned, which has no
 * due date), so the minute sweep does not flood the staff's bells with
 * months-old reminders. Its notifications are kept as read; its emails
 * (never sent: they would be months old) are not kept.
 *
 * Runs once, after seedDemoWorkflow, on a fresh demo (it does nothing when
 * history applicants exist). Deterministic in what it plans; who of a team
 * gets a task follows the engine's round robin and load at the time.
 */

export const HISTORY_APPLICATIONS = 200;
/** Applications worked at once (each one's steps in order). */
const CONCURRENCY = Number(process.env.HC ?? 8);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** History accounts are the public's: example.org addresses, never the demo's logins. */
export const HISTORY_EMAIL_DOMAIN = 'history.example.org';

const FIRST = ['Lucía', 'Mateo', 'Sofía', 'Sebastián', 'Isabela', 'Nicolás', 'Mariana', 'Samuel', 'Gabriela', 'Tomás', 'Paula', 'Diego', 'Laura', 'Martín', 'Juliana', 'Emilio', 'Catalina', 'Alejandro', 'Natalia', 'Héctor', 'Elena', 'Ricardo', 'Adriana', 'Manuel'];
const LAST = ['Pérez', 'Sánchez', 'Ortiz', 'Jiménez', 'Muñoz', 'Rivera', 'Suárez', 'Mendoza', 'Cárdenas', 'Guerrero', 'Medina', 'Herrera', 'Aguilar', 'Peña', 'Cortés', 'Salazar', 'Ríos', 'Vega', 'Navarro', 'Fuentes', 'Acosta', 'Molina'];
const CITIES = ['05001', '11001', '76001', '08001', '05266', '76520', '25754', '08758', '05360', '25899'];
const COMMENTS = [
  'Called the applicant to confirm the household size.',
  'The landlord asked when the payment will arrive.',
  'Pay stubs are from last year; asked for current ones.',
  'Applicant prefers to be contacted by email.',
  'Checked the lease dates against the arrears claimed.',
  'Second reminder sent for the missing bank statement.',
  'Household includes an elderly member: flagged for priority.',
  'Landlord confirmed the unit address by phone.',
];
const RETURNS = ['The lease is missing its signature page.', 'The pay stubs are not legible.', 'The ID document has expired.'];

/** A small deterministic generator (mulberry32), so the plan is the same on every fresh demo. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

type Who = 'responsible' | 'coordinator';
type Step =
  | { kind: 'accept'; code: string; values: Record<string, unknown>; hours: number }
  | { kind: 'reject'; code: string; reason: string; values?: Record<string, unknown>; hours: number }
  | { kind: 'comment'; body: string; who: Who; hours: number }
  | { kind: 'complete'; hours: number }
  | { kind: 'withdraw'; hours: number };

interface Plan {
  index: number;
  /** When the application is submitted (ms). */
  submitAt: number;
  steps: Step[];
  data: Record<string, unknown>;
}

/**
 * What happens to application `i`: a path through the protocol and the hours
 * between its steps. Most end (completed, not eligible, withdrawn,
 * inconsistent, waiting for a supervisor); some are under way, their last
 * step within the last 20 hours.
 */
function planOf(i: number, now: number): Plan {
  const r = random(19_000 + i);
  const between = (min: number, max: number) => min + r() * (max - min);
  const pick = <T>(list: readonly T[]) => list[Math.floor(r() * list.length)] as T;
  const { intakeOk, docsOk, eligible, landlordOk, pay } = DEMO_DECISIONS;
  const steps: Step[] = [];
  const accept = (code: string, values: Record<string, unknown>, min: number, max: number) => steps.push({ kind: 'accept', code, values, hours: between(min, max) });
  const comment = () => {
    if (r() < 0.35) steps.push({ kind: 'comment', body: pick(COMMENTS), who: r() < 0.5 ? 'coordinator' : 'responsible', hours: between(1, 20) });
  };
  const roll = r();
  // Under way: waiting at intake, documents, eligibility (landlord maybe done) or payment.
  const underWay = roll < 0.15;
  const wait = underWay ? pick(['intake', 'documents', 'eligibility', 'payment'] as const) : null;
  // Ended: completed, not eligible at intake or at eligibility, inconsistent, withdrawn, or stuck waiting for a supervisor.
  const ending = underWay ? null : pick(['done', 'done', 'done', 'done', 'done', 'done', 'intakeNo', 'intakeNo', 'notEligible', 'inconsistent', 'withdrawn', 'supervisor'] as const);

  const intake = () => {
    if (ending === 'intakeNo') {
      steps.push({ kind: 'reject', code: 'intake', reason: 'The household lives outside the programme area.', values: { complete: 'no', missingInfo: 'Outside the area' }, hours: between(2, 60) });
      return false;
    }
    accept('intake', intakeOk, 2, 60);
    return true;
  };
  let going = wait !== 'intake' && intake();
  comment();
  if (going && wait !== 'documents') {
    // One in five goes back to intake once for a missing document.
    if (r() < 0.2) {
      steps.push({ kind: 'reject', code: 'documents', reason: pick(RETURNS), hours: between(4, 72) });
      accept('intake', intakeOk, 2, 48);
    }
    accept('documents', docsOk, 4, 96);
    comment();
    if (ending === 'withdrawn') {
      steps.push({ kind: 'withdraw', hours: between(4, 120) });
      going = false;
    }
  } else going = false;
  // Waiting at eligibility: it and the landlord's check both started with the documents' acceptance, the last step.
  if (wait === 'eligibility') going = false;
  if (going) {
    // Eligibility and the landlord in either order; payment waits for both.
    // (An inconsistent one has the landlord done first, so nothing of it is left due.)
    const landlordFirst = ending === 'inconsistent' || r() < 0.5;
    if (landlordFirst) accept('landlord', landlordOk, 4, 120);
    if (ending === 'notEligible') {
      steps.push({ kind: 'reject', code: 'eligibility', reason: 'Household income above 80% of the area median.', hours: between(4, 96) });
      going = false;
    } else if (ending === 'inconsistent') {
      accept('eligibility', { eligible: 'no', amiPercent: 95, reason: 'Income above the limit' }, 4, 96);
      going = false;
    } else accept('eligibility', { ...eligible, amiPercent: Math.round(between(20, 80)) }, 4, 96);
    if (going && !landlordFirst) accept('landlord', landlordOk, 2, 72);
  }
  if (going && wait !== 'payment') {
    if (r() < 0.1) {
      steps.push({ kind: 'reject', code: 'payment', reason: 'The amount does not match the arrears.', hours: between(2, 48) });
      accept('eligibility', { ...eligible, amiPercent: Math.round(between(20, 80)) }, 4, 48);
    }
    const amount = ending === 'supervisor' ? Math.round(between(5_200, 9_000)) : Math.round(between(600, 4_800));
    accept('payment', pay(amount), 2, 48);
    comment();
    if (ending === 'done') {
      accept('notify', {}, 1, 24);
      steps.push({ kind: 'complete', hours: between(1, 24) });
    }
  }

  // Under way, the waiting task started at the last decision: no comment after it (it would move that start back).
  while (underWay && steps[steps.length - 1]?.kind === 'comment') steps.pop();
  const total = steps.reduce((n, s) => n + s.hours * HOUR, 0);
  const [first, last] = [FIRST[i % FIRST.length] as string, LAST[Math.floor(i / FIRST.length) % LAST.length] as string];
  const city = pick(CITIES);
  const members = 1 + Math.floor(r() * 5);
  const data = {
    firstName: first,
    lastName: last,
    documentType: 'CC',
    documentNumber: String(2_000_000_000 + i * 7919),
    email: `${first}.${last}.${i}`.toLowerCase().normalize('NFD').replace(/[\u0300-\u036f]/g, '') + '@example.org',
    phone: `301${String(1_000_000 + i * 3571).slice(0, 7)}`,
    departamento: city.slice(0, 2),
    municipio: city,
    zipCode: city,
    payRent: Math.round(between(450, 1_900)),
    householdInformation: Array.from({ length: members }, (_, m) => ({ memberName: m === 0 ? `${first} ${last}` : `${pick(FIRST)} ${last}`, relationship: m === 0 ? 'self' : 'child', age: m === 0 ? Math.round(between(22, 70)) : Math.round(between(1, 17)) })),
    housing_assistance: i % 4 === 0,
    income_required_housing_assistance: i % 4 === 0 ? 250 : undefined,
    working_third_party: i % 9 === 0,
    third_party_email: i % 9 === 0 ? 'caseworker@example.org' : undefined,
    sourceSNAP: r() < 0.4,
    sourceUnemployment: r() < 0.3,
  };
  // Under way: its last step between 1 and 20 hours ago. Ended: submitted up to six months ago, more of them lately,
  // and over at least two hours ago.
  let submitAt: number;
  if (underWay) submitAt = now - between(1, 20) * HOUR - total;
  else {
    submitAt = now - 180 * DAY * r() ** 1.4 - 2 * HOUR;
    if (submitAt + total > now - 2 * HOUR) submitAt = now - 2 * HOUR - total;
  }
  return { index: i, submitAt: Math.max(submitAt, now - 182 * DAY), steps, data };
}

interface Window {
  caseId: number;
  /** Real time (ms, our clock) the call's stamps lie within: [from, to). */
  from: number;
  to: number;
  /** The moment the call stands for. */
  at: number;
}

export async function seedDemoHistory(db: Db, env: NotifyEnv, log: (msg: string) => void = () => {}, count = HISTORY_APPLICATIONS): Promise<number> {
  const started = performance.now();
  const protocol = await db
    .selectFrom('protocols as p')
    .innerJoin('entities as e', 'e.id', 'p.entity_id')
    .innerJoin('protocol_versions as v', (j) => j.onRef('v.protocol_id', '=', 'p.id').onRef('v.version', '=', 'p.published_version'))
    .where('e.docnumber', '=', '900100200')
    .where('p.code', '=', RENTAL_PROTOCOL_CODE)
    .select(['p.id', 'p.entity_id', 'p.case_type', 'v.id as version_id', 'v.definition'])
    .executeTakeFirst();
  if (!protocol) return 0;
  const entityId = protocol.entity_id;
  const already = await db.selectFrom('users').where('entity_id', '=', entityId).where('email', 'like', `%@${HISTORY_EMAIL_DOMAIN}`).select('id').executeTakeFirst();
  if (already) return 0;
  const project = await db.selectFrom('projects').where('entity_id', '=', entityId).where('uid', '=', 'applications').select(['id', 'time_zone']).executeTakeFirstOrThrow();
  const target = {
    protocolId: protocol.id,
    protocolVersionId: protocol.version_id,
    def: protocol.definition as ProtocolDefinition,
    caseType: protocol.case_type,
    project: { id: project.id, timeZone: project.time_zone },
  };
  const applicantRole = await db.selectFrom('acl_roles').where('entity_id', '=', entityId).where('code', '=', 'applicant').select('id').executeTakeFirstOrThrow();
  const coordinatorId = (await db.selectFrom('users').where('email', '=', 'coordinator@demo.test').select('id').executeTakeFirstOrThrow()).id;
  // Mail of the history is never sent (it would be months old) and no delivery is started for it.
  const quiet: NotifyEnv = { publicUrl: env.publicUrl, smtpConfigured: false };

  const now = Date.now();
  const plans = Array.from({ length: count }, (_, i) => planOf(i, now));
  // One applicant account per application, opened an hour or so before its draft.
  const passwordHash = await hash('Demo12345');
  const owners = await db
    .insertInto('users')
    .values(
      plans.map((p) => ({
        entity_id: entityId,
        email: `${String(p.data.email).split('@')[0]}@${HISTORY_EMAIL_DOMAIN}`,
        name: `${p.data.firstName} ${p.data.lastName}`,
        docnumber: String(p.data.documentNumber),
        role_id: applicantRole.id,
        password_hash: passwordHash,
        created_at: new Date(p.submitAt - 90 * 60_000),
      })),
    )
    .returning('id')
    .execute();
  // The history's applicants do not take the places the demo's plan leaves for new accounts (the public
  // sign-up of the demo entity, an admin's new user): the plan grows by as many as were added.
  await db.updateTable('entities').set((eb) => ({ account_limit: eb('account_limit', '+', owners.length) })).where('id', '=', entityId).execute();

  const actors = new Map<number, Promise<Actor>>();
  const actorOf = (userId: number) => {
    let a = actors.get(userId);
    if (!a) actors.set(userId, (a = actorForUser(db, userId)));
    return a;
  };
  const windows: Window[] = [];
  const cases: number[] = [];
  // Our clock against the database's: its stamps are compared on its own clock.
  const before = Date.now();
  const dbNow = Number((await sql<{ ms: string }>`select extract(epoch from clock_timestamp()) * 1000 as ms`.execute(db)).rows[0]?.ms);
  const skew = dbNow - (before + Date.now()) / 2;

  /** Runs one engine call of a case as if at `at`, keeping its window of real time. */
  const timed = async <T>(caseId: number | ((result: T) => number), at: number, call: () => Promise<T>): Promise<T> => {
    const from = Date.now() - 1;
    const result = await call();
    const end = Date.now();
    windows.push({ caseId: typeof caseId === 'function' ? caseId(result) : caseId, from, to: end + 2, at });
    // The case's next call starts 3 ms later at least: its stamps fall after this window's end, 1 ms clear of it.
    while (Date.now() < end + 3) await new Promise((r) => setTimeout(r, 1));
    return result;
  };
  const openTask = async (caseId: number, code: string) =>
    db.selectFrom('tasks').where('case_id', '=', caseId).where('code', '=', code).where('state', '=', 'PENDING').orderBy('id', 'desc').select(['id', 'responsible_user_id']).executeTakeFirst();

  const run = async (plan: Plan, ownerId: number) => {
    // Submitted at its moment, through the engine's batch path (what the CSV import uses): the rows a submission
    // writes, numbered in its month, its first task given by the Intake team's round robin, stamped with `now`.
    const applicant = await actorOf(ownerId);
    const opened = await db.transaction().execute((trx) =>
      openCasesInBulk(trx, reserveIn(trx), applicant, target, [{ externalRef: `demo-history-${plan.index + 1}`, data: plan.data, possibleDuplicated: false }], new Map(), new Date(plan.submitAt)),
    );
    const caseId = opened.caseIds[0] as number;
    cases.push(caseId);
    let at = plan.submitAt;
    let lastResponsible: number | null = null;
    for (const step of plan.steps) {
      at += step.hours * HOUR;
      if (step.kind === 'accept' || step.kind === 'reject') {
        const task = await openTask(caseId, step.code);
        // A task nobody holds (the supervisors' team is empty) waits: the rest of this path cannot happen.
        if (!task?.responsible_user_id) return;
        lastResponsible = task.responsible_user_id;
        const actor = await actorOf(task.responsible_user_id);
        // The payment approval sets the award (issue 23): its months are those before the moment it stands for.
        const award = step.kind === 'accept' && step.code === 'payment' ? { award: demoAward(Number(step.values.amount), plan.index, new Date(at)) } : {};
        if (step.kind === 'accept') await timed(caseId, at, () => acceptTask(db, quiet, actor, task.id, { data: step.values, ...award }));
        else await timed(caseId, at, () => rejectTask(db, quiet, actor, task.id, { reason: step.reason, data: step.values }));
      } else if (step.kind === 'comment') {
        const actor = await actorOf(step.who === 'responsible' && lastResponsible ? lastResponsible : coordinatorId);
        await timed(caseId, at, () => addComment(db, quiet, actor, caseId, { body: step.body, visibleToApplicant: false, documents: [], mentions: [] }));
      } else {
        const coordinator = await actorOf(coordinatorId);
        await timed(caseId, at, () =>
          db.transaction().execute(async (trx) => {
            const row = await lockCase(trx, coordinator, caseId);
            if (step.kind === 'complete') return setCaseState(trx, quiet, row, 'complete', coordinator);
            await closeOpenTasks(trx, row, coordinator);
            return setCaseState(trx, quiet, row, 'close', coordinator, { reason: 'Withdrawn by the applicant' });
          }),
        );
      }
    }
  };

  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < plans.length) {
        const i = next++;
        await run(plans[i] as Plan, (owners[i] as { id: number }).id);
      }
    }),
  );
  await backdate(db, windows, cases, skew);
  log(`seeded the demo history: ${cases.length} applications over six months, in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return cases.length;
}

/**
 * Moves every stamp the history's calls wrote back to the moment its call
 * stands for, in one transaction: a stamp within a call's window of its
 * case moves by that window's distance. Due dates move with the moment they
 * were computed from (the due date less its calendar days, in the project's
 * zone), not with the task's last change.
 */
async function backdate(db: Db, windows: Window[], cases: number[], skew: number): Promise<void> {
  const iso = (ms: number) => new Date(ms).toISOString();
  await db.transaction().execute(async (trx) => {
    await sql`create temp table history_windows (case_id bigint, s timestamptz, e timestamptz, ds timestamptz, de timestamptz, shift interval) on commit drop`.execute(trx);
    await sql`
      insert into history_windows
      select case_id, s, e, s + ${`${skew} milliseconds`}::interval, e + ${`${skew} milliseconds`}::interval, s - at_time
      from unnest(${windows.map((w) => w.caseId)}::bigint[], ${windows.map((w) => iso(w.from))}::timestamptz[], ${windows.map((w) => iso(w.to))}::timestamptz[], ${windows.map((w) => iso(w.at))}::timestamptz[])
        as w(case_id, s, e, at_time)`.execute(trx);
    await sql`create index on history_windows (case_id, s)`.execute(trx);
    await sql`analyze history_windows`.execute(trx);
    // The distance of a stamp: within a window by our clock (stamps made in code), else by the database's (now() and
    // column defaults); none when it is in no window (a stamp the call did not write, or a moment set on purpose).
    const shift = (column: string, caseColumn: string) => {
      const [stamp, owner] = [sql.raw(column), sql.raw(caseColumn)];
      return sql`coalesce(
        (select w.shift from history_windows w where w.case_id = ${owner} and ${stamp} >= w.s and ${stamp} < w.e),
        (select w.shift from history_windows w where w.case_id = ${owner} and ${stamp} >= w.ds and ${stamp} < w.de),
        interval '0')`;
    };
    await sql`
      update tasks t set
        created_at = t.created_at - ${shift('t.created_at', 't.case_id')},
        updated_at = t.updated_at - ${shift('t.updated_at', 't.case_id')},
        decided_at = t.decided_at - ${shift('t.decided_at', 't.case_id')},
        due_at = t.due_at - ${shift('((t.due_at at time zone z.zone) - make_interval(days => t.expiration_days)) at time zone z.zone', 't.case_id')}
      from (select p.time_zone as zone from projects p join cases c on c.project_id = p.id where c.id = ${cases[0] ?? 0}) z
      where t.case_id = any(${cases}::bigint[])`.execute(trx);
    await sql`
      update cases c set
        created_at = c.created_at - ${shift('c.created_at', 'c.id')},
        updated_at = c.updated_at - ${shift('c.updated_at', 'c.id')},
        closed_at = c.closed_at - ${shift('c.closed_at', 'c.id')}
      where c.id = any(${cases}::bigint[])`.execute(trx);
    await sql`
      update awards a set
        created_at = a.created_at - ${shift('a.created_at', 'a.case_id')},
        updated_at = a.updated_at - ${shift('a.updated_at', 'a.case_id')},
        approved_at = a.approved_at - ${shift('a.approved_at', 'a.case_id')}
      where a.case_id = any(${cases}::bigint[])`.execute(trx);
    for (const table of ['case_events', 'comments']) {
      await sql`update ${sql.table(table)} x set created_at = x.created_at - ${shift('x.created_at', 'x.case_id')} where x.case_id = any(${cases}::bigint[])`.execute(trx);
    }
    // Months-old notices were read long ago.
    await sql`
      update notifications x set created_at = x.created_at - ${shift('x.created_at', 'x.case_id')}, read_at = x.created_at - ${shift('x.created_at', 'x.case_id')}
      where x.case_id = any(${cases}::bigint[])`.execute(trx);
    await sql`delete from mail_outbox where case_id = any(${cases}::bigint[])`.execute(trx);
  });
}
