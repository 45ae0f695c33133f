import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../tests/support/app.js';
import { type DbHandle, openDb } from '../pool.js';
import { seedDemo } from './demo.js';
import { HISTORY_EMAIL_DOMAIN, seedDemoHistory } from './history.js';
import { seedDemoPayments } from './payments.js';
import { seedDemoWorkflow } from './workflow.js';

/**
 * The demo's six months of history (seedDemoHistory), on a demo of its own:
 * made through the engine, then moved back in time call by call. A smaller
 * run than the demo's (the same plans, the first 80) keeps the file quick.
 */
const env = { publicUrl: 'http://localhost:3000', smtpConfigured: false };
const COUNT = 80;
let demo: Awaited<ReturnType<typeof createTestDatabase>>;
let d: DbHandle;
let ids: number[];
let seededAt: Date;

beforeAll(async () => {
  demo = await createTestDatabase();
  d = openDb(demo.url, { max: 10 });
  await seedDemo(d.db);
  await seedDemoWorkflow(d.db, env);
  seededAt = new Date();
  expect(await seedDemoHistory(d.db, env, () => {}, COUNT)).toBe(COUNT);
  ids = (await d.db.selectFrom('cases as c').innerJoin('users as u', 'u.id', 'c.owner_id').where('u.email', 'like', `%@${HISTORY_EMAIL_DOMAIN}`).select('c.id').execute()).map((r) => r.id);
}, 180_000);
afterAll(async () => {
  await d?.close();
  await demo?.drop();
});


describe('the demo history', () => {
  it('holds an application per account, numbered in the months they were submitted, over six months', async () => {
    expect(ids).toHaveLength(COUNT);
    const rows = await d.db.selectFrom('cases').where('id', 'in', ids).select(['serial', 'serial_month', 'doc_date', 'created_at', 'state']).execute();
    const months = new Set(rows.map((r) => r.serial_month));
    expect(months.size).toBeGreaterThanOrEqual(5);
    for (const r of rows) {
      expect(r.serial?.startsWith(`${r.serial_month}-`)).toBe(true);
      expect((r.doc_date as Date).getTime()).toBe(r.created_at.getTime());
      expect(r.created_at.getTime()).toBeGreaterThan(seededAt.getTime() - 183 * 86_400_000);
      expect(r.created_at.getTime()).toBeLessThan(seededAt.getTime() - 3_600_000);
    }
    // Every way an application ends, and some still under way.
    expect(new Set(rows.map((r) => r.state))).toEqual(new Set(['SUCCESS', 'REJECTED', 'CLOSED', 'INCONSISTENCY', 'PENDING']));
  });

  it('has tasks in every state, decided by several people of the teams, spread over the months', async () => {
    const tasks = await d.db.selectFrom('tasks').where('case_id', 'in', ids).select(['state', 'decided_by', 'decided_at', 'created_at', 'updated_at', 'due_at', 'expiration_days', 'code']).execute();
    expect(new Set(tasks.map((t) => t.state))).toEqual(new Set(['ACCEPTED', 'REJECTED', 'CLOSED', 'PENDING', 'UNASSIGNED', 'BLOCKED']));
    const deciders = await d.db.selectFrom('users').where('id', 'in', [...new Set(tasks.flatMap((t) => (t.decided_by ? [t.decided_by] : [])))]).select('email').execute();
    expect(deciders.map((u) => u.email).sort()).toEqual(['coordinator@demo.test', 'intake@demo.test', 'payments@demo.test', 'reviewer@demo.test']);
    const decidedMonths = new Set(tasks.flatMap((t) => (t.decided_at ? [t.decided_at.toISOString().slice(0, 7)] : [])));
    expect(decidedMonths.size).toBeGreaterThanOrEqual(5);
    for (const t of tasks) {
      // A task is decided after it was made, within weeks, not at the moment of the seed.
      if (t.decided_at) {
        expect(t.decided_at.getTime(), t.code).toBeGreaterThanOrEqual(t.created_at.getTime());
        expect(t.decided_at.getTime() - t.created_at.getTime(), t.code).toBeLessThan(30 * 86_400_000);
      }
      expect(t.created_at.getTime()).toBeLessThan(seededAt.getTime() - 3_600_000);
      // Due dates moved with the moment they were set (the task's start, or a payment's when it stopped waiting):
      // its expiration days after it, not after the seed.
      if (t.due_at) {
        const days = (t.expiration_days as number) * 86_400_000;
        expect(t.due_at.getTime(), t.code).toBeGreaterThanOrEqual(t.created_at.getTime() + days - 3_600_000);
        expect(t.due_at.getTime(), t.code).toBeLessThanOrEqual((t.decided_at ?? t.updated_at).getTime() + days + 3_600_000);
      }
    }
  });

  it('leaves nothing overdue or due within a day, so the deadline sweep sends no months-old reminders', async () => {
    const due = await d.db.selectFrom('tasks').where('case_id', 'in', ids)
      .where('state', '=', 'PENDING')
      .where(sql<boolean>`due_at < now() + interval '24 hours'`)
      .select('id')
      .execute();
    expect(due).toEqual([]);
    const open = await d.db.selectFrom('tasks').where('case_id', 'in', ids).where('state', '=', 'PENDING').select('id').execute();
    expect(open.length).toBeGreaterThan(0);
  });

  it('keeps each case’s history in the order it happened, with comments, read notices and no months-old mail', async () => {
    const events = await d.db.selectFrom('case_events').where('case_id', 'in', ids).select(['case_id', 'id', 'created_at', 'action']).orderBy('case_id').orderBy('id').execute();
    expect(events.length).toBeGreaterThan(COUNT * 4);
    for (let i = 1; i < events.length; i++) {
      const [a, b] = [events[i - 1], events[i]] as [(typeof events)[number], (typeof events)[number]];
      if (a.case_id === b.case_id) expect(b.created_at.getTime(), `${b.action} of case ${b.case_id}`).toBeGreaterThanOrEqual(a.created_at.getTime());
    }
    expect(Math.max(...events.map((e) => e.created_at.getTime()))).toBeLessThan(seededAt.getTime() - 3_600_000);
    const comments = await d.db.selectFrom('comments').where('case_id', 'in', ids).select(['created_at', 'author_id']).execute();
    expect(comments.length).toBeGreaterThan(5);
    for (const c of comments) expect(c.created_at.getTime()).toBeLessThan(seededAt.getTime() - 3_600_000);
    const unread = await d.db.selectFrom('notifications').where('case_id', 'in', ids).where('read_at', 'is', null).select('id').execute();
    expect(unread).toEqual([]);
    expect(await d.db.selectFrom('mail_outbox').where('case_id', 'in', ids).select('id').execute()).toEqual([]);
  });

  it('leaves the demo plan the room it had for new accounts (the public sign-up of the demo entity)', async () => {
    const e = await d.db
      .selectFrom('entities as e')
      .where('e.docnumber', '=', '900100200')
      .select(['e.account_limit', sql<number>`(select count(*)::int from users u where u.entity_id = e.id)`.as('used')])
      .executeTakeFirstOrThrow();
    // 50 accounts in the plan, the demo's own users, and the history's applicants on top.
    expect(e.account_limit).toBe(50 + COUNT);
    expect(e.account_limit - e.used).toBeGreaterThan(30);
  });

  it('runs once', async () => {
    expect(await seedDemoHistory(d.db, env)).toBe(0);
    const count = await d.db.selectFrom('users').where('email', 'like', `%@${HISTORY_EMAIL_DOMAIN}`).select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
    expect(count.n).toBe(COUNT);
  });
});

describe('the demo money (issue 23)', () => {
  it('gives each decided payment an award of its months, then the landlords’ details, one batch paid of what is a month old, once', async () => {
    const entityId = (await d.db.selectFrom('entities').where('docnumber', '=', '900100200').select('id').executeTakeFirstOrThrow()).id;
    const awards = await d.db.selectFrom('awards').where('entity_id', '=', entityId).where('case_id', 'in', ids).select(['case_id', 'arrears_months', 'ahead_months', 'approved_at', 'total']).execute();
    expect(awards.length).toBeGreaterThan(10);
    for (const a of awards) {
      // The three months before the (moved back) decision, none ahead.
      const at = new Date(a.approved_at);
      const before = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
      expect(a.arrears_months).toHaveLength(3);
      expect(a.arrears_months[2]).toBe(before);
      expect(a.ahead_months).toBe(0);
      expect(at.getTime()).toBeLessThan(seededAt.getTime());
    }
    await seedDemoPayments(d.db);
    const payees = await d.db.selectFrom('payees').where('entity_id', '=', entityId).select(['case_id']).execute();
    expect(payees.length).toBe(await d.db.selectFrom('awards').where('entity_id', '=', entityId).select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow().then((r) => r.n));
    const batches = await d.db.selectFrom('payment_batches').where('entity_id', '=', entityId).select(['state', 'payment_count', 'pay_date']).execute();
    expect(batches).toHaveLength(1);
    expect(batches[0]).toMatchObject({ state: 'paid' });
    const paid = await d.db.selectFrom('awards').where('entity_id', '=', entityId).where('state', '=', 'paid').select(['approved_at']).execute();
    expect(paid.length).toBe(batches[0]?.payment_count);
    for (const a of paid) expect(new Date(a.approved_at).getTime()).toBeLessThan(Date.now() - 30 * 86_400_000);
    // Nothing of a month ago is mailed now.
    expect(await d.db.selectFrom('mail_outbox').where('entity_id', '=', entityId).where('event', '=', 'payment_made').select('id').execute()).toEqual([]);
    await seedDemoPayments(d.db);
    expect(await d.db.selectFrom('payment_batches').where('entity_id', '=', entityId).select('id').execute()).toHaveLength(1);
  });
});
