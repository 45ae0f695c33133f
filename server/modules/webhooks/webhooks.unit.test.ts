import { createServer, type Server, type ServerResponse } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookBody } from '../../../core/api/webhooks.js';
import { BlockedUrlError, checkPostTarget, isNeverAllowedAddress, safePost } from '../../lib/safe-fetch.js';
import type { Actor } from '../acl/policy.js';
import { bodyOf, defaultBackoff, signatures } from './deliver.js';
import { assertWebhookChange, deliveryActions, webhookActions } from './policy.js';

/**
 * The pure parts of the webhooks: where a delivery may go (safe-fetch's
 * POST: public addresses, private ones only for the operator's hosts, never
 * link-local; pinned to the checked address; no redirect followed; timeout
 * and size cap), the Standard Webhooks signature (and both secrets during a
 * rotation), the backoff, the body's checks, and the policy as a table.
 */
let server: Server;
let port: number;
let hits: string[] = [];
let respond: (res: ServerResponse) => void = (res) => res.end('ok');
beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url} host=${req.headers.host}`);
    req.resume();
    req.on('end', () => respond(res));
  });
  port = await new Promise<number>((r) => server.listen(0, '127.0.0.1', () => r((server.address() as { port: number }).port)));
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const reasonOf = async (p: Promise<unknown>) => {
  try {
    await p;
    return 'passed';
  } catch (e) {
    return e instanceof BlockedUrlError ? e.reason : `other: ${(e as Error).message}`;
  }
};
const none = new Set<string>();

describe('where a delivery may go', () => {
  it('refuses private, loopback and reserved addresses unless the operator listed the host, and link-local always', async () => {
    for (const url of ['http://127.0.0.1:9/x', 'http://10.1.2.3/x', 'http://[::1]/x', 'http://[fd00::1]/x', 'http://0x7f.1/x', 'http://169.254.169.254/x', 'http://[::ffff:10.0.0.1]/x']) {
      expect(await reasonOf(checkPostTarget(url, { privateHosts: none })), url).toBe('address');
    }
    // Listed: loopback and the private network pass ...
    expect((await checkPostTarget('http://127.0.0.1:9/x', { privateHosts: new Set(['127.0.0.1']) })).address).toBe('127.0.0.1');
    expect((await checkPostTarget('http://10.1.2.3/x', { privateHosts: new Set(['10.1.2.3']) })).address).toBe('10.1.2.3');
    // ... the metadata service and other link-local or reserved addresses never do.
    for (const [url, host] of [['http://169.254.169.254/x', '169.254.169.254'], ['http://[fe80::1]/x', 'fe80::1'], ['http://0.0.0.0/x', '0.0.0.0'], ['http://[::ffff:169.254.169.254]/x', '::ffff:a9fe:a9fe']]) {
      expect(await reasonOf(checkPostTarget(url, { privateHosts: new Set([host]) })), url).toBe('address');
    }
    // A listed name that resolves to link-local, or an unlisted one with any private answer.
    expect(await reasonOf(checkPostTarget('http://meta.internal/x', { privateHosts: new Set(['meta.internal']), resolve: async () => ['169.254.169.254'] }))).toBe('address');
    expect(await reasonOf(checkPostTarget('http://hooks.example.org/x', { privateHosts: none, resolve: async () => ['93.184.216.34', '192.168.1.1'] }))).toBe('address');
    expect(await reasonOf(checkPostTarget('http://nowhere.example.org/x', { privateHosts: none, resolve: async () => [] }))).toBe('address');
    expect(await reasonOf(checkPostTarget('https://u:p@hooks.example.org/x', { privateHosts: none }))).toBe('credentials');
    expect(await reasonOf(checkPostTarget('file:///etc/passwd', { privateHosts: none }))).toBe('protocol');
    expect((await checkPostTarget('https://hooks.example.org/x', { privateHosts: none, resolve: async () => ['93.184.216.34'] })).address).toBe('93.184.216.34');
    expect(hits).toEqual([]);
  });

  it('classifies the addresses no list opens', () => {
    for (const a of ['169.254.169.254', '169.254.0.1', 'fe80::1', '0.0.0.0', '::', '224.0.0.1', '255.255.255.255', 'ff02::1', '::ffff:169.254.169.254', 'junk']) expect(isNeverAllowedAddress(a), a).toBe(true);
    for (const a of ['127.0.0.1', '10.0.0.1', '::1', 'fd00::1', '93.184.216.34']) expect(isNeverAllowedAddress(a), a).toBe(false);
  });

  it('posts to the address it checked, with the name in Host; answers any status; follows no redirect', async () => {
    hits = [];
    respond = (res) => {
      res.statusCode = 201;
      res.end('made');
    };
    // The name resolves (once) to loopback, which the operator listed for it.
    let lookups = 0;
    const resolve = async () => {
      lookups++;
      return ['127.0.0.1'];
    };
    const answer = await safePost(`http://hooks.test:${port}/in?x=1`, '{}', { privateHosts: new Set(['hooks.test']), resolve, headers: { 'content-type': 'application/json' } });
    expect(answer).toEqual({ status: 201, body: 'made' });
    expect(lookups).toBe(1);
    expect(hits).toEqual([`POST /in?x=1 host=hooks.test:${port}`]);

    respond = (res) => {
      res.statusCode = 307;
      res.setHeader('location', `http://127.0.0.1:${port}/elsewhere`);
      res.end();
    };
    expect(await reasonOf(safePost(`http://127.0.0.1:${port}/in`, '{}', { privateHosts: new Set(['127.0.0.1']), headers: {} }))).toBe('redirect');
    expect(hits.filter((h) => h.includes('/elsewhere'))).toEqual([]);
  });

  it('gives up on an answer over the size cap and on a slow one, and says when nothing listens', async () => {
    const listed = { privateHosts: new Set(['127.0.0.1']), headers: {} };
    respond = (res) => res.end('x'.repeat(200_000));
    expect(await reasonOf(safePost(`http://127.0.0.1:${port}/big`, '{}', { ...listed, maxBytes: 10_000 }))).toBe('size');
    respond = () => {}; // never answers
    const started = Date.now();
    expect(await reasonOf(safePost(`http://127.0.0.1:${port}/slow`, '{}', { ...listed, timeoutMs: 200 }))).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(await reasonOf(safePost('http://127.0.0.1:9/closed', '{}', listed))).toBe('connect');
  });
});

describe('the signature', () => {
  const current = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
  const previous = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
  const at = new Date();
  const body = bodyOf({ data: { case: { id: 1 } }, timestamp: '2026-01-01T00:00:00.000Z', type: 'case.created' });
  const headers = (signature: string) => ({ 'webhook-id': 'msg_1', 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signature });

  it('is the Standard Webhooks one, over a body whose keys come in a fixed order', () => {
    expect(body).toBe('{"type":"case.created","timestamp":"2026-01-01T00:00:00.000Z","data":{"case":{"id":1}}}');
    const signature = signatures({ secret: current, previous_secret: null, previous_secret_until: null }, 'msg_1', at, body);
    expect(signature).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(current).verify(body, headers(signature))).toEqual(JSON.parse(body));
    expect(() => new Webhook(previous).verify(body, headers(signature))).toThrow();
  });

  it('carries both secrets for a day after a rotation, then the new one only', () => {
    const during = signatures({ secret: current, previous_secret: previous, previous_secret_until: new Date(at.getTime() + 3600_000) }, 'msg_1', at, body);
    expect(during.split(' ')).toHaveLength(2);
    for (const secret of [current, previous]) expect(new Webhook(secret).verify(body, headers(during))).toEqual(JSON.parse(body));
    const after = signatures({ secret: current, previous_secret: previous, previous_secret_until: new Date(at.getTime() - 1) }, 'msg_1', at, body);
    expect(after.split(' ')).toHaveLength(1);
    expect(() => new Webhook(previous).verify(body, headers(after))).toThrow();
  });
});

describe('the backoff', () => {
  it('doubles from about ten seconds to at most about an hour', () => {
    for (let i = 0; i < 50; i++) {
      expect(defaultBackoff(1)).toBeGreaterThanOrEqual(8);
      expect(defaultBackoff(1)).toBeLessThanOrEqual(12);
      expect(defaultBackoff(4)).toBeGreaterThanOrEqual(64);
      expect(defaultBackoff(4)).toBeLessThanOrEqual(96);
      expect(defaultBackoff(40)).toBeLessThanOrEqual(4320);
      expect(defaultBackoff(40)).toBeGreaterThanOrEqual(2880);
    }
  });
});

describe('the body a subscription is saved with', () => {
  it('keeps known events once, in the catalogue order; refuses unknown events, no events, and URLs that are not http(s) or hold credentials', () => {
    expect(webhookBody.parse({ url: 'https://hooks.example.org/x', events: ['task.accepted', 'case.created', 'task.accepted'] })).toEqual({
      url: 'https://hooks.example.org/x', description: '', events: ['case.created', 'task.accepted'], protocolIds: [], enabled: true,
    });
    const message = (body: unknown) => webhookBody.safeParse(body).error?.issues[0]?.message;
    expect(message({ url: 'https://hooks.example.org/x', events: ['case.deleted'] })).toBe('webhooks.errors.unknownEvent');
    expect(message({ url: 'https://hooks.example.org/x', events: [] })).toBe('webhooks.errors.noEvents');
    expect(message({ url: 'ftp://hooks.example.org/x', events: ['case.created'] })).toBe('webhooks.errors.urlProtocol');
    expect(message({ url: 'https://a:b@hooks.example.org/x', events: ['case.created'] })).toBe('webhooks.errors.urlCredentials');
    expect(message({ url: `https://hooks.example.org/${'x'.repeat(2000)}`, events: ['case.created'] })).toBe('webhooks.errors.urlTooLong');
    expect(webhookBody.safeParse({ url: 'https://hooks.example.org/x', events: ['case.created'], secret: 'whsec_mine' }).success).toBe(false);
  });
});

describe('webhooks policy', () => {
  const actorWith = (actions: string[], superAdmin = false): Actor => ({
    userId: 1, entityId: 1, entity: { docnumber: '1', name: 'Agency' }, name: 'Someone', email: 'someone@example.test',
    role: { id: 1, code: 'custom', name: 'custom', superAdmin }, rules: new Map([['menu_configuracion', new Set(actions)]]),
    language: 'en', timeZone: 'UTC', sessionId: 1, projectId: null, idleSeconds: 3000,
  });
  const TABLE: Array<[role: string, actor: Actor, changes: boolean]> = [
    ['reader (show)', actorWith(['show']), false],
    ['admin (show, update)', actorWith(['show', 'update']), true],
    ['creator only (create)', actorWith(['show', 'create']), false],
    ['super-admin', actorWith([], true), true],
  ];
  it.each(TABLE)('%s: may change subscriptions and redeliver -> %s', (_role, actor, changes) => {
    expect(webhookActions(actor)).toEqual(changes ? ['edit', 'delete', 'test', 'rotate', 'revealSecret'] : []);
    expect(deliveryActions(actor)).toEqual(changes ? ['redeliver'] : []);
    if (changes) expect(() => assertWebhookChange(actor)).not.toThrow();
    else expect(() => assertWebhookChange(actor)).toThrow('FORBIDDEN');
  });
});
