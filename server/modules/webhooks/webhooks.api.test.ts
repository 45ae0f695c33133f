import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import { sql } from 'kysely';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, login, type TestApp } from '../../../tests/support/app.js';
import { makeEntity, makeFile, makeForm, makePublishedProtocol, makePublishedProtocolWithForms, makeTask, makeUser } from '../../../tests/support/factories.js';
import { poolOf } from '../../db/pool.js';
import { type SenderOptions, sendDueDeliveries } from './deliver.js';

/**
 * Issue 22's webhooks through the API and the sender: subscriptions and
 * their checks (a URL to a private address, with credentials, not http(s),
 * too long; an unknown event; another tenant's protocol or subscription), a
 * loopback receiver (allowed by WEBHOOK_ALLOW_HOSTS, as an operator would)
 * that gets one delivery signed in the Standard Webhooks format for a task
 * accepted through the API, verified with the `standardwebhooks` package;
 * a receiver stopped and started again (the try fails, is kept, and the
 * retry after the backoff delivers); slow, huge and redirecting answers as
 * failed tries while the server keeps serving; two senders at once sending
 * each delivery once; a try cut off by a dead process retried; a day of
 * failures turning the subscription off and telling the administrators;
 * test events and redeliveries. The last block runs the real jobs: the
 * commit's NOTIFY starts the pg-boss sender, nobody calls it.
 */

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  path: string;
}

type Mode = 'ok' | 'slow' | 'huge' | 'redirect' | 'fail';

/** A subscriber on 127.0.0.1 that records what it gets and answers as told. */
class Receiver {
  server: Server | null = null;
  port = 0;
  got: Received[] = [];
  mode: Mode = 'ok';
  delayMs = 0;

  async start(port = 0): Promise<void> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.got.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), path: req.url ?? '' });
        void this.answer(res);
      });
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
    this.server = server;
    this.port = (server.address() as { port: number }).port;
  }

  private async answer(res: ServerResponse): Promise<void> {
    if (this.delayMs) await new Promise((r) => setTimeout(r, this.delayMs));
    if (this.mode === 'slow') await new Promise((r) => setTimeout(r, 2_000));
    if (res.destroyed) return;
    if (this.mode === 'huge') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('x'.repeat(1024 * 1024));
    } else if (this.mode === 'redirect') {
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' });
      res.end();
    } else if (this.mode === 'fail') {
      res.writeHead(503, { 'content-type': 'text/plain' });
      res.end('receiver busy');
    } else {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"received":true}');
    }
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks/casebook`;
  }
}

type Who = { sid: string; userId: number };
type Sub = { id: number; url: string; events: string[]; protocols: Array<{ id: number; code: string }>; enabled: boolean; disabledReason: string | null; failingSince: string | null; secretHint: string; previousSecretUntil: string | null; version: number; lastDelivery: { state: string; status: number | null } | null; actions: string[] };
type Delivery = { id: number; messageId: string; eventType: string; caseId: number | null; caseNumber: string | null; state: string; attempts: number; lastStatus: number | null; lastResponse: string | null; lastError: string | null; nextAttemptAt: string | null; payload: { type: string; data: Record<string, unknown> } };

const ALLOW = { WEBHOOK_ALLOW_HOSTS: '127.0.0.1' };
const quick: Partial<SenderOptions> = { timeoutMs: 2_000 };

async function person(t: TestApp, entityId: number, role: string, rules?: Record<string, string[]>): Promise<Who> {
  const u = await makeUser(t.db, entityId, { role, ...(rules ? { rules: rules as never } : {}) });
  return { sid: (await login(t, u.email, 'Passw0rd1')).sid, userId: u.id };
}

/** Requests as `who`, each from an address of its own (test events and redeliveries are rate-limited per address). */
function api(t: TestApp) {
  let n = 0;
  return (who: Who, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, lang = 'en') => {
    n++;
    return t.request({ method, url, cookies: { sid: who.sid, lang }, remoteAddress: `10.77.${(n >> 8) & 255}.${n & 255}`, ...(payload === undefined ? {} : { payload: payload as never }) });
  };
}

const verify = (secret: string, r: Received) =>
  new Webhook(secret).verify(r.body, { 'webhook-id': String(r.headers['webhook-id']), 'webhook-timestamp': String(r.headers['webhook-timestamp']), 'webhook-signature': String(r.headers['webhook-signature']) }) as {
    type: string;
    timestamp: string;
    data: Record<string, Record<string, unknown>>;
  };

describe('webhooks, with the sender called by the test', () => {
  let t: TestApp;
  let call: ReturnType<typeof api>;
  let entityId: number;
  let admin: Who;
  let reader: Who;
  let foreign: Who;
  let foreignEntity: number;
  const receiver = new Receiver();
  const sender = (extra: Partial<SenderOptions> = {}): SenderOptions => ({ allowHosts: ['127.0.0.1'], ...quick, ...extra });
  const send = (extra: Partial<SenderOptions> = {}, round: Parameters<typeof sendDueDeliveries>[2] = {}) => sendDueDeliveries(t.db, sender(extra), { concurrency: 1, ...round });

  const subscribe = async (body: Record<string, unknown>, who = admin) => {
    const res = await call(who, 'POST', '/api/webhooks', { url: receiver.url, events: ['task.accepted'], ...body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<Sub & { secret: string }>();
  };
  const deliveriesOf = async (id: number, who = admin) => {
    const res = await call(who, 'GET', `/api/webhooks/${id}/deliveries`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ items: Delivery[]; total: number }>().items;
  };
  const pendingCount = async () => Number((await sql<{ n: string }>`select count(*) as n from webhook_deliveries where state = 'pending'`.execute(t.db)).rows[0].n);
  /** Every subscription of the tenant goes (so one test's deliveries never wait in another's way). */
  const clear = async () => {
    await t.db.deleteFrom('webhook_subscriptions').execute();
    receiver.got = [];
    receiver.mode = 'ok';
    receiver.delayMs = 0;
  };
  const acceptThroughApi = async (who: Who, taskId: number, data?: Record<string, unknown>) => {
    const { version } = await t.db.selectFrom('tasks').where('id', '=', taskId).select('version').executeTakeFirstOrThrow();
    const res = await call(who, 'POST', `/api/tasks/${taskId}/accept`, { version, ...(data ? { data } : {}) });
    expect(res.statusCode, res.body).toBe(200);
  };

  beforeAll(async () => {
    t = await createTestApp({ env: ALLOW });
    call = api(t);
    entityId = (await makeEntity(t.db)).id;
    admin = await person(t, entityId, 'super-admin');
    reader = await person(t, entityId, 'settings-reader', { menu_configuracion: ['show'] });
    foreignEntity = (await makeEntity(t.db)).id;
    foreign = await person(t, foreignEntity, 'super-admin');
    await receiver.start();
  });
  afterAll(async () => {
    await receiver.stop();
    await t?.close();
  });
  beforeEach(clear);

  it('creates, lists, changes, rotates and deletes a subscription; the secret is Standard Webhooks and shown on demand only', async () => {
    const made = await subscribe({ events: ['task.accepted', 'case.created', 'task.accepted'], description: 'Finance' });
    expect(made.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(made.secret.slice(6), 'base64')).toHaveLength(32);
    // Deduplicated, in the catalogue's order.
    expect(made.events).toEqual(['case.created', 'task.accepted']);
    expect(made).toMatchObject({ url: receiver.url, enabled: true, disabledReason: null, protocols: [], lastDelivery: null, secretHint: `${made.secret.slice(0, 10)}…` });
    expect(made.actions).toEqual(['edit', 'delete', 'test', 'rotate', 'revealSecret']);

    const list = await call(admin, 'GET', '/api/webhooks');
    expect(list.json<{ items: Sub[]; total: number }>().total).toBe(1);
    expect(list.body).not.toContain(made.secret);
    const shown = await call(admin, 'GET', `/api/webhooks/${made.id}/secret`);
    expect(shown.json()).toEqual({ secret: made.secret });

    // A reader sees the list, without buttons, and cannot change or read the secret.
    const asReader = await call(reader, 'GET', `/api/webhooks/${made.id}`);
    expect(asReader.statusCode).toBe(200);
    expect(asReader.json<Sub>().actions).toEqual([]);
    expect((await call(reader, 'GET', `/api/webhooks/${made.id}/secret`)).statusCode).toBe(403);
    expect((await call(reader, 'POST', '/api/webhooks', { url: receiver.url, events: ['task.accepted'] })).statusCode).toBe(403);
    expect((await call(reader, 'POST', `/api/webhooks/${made.id}/test`)).statusCode).toBe(403);

    const protocol = await makePublishedProtocol(t.db, entityId);
    const changed = await call(admin, 'PUT', `/api/webhooks/${made.id}`, { url: `${receiver.url}?v=2`, events: ['comment.added'], protocolIds: [protocol.id], enabled: false, version: made.version });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json<Sub>()).toMatchObject({ url: `${receiver.url}?v=2`, events: ['comment.added'], protocols: [{ id: protocol.id, code: protocol.code }], enabled: false, disabledReason: 'manual', version: made.version + 1 });
    // A change made on the old version is refused and changes nothing.
    const stale = await call(admin, 'PUT', `/api/webhooks/${made.id}`, { url: receiver.url, events: ['task.created'], version: made.version });
    expect(stale.statusCode).toBe(409);
    expect((await call(admin, 'GET', `/api/webhooks/${made.id}`)).json<Sub>().events).toEqual(['comment.added']);

    const rotated = await call(admin, 'POST', `/api/webhooks/${made.id}/secret`);
    expect(rotated.statusCode, rotated.body).toBe(200);
    const next = rotated.json<Sub & { secret: string }>();
    expect(next.secret).toMatch(/^whsec_/);
    expect(next.secret).not.toBe(made.secret);
    expect(new Date(next.previousSecretUntil as string).getTime()).toBeGreaterThan(Date.now() + 23 * 3600_000);
    expect((await call(admin, 'GET', `/api/webhooks/${made.id}/secret`)).json()).toEqual({ secret: next.secret });

    expect((await call(admin, 'DELETE', `/api/webhooks/${made.id}`)).statusCode).toBe(204);
    expect((await call(admin, 'GET', `/api/webhooks/${made.id}`)).statusCode).toBe(404);
  });

  it('refuses bad input with a translated 400 and creates nothing', async () => {
    const other = await makePublishedProtocol(t.db, foreignEntity);
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ url: 'https://user:pass@hooks.example.org/x' }, 'url', 'The address cannot hold a user name or password: the receiver checks the signature instead.'],
      [{ url: 'ftp://hooks.example.org/x' }, 'url', 'Only http:// and https:// addresses can receive webhooks.'],
      [{ url: 'javascript:alert(1)' }, 'url', 'Only http:// and https:// addresses can receive webhooks.'],
      [{ url: `https://hooks.example.org/${'x'.repeat(2000)}` }, 'url', 'The address is too long (at most 2,000 characters).'],
      [{ url: 'not a url' }, 'url', 'Enter a whole web address, such as https://hooks.example.org/casebook.'],
      [{ url: 'http://10.0.0.5/hook' }, 'url', '10.0.0.5 is a private, loopback or link-local address: webhooks go only to public addresses, or to hosts the server\'s operator allowed.'],
      [{ url: 'http://192.168.1.20:8080/hook' }, 'url', '192.168.1.20 is a private, loopback or link-local address: webhooks go only to public addresses, or to hosts the server\'s operator allowed.'],
      // Loopback by another spelling than the one the operator listed, and the cloud metadata service.
      [{ url: 'http://[::1]:9000/hook' }, 'url', '::1 is a private, loopback or link-local address: webhooks go only to public addresses, or to hosts the server\'s operator allowed.'],
      [{ url: 'http://169.254.169.254/latest/meta-data' }, 'url', '169.254.169.254 is a private, loopback or link-local address: webhooks go only to public addresses, or to hosts the server\'s operator allowed.'],
      [{ events: ['case.deleted'] }, 'events.0', 'This is not an event a webhook can take.'],
      [{ events: [] }, 'events', 'Choose at least one event.'],
      [{ protocolIds: [other.id] }, 'protocolIds', 'This protocol does not exist.'],
    ];
    for (const [body, path, message] of cases) {
      const res = await call(admin, 'POST', '/api/webhooks', { url: 'https://93.184.216.34/hook', events: ['task.accepted'], ...body });
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      const error = res.json<{ error: { code: string; details: Array<{ path: string; message: string }> } }>().error;
      expect(error.code).toBe('VALIDATION');
      expect(error.details, JSON.stringify(body).slice(0, 80)).toContainEqual({ path, message });
    }
    // In the caller's language.
    const es = await call(admin, 'POST', '/api/webhooks', { url: 'http://10.0.0.5/hook', events: ['task.accepted'] }, 'es');
    expect(es.json<{ error: { details: Array<{ message: string }> } }>().error.details[0].message).toBe(
      '10.0.0.5 es una dirección privada, local o de enlace local: los webhooks solo van a direcciones públicas, o a hosts que el operador del servidor permitió.',
    );
    expect(await t.db.selectFrom('webhook_subscriptions').select('id').execute()).toEqual([]);
    // A public address and the operator's loopback host pass.
    expect((await call(admin, 'POST', '/api/webhooks', { url: 'https://93.184.216.34/hook', events: ['task.accepted'] })).statusCode).toBe(201);
    await subscribe({});
    // ... but not a way around the check: an edit is checked the same.
    const [mine] = (await call(admin, 'GET', '/api/webhooks')).json<{ items: Sub[] }>().items;
    const edit = await call(admin, 'PUT', `/api/webhooks/${mine.id}`, { url: 'http://10.1.2.3/x', events: ['task.accepted'], version: mine.version });
    expect(edit.statusCode).toBe(400);
    expect((await call(admin, 'GET', `/api/webhooks/${mine.id}`)).json<Sub>().url).toBe(mine.url);
  });

  it("keeps tenants apart: another tenant's subscription is not found, and its events reach no one else", async () => {
    const mine = await subscribe({ events: ['task.created', 'task.accepted', 'case.created'] });
    for (const [method, url] of [
      ['GET', `/api/webhooks/${mine.id}`], ['PUT', `/api/webhooks/${mine.id}`], ['DELETE', `/api/webhooks/${mine.id}`], ['GET', `/api/webhooks/${mine.id}/secret`],
      ['POST', `/api/webhooks/${mine.id}/secret`], ['POST', `/api/webhooks/${mine.id}/test`], ['GET', `/api/webhooks/${mine.id}/deliveries`],
    ] as const) {
      const res = await call(foreign, method, url, method === 'PUT' ? { url: receiver.url, events: ['task.created'], version: 1 } : undefined);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await call(foreign, 'GET', '/api/webhooks')).json()).toEqual({ items: [], total: 0 });
    // Nothing of it changed.
    const after = (await call(admin, 'GET', `/api/webhooks/${mine.id}`)).json<Sub>();
    expect(after).toMatchObject({ version: mine.version, enabled: true, secretHint: mine.secretHint });
    // The other tenant's work makes no delivery here.
    const owner = await makeUser(t.db, foreignEntity, { role: 'super-admin' });
    await makeTask(t.db, foreignEntity, { ownerId: owner.id, state: 'ACCEPTED' });
    expect(await deliveriesOf(mine.id)).toEqual([]);
    expect(await pendingCount()).toBe(0);
  });

  it('a task accepted through the API gives the receiver one delivery, signed so that standardwebhooks verifies it', async () => {
    const sub = await subscribe({ events: ['task.accepted'] });
    const form = await makeForm(t.db, entityId, { definition: { name: 'Review', fields: [{ name: 'notes', type: 'text', label: 'Notas', label_en: 'Notes' }] } });
    const protocol = await makePublishedProtocolWithForms(t.db, entityId, { start: ['review'], tasks: [{ code: 'review', name: 'Review', formId: form.id, responsible: { kind: 'owner' } }] });
    const task = await makeTask(t.db, entityId, { ownerId: admin.userId, protocol });
    // Submitting the case and creating the task are not events this subscription takes.
    expect(await pendingCount()).toBe(0);
    await acceptThroughApi(admin, task.id, { notes: 'Secret form value 12345' });

    const [pending] = await deliveriesOf(sub.id);
    expect(pending).toMatchObject({ eventType: 'task.accepted', state: 'pending', attempts: 0, caseId: task.case_id });
    expect(await send()).toEqual({ delivered: 1, failed: 0, more: false });
    expect(receiver.got).toHaveLength(1);
    const [got] = receiver.got;
    expect(got.path).toBe('/hooks/casebook');
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['webhook-id']).toBe(pending.messageId);
    expect(Math.abs(Number(got.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    const body = verify(sub.secret, got);
    const c = await t.db.selectFrom('cases').where('id', '=', task.case_id).select(['serial', 'state']).executeTakeFirstOrThrow();
    expect(body.type).toBe('task.accepted');
    expect(body.data.task).toEqual({ id: task.id, name: 'Review', state: 'ACCEPTED' });
    expect(body.data.case).toEqual({ id: task.case_id, number: c.serial, protocol: protocol.code, state: c.state });
    // Ids and a summary only: no form data.
    expect(got.body).not.toContain('Secret form value');
    // A wrong secret or a changed body is refused by the verifier.
    expect(() => verify(`whsec_${Buffer.alloc(32, 1).toString('base64')}`, got)).toThrow();
    expect(() => verify(sub.secret, { ...got, body: got.body.replace('ACCEPTED', 'REJECTED') })).toThrow();

    const [done] = await deliveriesOf(sub.id);
    expect(done).toMatchObject({ state: 'delivered', attempts: 1, lastStatus: 200, lastResponse: '{"received":true}', lastError: null, nextAttemptAt: null });
    expect((await call(admin, 'GET', `/api/webhooks/${sub.id}`)).json<Sub>().lastDelivery).toMatchObject({ state: 'delivered', status: 200 });
    // Sent once: another round finds nothing due.
    expect(await send()).toEqual({ delivered: 0, failed: 0, more: false });
    expect(receiver.got).toHaveLength(1);
  });

  it('records every event kind in the transaction of its change, with its summary, and follows the protocol filter', async () => {
    const form = await makeForm(t.db, entityId, { definition: { name: 'Proof', fields: [{ name: 'proof', type: 'file', label: 'Soporte', label_en: 'Proof', accept: ['pdf'] }] } });
    const protocol = await makePublishedProtocolWithForms(t.db, entityId, { start: ['review'], tasks: [{ code: 'review', name: 'Review', formId: form.id, responsible: { kind: 'owner' } }] });
    const otherProtocol = await makePublishedProtocol(t.db, entityId);
    const sub = await subscribe({ events: ['case.created', 'case.state_changed', 'task.created', 'task.accepted', 'comment.added', 'file.uploaded'], protocolIds: [protocol.id] });

    // Another protocol's case: filtered out.
    await makeTask(t.db, entityId, { ownerId: admin.userId, protocol: otherProtocol, state: 'ACCEPTED' });
    expect(await deliveriesOf(sub.id)).toEqual([]);

    const task = await makeTask(t.db, entityId, { ownerId: admin.userId, protocol });
    const comment = await call(admin, 'POST', `/api/cases/${task.case_id}/comments`, { body: 'A private remark', visibleToApplicant: false });
    expect(comment.statusCode, comment.body).toBe(201);
    const file = await makeFile(t.db, entityId, admin.userId, { name: 'proof.pdf' });
    await acceptThroughApi(admin, task.id, { proof: [{ id: file.id, name: 'proof.pdf', size: 10 }] });
    const completed = await call(admin, 'POST', `/api/cases/${task.case_id}/complete`, {});
    expect(completed.statusCode, completed.body).toBe(200);

    const items = (await deliveriesOf(sub.id)).reverse();
    const byType = Object.fromEntries(items.map((d) => [d.eventType, d.payload.data]));
    expect(items.map((d) => d.eventType)).toEqual(['case.created', 'task.created', 'comment.added', 'file.uploaded', 'task.accepted', 'case.state_changed']);
    expect(byType['case.created']).toMatchObject({ case: { id: task.case_id, protocol: protocol.code, state: 'PENDING' } });
    expect(byType['task.created']).toMatchObject({ task: { id: task.id, name: 'Review', state: 'PENDING' } });
    expect(byType['comment.added']).toEqual({ case: expect.objectContaining({ id: task.case_id }), comment: { id: comment.json<{ id: number }>().id } });
    expect(byType['file.uploaded']).toMatchObject({ task: { id: task.id }, file: { id: file.id, name: 'proof.pdf' } });
    expect(byType['case.state_changed']).toMatchObject({ case: { id: task.case_id, state: 'SUCCESS' }, previousState: 'PENDING' });
    expect(JSON.stringify(items.map((d) => d.payload))).not.toContain('A private remark');
    expect(items.every((d) => d.caseNumber && d.caseId === task.case_id)).toBe(true);
    // Each event once, each a message id of its own.
    expect(new Set(items.map((d) => d.messageId)).size).toBe(items.length);

    // A change that rolls back records nothing.
    await t.db
      .transaction()
      .execute(async (trx) => {
        await trx.insertInto('case_events').values({ entity_id: entityId, case_id: task.case_id, action: 'case_close', type: 'case', detail: JSON.stringify({ from: 'SUCCESS', to: 'CLOSED' }) }).execute();
        throw new Error('rolled back');
      })
      .catch(() => {});
    expect(await deliveriesOf(sub.id)).toHaveLength(items.length);
  });

  it('a task reassigned and a task rejected are events too, with the task as it is then', async () => {
    const sub = await subscribe({ events: ['task.reassigned', 'task.rejected'] });
    const colleague = await makeUser(t.db, entityId, { role: 'super-admin' });
    const task = await makeTask(t.db, entityId, { ownerId: admin.userId });
    const assigned = await call(admin, 'POST', `/api/tasks/${task.id}/assign`, { userId: colleague.id });
    expect(assigned.statusCode, assigned.body).toBe(200);
    const { version } = await t.db.selectFrom('tasks').where('id', '=', task.id).select('version').executeTakeFirstOrThrow();
    const colleagueWho = { sid: (await login(t, colleague.email, 'Passw0rd1')).sid, userId: colleague.id };
    const rejected = await call(colleagueWho, 'POST', `/api/tasks/${task.id}/reject`, { version, reason: 'Missing documents' });
    expect(rejected.statusCode, rejected.body).toBe(200);
    const items = (await deliveriesOf(sub.id)).reverse();
    expect(items.map((d) => d.eventType)).toEqual(['task.reassigned', 'task.rejected']);
    expect(items[0].payload.data).toMatchObject({ task: { id: task.id, name: 'Review', state: 'PENDING' } });
    expect(items[1].payload.data).toMatchObject({ task: { id: task.id, state: 'REJECTED' } });
    expect(JSON.stringify(items[1].payload)).not.toContain('Missing documents');
  });

  it('after a rotation every delivery is signed with both secrets for a day, so the receiver may switch at leisure', async () => {
    const sub = await subscribe({});
    const rotated = (await call(admin, 'POST', `/api/webhooks/${sub.id}/secret`)).json<{ secret: string }>();
    await call(admin, 'POST', `/api/webhooks/${sub.id}/test`);
    expect(await send()).toMatchObject({ delivered: 1 });
    const [got] = receiver.got;
    expect(String(got.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verify(sub.secret, got).type).toBe('webhook.test');
    expect(verify(rotated.secret, got).type).toBe('webhook.test');
    // The day over: the old secret no longer verifies.
    await t.db.updateTable('webhook_subscriptions').set({ previous_secret_until: new Date(Date.now() - 1000) }).where('id', '=', sub.id).execute();
    await call(admin, 'POST', `/api/webhooks/${sub.id}/test`);
    await send();
    expect(() => verify(sub.secret, receiver.got[1])).toThrow();
    expect(verify(rotated.secret, receiver.got[1]).type).toBe('webhook.test');
  });

  it('an API token reads the subscriptions with its user\'s rights; a read-only one is refused the secret', async () => {
    const sub = await subscribe({});
    const token = async (readOnly: boolean) => {
      const res = await call(admin, 'POST', '/api/profile/tokens', { name: `t-${readOnly}`, expiresInDays: 7, readOnly });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<{ token: string }>().token;
    };
    const readOnly = await token(true);
    const full = await token(false);
    const bearer = (value: string, url: string) => t.request({ method: 'GET', url, headers: { authorization: `Bearer ${value}` } });
    expect((await bearer(readOnly, '/api/webhooks')).json<{ total: number }>().total).toBe(1);
    const refused = await bearer(readOnly, `/api/webhooks/${sub.id}/secret`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json<{ error: { code: string } }>().error.code).toBe('TOKEN_READ_ONLY');
    expect((await bearer(full, `/api/webhooks/${sub.id}/secret`)).json()).toEqual({ secret: sub.secret });
  });

  it('a receiver stopped: the try fails and is kept, nothing is retried before its backoff, and the retry delivers once it is back', async () => {
    const sub = await subscribe({});
    const test = await call(admin, 'POST', `/api/webhooks/${sub.id}/test`);
    expect(test.statusCode, test.body).toBe(202);
    const port = receiver.port;
    await receiver.stop();

    expect(await send({ backoff: () => 1 })).toEqual({ delivered: 0, failed: 1, more: false });
    const [failed] = await deliveriesOf(sub.id);
    expect(failed).toMatchObject({ state: 'pending', attempts: 1, lastStatus: null });
    expect(failed.lastError).toMatch(/could not connect: ECONNREFUSED/);
    expect(new Date(failed.nextAttemptAt as string).getTime()).toBeGreaterThan(Date.now() - 100);
    expect((await call(admin, 'GET', `/api/webhooks/${sub.id}`)).json<Sub>().failingSince).not.toBeNull();

    await receiver.start(port);
    // Not due yet: nothing is sent before the backoff.
    expect(await send()).toEqual({ delivered: 0, failed: 0, more: false });
    expect(receiver.got).toHaveLength(0);
    await new Promise((r) => setTimeout(r, 1_100));
    expect(await send()).toEqual({ delivered: 1, failed: 0, more: false });
    expect(receiver.got).toHaveLength(1);
    expect(receiver.got[0].headers['webhook-id']).toBe(failed.messageId);
    expect(verify(sub.secret, receiver.got[0]).type).toBe('webhook.test');
    const [done] = await deliveriesOf(sub.id);
    expect(done).toMatchObject({ id: failed.id, state: 'delivered', attempts: 2, lastStatus: 200, lastError: null });
    // A 2xx ends the failing streak.
    expect((await call(admin, 'GET', `/api/webhooks/${sub.id}`)).json<Sub>().failingSince).toBeNull();
  });

  it('slow, huge, redirecting and 5xx answers are failed tries, and the server keeps serving meanwhile', async () => {
    const sub = await subscribe({});
    const tryWith = async (mode: Mode, options: Partial<SenderOptions> = {}) => {
      receiver.mode = mode;
      expect((await call(admin, 'POST', `/api/webhooks/${sub.id}/test`)).statusCode).toBe(202);
      const round = await send({ backoff: () => 3600, ...options });
      expect(round).toEqual({ delivered: 0, failed: 1, more: false });
      return (await deliveriesOf(sub.id))[0];
    };

    // Slow: cut off at the timeout, while the API answers at once.
    receiver.mode = 'slow';
    expect((await call(admin, 'POST', `/api/webhooks/${sub.id}/test`)).statusCode).toBe(202);
    const started = Date.now();
    const round = send({ timeoutMs: 500, backoff: () => 3600 });
    await new Promise((r) => setTimeout(r, 100));
    const during = await call(admin, 'GET', '/api/webhooks');
    expect(during.statusCode).toBe(200);
    expect(await round).toEqual({ delivered: 0, failed: 1, more: false });
    expect(Date.now() - started).toBeLessThan(1_900);
    const slow = (await deliveriesOf(sub.id))[0];
    expect(slow).toMatchObject({ state: 'pending', attempts: 1, lastStatus: null, lastError: 'timeout: no complete answer in time' });

    const huge = await tryWith('huge');
    expect(huge).toMatchObject({ state: 'pending', lastError: 'answer too large' });
    const redirect = await tryWith('redirect');
    expect(redirect).toMatchObject({ state: 'pending', lastError: 'redirect refused' });
    const busy = await tryWith('fail');
    expect(busy).toMatchObject({ state: 'pending', lastStatus: 503, lastResponse: 'receiver busy', lastError: 'HTTP 503' });
    // The redirect's target was never called: the receiver saw only its own four requests.
    expect(receiver.got).toHaveLength(4);
  });

  it('two senders at once send each delivery once; a try whose process died is taken up again', async () => {
    const sub = await subscribe({});
    receiver.delayMs = 150;
    for (let i = 0; i < 6; i++) expect((await call(admin, 'POST', `/api/webhooks/${sub.id}/test`)).statusCode).toBe(202);
    const [a, b] = await Promise.all([send({}, { concurrency: 2 }), send({}, { concurrency: 2 })]);
    expect(a.delivered + b.delivered).toBe(6);
    expect(a.delivered).toBeGreaterThan(0);
    expect(b.delivered).toBeGreaterThan(0);
    const ids = receiver.got.map((r) => String(r.headers['webhook-id']));
    expect(ids).toHaveLength(6);
    expect(new Set(ids).size).toBe(6);
    expect((await deliveriesOf(sub.id)).every((d) => d.state === 'delivered' && d.attempts === 1)).toBe(true);

    // A sender that claimed a delivery and died mid-try: its lock holds while its connection lives, then the row is due as it was.
    receiver.got = [];
    receiver.delayMs = 0;
    expect((await call(admin, 'POST', `/api/webhooks/${sub.id}/test`)).statusCode).toBe(202);
    const { connectionString } = poolOf(t.db).options;
    const dying = new pg.Client({ connectionString });
    await dying.connect();
    dying.on('error', () => {});
    await dying.query('begin');
    const claimed = await dying.query(`select id from webhook_deliveries where state = 'pending' for update skip locked`);
    expect(claimed.rows).toHaveLength(1);
    expect(await send()).toEqual({ delivered: 0, failed: 0, more: false });
    await dying.query('select pg_terminate_backend(pg_backend_pid())').catch(() => {});
    await dying.end().catch(() => {});
    expect(await send()).toEqual({ delivered: 1, failed: 0, more: false });
    expect(receiver.got).toHaveLength(1);
    expect(await pendingCount()).toBe(0);
  });

  it('test events and redeliveries: the same webhook-id again; a pending one is sent at once', async () => {
    const sub = await subscribe({});
    const test = await call(admin, 'POST', `/api/webhooks/${sub.id}/test`);
    const first = test.json<Delivery>();
    expect(first).toMatchObject({ eventType: 'webhook.test', state: 'pending', caseId: null, actions: ['redeliver'] });
    await send();
    expect(verify(sub.secret, receiver.got[0])).toMatchObject({ type: 'webhook.test', data: { subscription: { id: sub.id } } });

    const again = await call(admin, 'POST', `/api/webhooks/${sub.id}/deliveries/${first.id}/redeliver`);
    expect(again.statusCode, again.body).toBe(202);
    const second = again.json<Delivery>();
    expect(second.id).not.toBe(first.id);
    expect(second).toMatchObject({ messageId: first.messageId, state: 'pending', attempts: 0 });
    await send();
    expect(receiver.got.map((r) => r.headers['webhook-id'])).toEqual([first.messageId, first.messageId]);
    expect(await deliveriesOf(sub.id)).toHaveLength(2);

    // A pending delivery whose next try is far off goes at once, as itself.
    receiver.mode = 'fail';
    await call(admin, 'POST', `/api/webhooks/${sub.id}/test`);
    await send({ backoff: () => 3600 });
    receiver.mode = 'ok';
    const [waiting] = await deliveriesOf(sub.id);
    expect(waiting.state).toBe('pending');
    const now = await call(admin, 'POST', `/api/webhooks/${sub.id}/deliveries/${waiting.id}/redeliver`);
    expect(now.json<Delivery>().id).toBe(waiting.id);
    expect(await send()).toEqual({ delivered: 1, failed: 0, more: false });
    // Another subscription's delivery, or an unknown one, is not found.
    const other = await subscribe({});
    expect((await call(admin, 'POST', `/api/webhooks/${other.id}/deliveries/${waiting.id}/redeliver`)).statusCode).toBe(404);
    expect((await call(foreign, 'POST', `/api/webhooks/${sub.id}/deliveries/${waiting.id}/redeliver`)).statusCode).toBe(404);
  });

  it('a day without a 2xx turns the subscription off, drops what waits, and tells the administrators (not the others)', async () => {
    const sub = await subscribe({});
    const staff = await person(t, entityId, 'coordinator-like', { wf_casos: ['show'] });
    await call(admin, 'POST', `/api/webhooks/${sub.id}/test`);
    await call(admin, 'POST', `/api/webhooks/${sub.id}/test`);
    receiver.mode = 'fail';
    // Its failures began a day ago: this try is the one that ends it.
    await t.db.updateTable('webhook_subscriptions').set({ failing_since: new Date(Date.now() - 24 * 3600_000 - 60_000) }).where('id', '=', sub.id).execute();
    const round = await send({ notify: { publicUrl: 'https://cases.example.org', smtpConfigured: false } });
    expect(round).toMatchObject({ failed: 1 });
    const after = (await call(admin, 'GET', `/api/webhooks/${sub.id}`)).json<Sub>();
    expect(after).toMatchObject({ enabled: false, disabledReason: 'failing' });
    const deliveries = await deliveriesOf(sub.id);
    expect(deliveries.map((d) => d.state)).toEqual(['failed', 'failed']);
    expect(deliveries.some((d) => d.lastError === 'subscription turned off after a day of failed tries')).toBe(true);
    expect(receiver.got).toHaveLength(1);

    const bell = (await call(admin, 'GET', '/api/notifications')).json<{ items: Array<{ kind: string; detail: string; caseId: number | null }> }>().items;
    expect(bell[0]).toMatchObject({ kind: 'webhook_disabled', detail: receiver.url, caseId: null });
    const others = (await call(staff, 'GET', '/api/notifications')).json<{ items: Array<{ kind: string }> }>().items;
    expect(others.filter((n) => n.kind === 'webhook_disabled')).toEqual([]);
    const mail = await t.db.selectFrom('mail_outbox').where('event', '=', 'webhook_disabled').where('entity_id', '=', entityId).selectAll().execute();
    const adminEmail = (await t.db.selectFrom('users').where('id', '=', admin.userId).select('email').executeTakeFirstOrThrow()).email;
    expect(mail.map((m) => m.to_address)).toContain(adminEmail);
    expect(mail.find((m) => m.to_address === adminEmail)?.body_text).toContain(receiver.url);
    // An off subscription takes no new events; turned on again, its streak starts afresh.
    await makeTask(t.db, entityId, { ownerId: admin.userId, state: 'ACCEPTED' });
    expect(await deliveriesOf(sub.id)).toHaveLength(2);
    const on = await call(admin, 'PUT', `/api/webhooks/${sub.id}`, { url: receiver.url, events: ['task.accepted'], enabled: true, version: after.version });
    expect(on.json<Sub>()).toMatchObject({ enabled: true, disabledReason: null, failingSince: null });

    // A delivery a day old gives up after its last try, even while its subscription is on.
    receiver.mode = 'fail';
    const old = (await call(admin, 'POST', `/api/webhooks/${sub.id}/test`)).json<Delivery>();
    await t.db.updateTable('webhook_deliveries').set({ created_at: new Date(Date.now() - 25 * 3600_000) }).where('id', '=', old.id).execute();
    await send();
    expect((await deliveriesOf(sub.id)).find((d) => d.id === old.id)).toMatchObject({ state: 'failed', attempts: 1, nextAttemptAt: null, lastStatus: 503 });
    // One failure after turning it on again is not a day of them: it stays on.
    expect((await call(admin, 'GET', `/api/webhooks/${sub.id}`)).json<Sub>()).toMatchObject({ enabled: true });
  });

  it('deleting a subscription deletes its deliveries', async () => {
    const sub = await subscribe({});
    await call(admin, 'POST', `/api/webhooks/${sub.id}/test`);
    expect(await pendingCount()).toBe(1);
    expect((await call(admin, 'DELETE', `/api/webhooks/${sub.id}`)).statusCode).toBe(204);
    expect(await pendingCount()).toBe(0);
  });
});

describe('webhooks through the jobs: the commit starts the sender', () => {
  let t: TestApp;
  const receiver = new Receiver();

  beforeAll(async () => {
    await receiver.start();
    t = await createTestApp({ env: ALLOW, jobs: { webhooks: true } });
  });
  afterAll(async () => {
    await t?.close();
    await receiver.stop();
  });

  it('a task accepted through the API reaches the receiver within seconds, signed, once', async () => {
    const call = api(t);
    const entityId = (await makeEntity(t.db)).id;
    const admin = await person(t, entityId, 'super-admin');
    const made = await call(admin, 'POST', '/api/webhooks', { url: receiver.url, events: ['task.accepted'] });
    expect(made.statusCode, made.body).toBe(201);
    const { secret } = made.json<{ secret: string }>();
    const task = await makeTask(t.db, entityId, { ownerId: admin.userId });
    const { version } = await t.db.selectFrom('tasks').where('id', '=', task.id).select('version').executeTakeFirstOrThrow();
    const accepted = await call(admin, 'POST', `/api/tasks/${task.id}/accept`, { version });
    expect(accepted.statusCode, accepted.body).toBe(200);

    const end = Date.now() + 15_000;
    while (receiver.got.length === 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
    expect(receiver.got).toHaveLength(1);
    expect(verify(secret, receiver.got[0])).toMatchObject({ type: 'task.accepted', data: { task: { id: task.id, state: 'ACCEPTED' } } });
    // Delivered and recorded; nothing more goes out.
    const state = async () => (await t.db.selectFrom('webhook_deliveries').select(['state', 'attempts']).execute());
    const until = Date.now() + 5_000;
    while ((await state())[0]?.state !== 'delivered' && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    expect(await state()).toEqual([{ state: 'delivered', attempts: 1 }]);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(receiver.got).toHaveLength(1);
  });

  it('a receiver stopped: the next try comes at its backoff (about ten seconds), not at the minute sweep, and delivers once it is back', { timeout: 30_000 }, async () => {
    const call = api(t);
    const entityId = (await makeEntity(t.db)).id;
    const admin = await person(t, entityId, 'super-admin');
    const made = await call(admin, 'POST', '/api/webhooks', { url: receiver.url, events: ['task.accepted'] });
    expect(made.statusCode, made.body).toBe(201);
    const { id } = made.json<{ id: number }>();
    receiver.got = [];
    const port = receiver.port;
    await receiver.stop();
    expect((await call(admin, 'POST', `/api/webhooks/${id}/test`)).statusCode).toBe(202);

    const delivery = () => t.db.selectFrom('webhook_deliveries').where('subscription_id', '=', id).select(['state', 'attempts', 'next_attempt_at']).executeTakeFirstOrThrow();
    const until = Date.now() + 10_000;
    while ((await delivery()).attempts === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    const failed = await delivery();
    expect(failed).toMatchObject({ state: 'pending', attempts: 1 });
    // A sender is waiting for that very moment (within the ten-second bucket's rounding up to a second).
    const waiting = await sql<{ start_after: Date }>`select start_after from pgboss.job where name = 'webhook-send' and state = 'created' and singleton_key like 'retry-%'`.execute(t.db);
    expect(waiting.rows).toHaveLength(1);
    const gap = waiting.rows[0]!.start_after.getTime() - (failed.next_attempt_at as Date).getTime();
    expect(gap).toBeGreaterThanOrEqual(0);
    expect(gap).toBeLessThan(1_500);

    await receiver.start(port);
    const end = Date.now() + 16_000;
    while (receiver.got.length === 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
    expect(receiver.got).toHaveLength(1);
    expect(Date.now()).toBeGreaterThanOrEqual((failed.next_attempt_at as Date).getTime());
    const done = Date.now() + 5_000;
    while ((await delivery()).state !== 'delivered' && Date.now() < done) await new Promise((r) => setTimeout(r, 100));
    expect(await delivery()).toMatchObject({ state: 'delivered', attempts: 2 });
  });
});
