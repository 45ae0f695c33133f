import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/support/app.js';
import { makeEntity } from '../../../tests/support/factories.js';
import { startSmtp } from '../../../tests/support/smtp.js';
import { QUEUES } from '../../jobs/boss.js';
import { queueMail, requeueMail } from './outbox.js';

/**
 * Mail delivered by pg-boss jobs over real SMTP on loopback: each queued
 * message once, with its own Message-ID; an unreachable SMTP server is
 * retried, then the message is failed with its reason and delivered once
 * when resent after the server is back; a message whose job went missing is
 * picked up by the sweep; a second job for a sent message sends nothing.
 */
let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let port: number;
let entityId: number;

const outbox = (id: number) => t.db.selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`timed out; last: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
const queue = (to: string, subject = 'Your application arrived') =>
  queueMail(t.db, { entityId, to, subject, text: `Hello ${to}`, html: `<p>Hello <strong>${to}</strong></p>`, event: 'application_submitted' }, true);

beforeAll(async () => {
  smtp = await startSmtp();
  port = Number(new URL(smtp.url).port);
  t = await createTestApp({ env: { SMTP_URL: smtp.url }, jobs: { mail: true, mailRetry: { retryLimit: 1, retryDelay: 1 } } });
  entityId = (await makeEntity(t.db)).id;
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

describe('mail jobs', () => {
  it('deliver a queued message once, with its text and HTML parts and its own Message-ID, and mark it sent', async () => {
    const id = await queue('ana@example.test');
    t.app.mailer.kick();
    const mail = await smtp.waitFor('ana@example.test');
    expect(mail.subject).toBe('Your application arrived');
    expect(mail.text.trim()).toBe('Hello ana@example.test');
    expect(mail.html).toContain('<strong>ana@example.test</strong>');
    expect(mail.messageId).toBe(`<outbox-${id}@localhost>`);
    const row = await until(() => outbox(id), (r) => r.status === 'sent');
    expect(row.attempts).toBe(1);
    expect(row.job_id).toBeTruthy();
  });

  it('send nothing for a second job of a message already sent', async () => {
    const id = await queue('bruno@example.test');
    t.app.mailer.kick();
    await smtp.waitFor('bruno@example.test');
    await until(() => outbox(id), (r) => r.status === 'sent');
    await t.app.jobs?.send(QUEUES.mailSend, { id });
    await new Promise((r) => setTimeout(r, 3000));
    expect(smtp.mails.filter((m) => m.to.includes('bruno@example.test'))).toHaveLength(1);
  });

  it('deliver a message whose row another writer holds for a moment (the enqueue round noting its job), not complete the job unsent', async () => {
    const id = await queue('elsa@example.test');
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const locker = t.db.transaction().execute(async (trx) => {
      await trx.updateTable('mail_outbox').set({ updated_at: new Date() }).where('id', '=', id).execute();
      await held;
    });
    await t.app.jobs?.send(QUEUES.mailSend, { id });
    await new Promise((r) => setTimeout(r, 1500));
    release();
    await locker;
    await smtp.waitFor('elsa@example.test');
    expect((await until(() => outbox(id), (r) => r.status === 'sent')).attempts).toBe(1);
  });

  it('give a job to a queued message that has none (the process stopped before enqueueing) at the next sweep', async () => {
    const id = await queue('carla@example.test');
    // No kick: the minute sweep's work, run now.
    await t.app.jobs?.send(QUEUES.mailSweep, {});
    await smtp.waitFor('carla@example.test');
    expect((await until(() => outbox(id), (r) => r.status === 'sent')).attempts).toBe(1);
  });

  it('make one job per message however many enqueue rounds run at once (instances kicking together), in one insert per round', async () => {
    const before = await t.db.selectFrom('mail_outbox').select((eb) => eb.fn.max('id').as('max')).executeTakeFirstOrThrow();
    const ids = [];
    for (let i = 0; i < 30; i++) ids.push(await queue(`many-${i}@example.test`));
    const inserts: number[] = [];
    const { MailDelivery } = await import('./outbox.js');
    const rounds = Array.from({ length: 3 }, () => new MailDelivery(t.db, smtp.url, 'x@localhost', 'localhost', () => {}));
    const made = await Promise.all(
      rounds.map((d) =>
        d.enqueuePending(
          async (batch) => {
            inserts.push(batch.length);
            await t.app.jobs?.boss.insert(QUEUES.mailSend, batch);
          },
          async () => true,
        ),
      ),
    );
    for (const d of rounds) d.close();
    expect(made.reduce((a, b) => a + b, 0)).toBe(30);
    expect(inserts.reduce((a, b) => a + b, 0)).toBe(30);
    for (const id of ids) await until(() => outbox(id), (r) => r.status === 'sent');
    const jobIds = (await t.db.selectFrom('mail_outbox').select('job_id').where('id', '>', Number(before.max)).execute()).map((r) => r.job_id);
    expect(new Set(jobIds).size).toBe(30);
    for (let i = 0; i < 30; i++) expect(smtp.mails.filter((m) => m.to.includes(`many-${i}@example.test`))).toHaveLength(1);
  });

  it('give a job again, at the sweep, to a message whose job id names no job (the process died between the claim and the insert)', async () => {
    const id = await queue('fede@example.test');
    await t.db
      .updateTable('mail_outbox')
      .set({ job_id: '00000000-0000-4000-8000-000000000000', updated_at: new Date(Date.now() - 5 * 60_000) })
      .where('id', '=', id)
      .execute();
    // A kick leaves it (it has a job id); the sweep finds the job missing.
    t.app.mailer.kick();
    await new Promise((r) => setTimeout(r, 1500));
    expect((await outbox(id)).status).toBe('queued');
    await t.app.jobs?.send(QUEUES.mailSweep, {});
    await smtp.waitFor('fede@example.test');
    const row = await until(() => outbox(id), (r) => r.status === 'sent');
    expect(row.job_id).not.toBe('00000000-0000-4000-8000-000000000000');
  });

  it('the minute sweeps (singleton queues) keep a heartbeat: a sweep whose process died frees its queue within a minute, not pg-boss\'s 15', async () => {
    for (const q of [QUEUES.mailSweep, QUEUES.overdueSweep, QUEUES.digest, QUEUES.rateLimitSweep, QUEUES.sessionSweep, QUEUES.partySweep, QUEUES.mailSend]) {
      const queue = await t.app.jobs?.boss.getQueue(q);
      expect(queue, q).toMatchObject({ heartbeatSeconds: 30 });
    }
  });

  it('with the SMTP server down: retried, then failed with the reason; resent once it is back, delivered once', { timeout: 120_000 }, async () => {
    await smtp.close();
    const id = await queue('dora@example.test');
    t.app.mailer.kick();
    // Two tries a second apart, then the dead letter: seconds on a quiet machine, longer when many test files share the database.
    const failed = await until(() => outbox(id), (r) => r.status === 'failed', 90_000);
    expect(failed.attempts).toBe(2);
    expect(failed.last_error).toMatch(/ECONNREFUSED|connect/i);
    smtp = await startSmtp(port);
    expect(await requeueMail(t.db, entityId, id)).toBe(true);
    // Not twice: a sent or queued message is not requeued again.
    expect(await requeueMail(t.db, entityId, id)).toBe(false);
    t.app.mailer.kick();
    await smtp.waitFor('dora@example.test');
    expect((await until(() => outbox(id), (r) => r.status === 'sent')).last_error).toBeNull();
    await new Promise((r) => setTimeout(r, 1500));
    expect(smtp.mails.filter((m) => m.to.includes('dora@example.test'))).toHaveLength(1);
  });
});
