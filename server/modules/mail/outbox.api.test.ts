import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, login, type TestApp } from '../../../tests/support/app.js';
import { makeCase, makeEntity, makeProject, makePublishedProtocol, makeUser } from '../../../tests/support/factories.js';
import { startSmtp } from '../../../tests/support/smtp.js';
import { queueMail } from './outbox.js';

/**
 * The outbox page's API (`/api/mail/outbox`, target reenviarcorreos): the
 * tenant's messages newest first with the list's filters (state, recipient,
 * case number or id, days of the tenant's time zone), one message with its
 * text body, who may see and resend, tenant isolation, and a resend of a
 * failed message delivered once over real SMTP (a sent or queued one is
 * refused); without SMTP nothing can be resent.
 */
const ROLES = {
  resender: { reenviarcorreos: ['show', 'update'] },
  reader: { reenviarcorreos: ['show'] },
  none: { wf_casos: ['show'] },
} as const;

type Who = { sid: string };
type Item = { id: number; to: string; subject: string; state: string; attempts: number; lastError: string | null; event: string | null; caseId: number | null; caseNumber: string | null; createdAt: string; sentAt: string | null; actions: string[] };
type List = { items: Item[]; total: number };

let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let entityId: number;
let resender: Who;
let reader: Who;
let outsider: Who;
let foreign: Who;
let caseId: number;
let caseSerial: string;
const ids: Record<string, number> = {};

async function person(entity: number, role: keyof typeof ROLES, name: string): Promise<Who> {
  const u = await makeUser(t.db, entity, { role: `outbox-${role}-${name}`, rules: ROLES[role] as never });
  return { sid: (await login(t, u.email, 'Passw0rd1')).sid };
}
const send = (who: Who, method: 'GET' | 'POST', url: string, lang = 'en') => t.request({ method, url, cookies: { sid: who.sid, lang } });
const list = async (who: Who, query = '') => {
  const res = await send(who, 'GET', `/api/mail/outbox${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as List;
};
const row = (id: number) => t.db.selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`timed out; last: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A message of `entity` in `status`, written at `createdAt` (kept first, so no job takes it). */
async function message(entity: number, to: string, status: 'queued' | 'sent' | 'failed' | 'kept', over: { caseId?: number; createdAt?: string; lastError?: string; subject?: string } = {}) {
  const id = await queueMail(t.db, { entityId: entity, to, subject: over.subject ?? `About ${to}`, text: `Hello ${to}\nSecond line`, html: `<p>Hello <script>x</script>${to}</p>`, caseId: over.caseId ?? null, event: 'task_assigned' }, false);
  await t.db
    .updateTable('mail_outbox')
    .set({
      status,
      last_error: over.lastError ?? null,
      attempts: status === 'failed' ? 3 : status === 'sent' ? 1 : 0,
      sent_at: status === 'sent' ? new Date() : null,
      ...(over.createdAt ? { created_at: new Date(over.createdAt) } : {}),
    })
    .where('id', '=', id)
    .execute();
  return id;
}

beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestApp({ env: { SMTP_URL: smtp.url } });
  entityId = (await makeEntity(t.db)).id;
  await makeProject(t.db, { entity_id: entityId, is_default: true, time_zone: 'America/New_York' });
  resender = await person(entityId, 'resender', 'a');
  reader = await person(entityId, 'reader', 'a');
  outsider = await person(entityId, 'none', 'a');
  const other = (await makeEntity(t.db)).id;
  foreign = await person(other, 'resender', 'b');
  const protocol = await makePublishedProtocol(t.db, entityId);
  const applicant = await makeUser(t.db, entityId, { role: 'outbox-applicant', rules: { wf_casos: ['show'] } });
  const c = await makeCase(t.db, protocol, { ownerId: applicant.id, state: 'PENDING' });
  caseId = c.id;
  caseSerial = c.serial as string;
  // 03:00 UTC on 10 March is still 9 March in New York.
  ids.old = await message(entityId, 'old@example.test', 'sent', { createdAt: '2026-03-10T03:00:00Z' });
  ids.failed = await message(entityId, 'ana@example.test', 'failed', { caseId, lastError: 'connect ECONNREFUSED 127.0.0.1:1', createdAt: '2026-03-11T12:00:00Z' });
  ids.kept = await message(entityId, 'bruno@example.test', 'kept', { createdAt: '2026-03-12T12:00:00Z' });
  ids.sent = await message(entityId, 'carla@example.test', 'sent', { caseId, createdAt: '2026-03-13T12:00:00Z' });
  ids.queued = await message(entityId, 'dora@example.test', 'queued', { createdAt: '2026-03-14T12:00:00Z' });
  ids.foreign = await message(other, 'ana@other.test', 'failed', { lastError: 'nope' });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

describe('GET /api/mail/outbox', () => {
  it("lists the tenant's messages newest first, with state, reason, case number and the resend action only on failed or kept ones", async () => {
    const res = await list(resender);
    expect(res.total).toBe(5);
    expect(res.items.map((i) => i.id)).toEqual([ids.queued, ids.sent, ids.kept, ids.failed, ids.old]);
    const failed = res.items.find((i) => i.id === ids.failed);
    expect(failed).toMatchObject({ to: 'ana@example.test', state: 'failed', attempts: 3, lastError: 'connect ECONNREFUSED 127.0.0.1:1', event: 'task_assigned', caseId, caseNumber: caseSerial, actions: ['resend'] });
    expect(res.items.find((i) => i.id === ids.kept)?.actions).toEqual(['resend']);
    expect(res.items.find((i) => i.id === ids.sent)?.actions).toEqual([]);
    expect(res.items.find((i) => i.id === ids.queued)?.actions).toEqual([]);
    expect(res.items.find((i) => i.id === ids.sent)?.sentAt).toBeTruthy();
  });

  it('filters by state, recipient, case number or id, and days of the tenant time zone', async () => {
    expect((await list(resender, '?state=failed')).items.map((i) => i.id)).toEqual([ids.failed]);
    expect((await list(resender, '?recipient=BRUNO')).items.map((i) => i.id)).toEqual([ids.kept]);
    expect((await list(resender, `?case=${encodeURIComponent(caseSerial)}`)).items.map((i) => i.id)).toEqual([ids.sent, ids.failed]);
    expect((await list(resender, `?case=${caseId}`)).items.map((i) => i.id)).toEqual([ids.sent, ids.failed]);
    expect((await list(resender, '?case=NO-SUCH-CASE')).total).toBe(0);
    // The message of 10 March 03:00 UTC is of 9 March in New York.
    expect((await list(resender, '?from=2026-03-09&to=2026-03-09')).items.map((i) => i.id)).toEqual([ids.old]);
    expect((await list(resender, '?from=2026-03-10&to=2026-03-12')).items.map((i) => i.id)).toEqual([ids.kept, ids.failed]);
    expect((await list(resender, '?from=2026-03-13')).items.map((i) => i.id)).toEqual([ids.queued, ids.sent]);
    expect((await list(resender, '?search=carla')).items.map((i) => i.id)).toEqual([ids.sent]);
    const page = await list(resender, '?limit=2&page=2');
    expect(page).toMatchObject({ total: 5 });
    expect(page.items.map((i) => i.id)).toEqual([ids.kept, ids.failed]);
    expect((await list(resender, '?sortBy=created_at&descending=false&limit=1')).items[0].id).toBe(ids.old);
  });

  it('refuses bad input with 400', async () => {
    for (const q of ['?state=lost', '?from=2026-02-30', '?to=yesterday', '?sortBy=body_text', '?limit=1000', `?recipient=${'x'.repeat(201)}`, '?unknown=1']) {
      const res = await send(resender, 'GET', `/api/mail/outbox${q}`);
      expect(res.statusCode, q).toBe(400);
    }
    expect((await send(resender, 'POST', '/api/mail/outbox/abc/resend')).statusCode).toBe(400);
    expect((await send(resender, 'GET', '/api/mail/outbox/0')).statusCode).toBe(400);
  });
});

describe('GET /api/mail/outbox/:id', () => {
  it('answers one message with its plain-text body', async () => {
    const res = await send(reader, 'GET', `/api/mail/outbox/${ids.failed}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: ids.failed, bodyText: 'Hello ana@example.test\nSecond line', lastError: 'connect ECONNREFUSED 127.0.0.1:1', caseNumber: caseSerial });
    expect(res.body).not.toContain('<script>');
  });
});

describe('who may', () => {
  it('see the outbox: reenviarcorreos show; without it 403', async () => {
    expect((await list(reader)).total).toBe(5);
    expect((await send(outsider, 'GET', '/api/mail/outbox')).statusCode).toBe(403);
    expect((await send(outsider, 'GET', `/api/mail/outbox/${ids.failed}`)).statusCode).toBe(403);
  });

  it('resend: reenviarcorreos update; a reader sees no resend action and is refused', async () => {
    expect((await list(reader, '?state=failed')).items[0].actions).toEqual([]);
    expect((await send(reader, 'POST', `/api/mail/outbox/${ids.failed}/resend`)).statusCode).toBe(403);
    expect((await send(outsider, 'POST', `/api/mail/outbox/${ids.failed}/resend`)).statusCode).toBe(403);
    expect((await row(ids.failed)).status).toBe('failed');
  });

  it("never reach another tenant's messages: not listed, 404 to read and to resend", async () => {
    expect((await list(foreign)).items.map((i) => i.id)).toEqual([ids.foreign]);
    expect((await send(foreign, 'GET', `/api/mail/outbox/${ids.failed}`)).statusCode).toBe(404);
    expect((await send(foreign, 'POST', `/api/mail/outbox/${ids.failed}/resend`)).statusCode).toBe(404);
    expect((await send(resender, 'POST', `/api/mail/outbox/${ids.foreign}/resend`)).statusCode).toBe(404);
    expect((await row(ids.foreign)).status).toBe('failed');
  });
});

describe('POST /api/mail/outbox/:id/resend', () => {
  it('puts a failed message back in the queue and it is delivered once over SMTP', async () => {
    const res = await send(resender, 'POST', `/api/mail/outbox/${ids.failed}/resend`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: ids.failed, attempts: 0, lastError: null, actions: [] });
    expect(['queued', 'sent']).toContain(res.json().state);
    const mail = await smtp.waitFor('ana@example.test');
    expect(mail.text.trim()).toBe('Hello ana@example.test\nSecond line');
    const after = await until(() => row(ids.failed), (r) => r.status === 'sent');
    expect(after.last_error).toBeNull();
    expect(after.attempts).toBe(1);
    // Again: it is sent now, so refused, and nothing more is sent.
    const again = await send(resender, 'POST', `/api/mail/outbox/${ids.failed}/resend`, 'es');
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('MAIL_NOT_RESENDABLE');
    expect(again.json().error.message).toMatch(/reenviar/);
    await new Promise((r) => setTimeout(r, 1500));
    expect(smtp.mails.filter((m) => m.to.includes('ana@example.test'))).toHaveLength(1);
  });

  it('refuses a sent message with 409 and leaves it sent', async () => {
    const res = await send(resender, 'POST', `/api/mail/outbox/${ids.sent}/resend`);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('MAIL_NOT_RESENDABLE');
    expect((await row(ids.sent)).status).toBe('sent');
    expect(smtp.mails.filter((m) => m.to.includes('carla@example.test'))).toHaveLength(0);
  });

  it('a kept message (written while no SMTP server was configured) is delivered once resent', async () => {
    expect((await send(resender, 'POST', `/api/mail/outbox/${ids.kept}/resend`)).statusCode).toBe(200);
    await smtp.waitFor('bruno@example.test');
    expect((await until(() => row(ids.kept), (r) => r.status === 'sent')).status).toBe('sent');
  });
});

describe('without an SMTP server', () => {
  it('offers no resend and refuses one with 409', async () => {
    const bare = await createTestApp();
    try {
      const entity = (await makeEntity(bare.db)).id;
      const u = await makeUser(bare.db, entity, { role: 'outbox-bare', rules: ROLES.resender as never });
      const sid = (await login(bare, u.email, 'Passw0rd1')).sid;
      const id = await queueMail(bare.db, { entityId: entity, to: 'eva@example.test', subject: 'Kept', text: 'Kept here' }, false);
      const listed = await bare.request({ method: 'GET', url: '/api/mail/outbox', cookies: { sid } });
      expect(listed.json().items).toMatchObject([{ id, state: 'kept', actions: [] }]);
      const res = await bare.request({ method: 'POST', url: `/api/mail/outbox/${id}/resend`, cookies: { sid } });
      expect(res.statusCode).toBe(409);
      expect((await bare.db.selectFrom('mail_outbox').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status).toBe('kept');
    } finally {
      await bare.close();
    }
  });
});
