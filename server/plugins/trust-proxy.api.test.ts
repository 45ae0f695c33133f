import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../tests/support/app.js';
import { makeEntity, makeUser } from '../../tests/support/factories.js';
import { buildApp } from '../app.js';
import type { Config } from '../config.js';

/**
 * Behind a load balancer (TRUST_PROXY): the client's address comes from
 * X-Forwarded-For only when the connection is from a listed proxy, and the
 * per-address limits, the sign-in throttle and the access log count it;
 * from any other address the header is ignored. And cookies are Secure
 * when PUBLIC_URL is https.
 */
const PROXY = '10.0.0.1';
const STRANGER = '10.0.0.2';
/** GET /api/auth/captcha takes 30 a minute per address. */
const CAPTCHA_LIMIT = 30;

let t: TestApp;
let plain: FastifyInstance;
let https: FastifyInstance;
const lines: Array<Record<string, unknown>> = [];
let user: { email: string };

const withHttp = (config: Config, http: Partial<Config['http']>): Config => ({ ...config, http: { ...config.http, ...http } });

beforeAll(async () => {
  const stream = { write: (line: string) => void lines.push(JSON.parse(line)) };
  t = await createTestApp({ env: { TRUST_PROXY: `${PROXY}, 192.0.2.0/24`, LOG_FORMAT: 'json' }, logger: { level: 'info', stream } });
  // The same database, without TRUST_PROXY (the default), and with an https PUBLIC_URL.
  plain = await buildApp({ config: withHttp(t.app.config, { trustProxy: [] }), db: t.db });
  https = await buildApp({ config: withHttp(t.app.config, { publicUrl: 'https://cases.example.org', secureCookies: true }), db: t.db });
  await Promise.all([plain.ready(), https.ready()]);
  const entity = await makeEntity(t.db);
  user = await makeUser(t.db, entity.id, { role: 'clerk', rules: { wf_casos: ['show'] }, password: 'Passw0rd1' });
});
afterAll(async () => {
  await plain.close();
  await https.close();
  await t.close();
});

const captcha = (app: FastifyInstance, remoteAddress: string, forwardedFor?: string) =>
  app.inject({ method: 'GET', url: '/api/auth/captcha', remoteAddress, headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {} });

/** The statuses of n captcha requests, each with the address given for its index. */
async function statuses(app: FastifyInstance, n: number, remoteAddress: string, forwardedFor: (i: number) => string | undefined) {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await captcha(app, remoteAddress, forwardedFor(i))).statusCode);
  return out;
}

describe('TRUST_PROXY', () => {
  it("counts the per-address limit by the forwarded client when the connection is from a listed proxy", async () => {
    const one = await statuses(t.app, CAPTCHA_LIMIT + 1, PROXY, () => '203.0.113.1');
    expect(one.slice(0, CAPTCHA_LIMIT).every((s) => s === 200)).toBe(true);
    expect(one[CAPTCHA_LIMIT]).toBe(429);
    // Another client behind the same proxy, and the proxy's own address, have their own counts.
    expect((await captcha(t.app, PROXY, '203.0.113.2')).statusCode).toBe(200);
    expect((await captcha(t.app, PROXY)).statusCode).toBe(200);
    // A proxy of a listed CIDR is believed too.
    expect((await captcha(t.app, '192.0.2.77', '203.0.113.1')).statusCode).toBe(429);
  });

  it('takes the address the proxy saw, not one the client wrote to the left of it', async () => {
    const spoofed = await statuses(t.app, CAPTCHA_LIMIT + 1, PROXY, (i) => `198.51.100.${i}, 203.0.113.3`);
    expect(spoofed[CAPTCHA_LIMIT]).toBe(429);
  });

  it("ignores the header from an address that is not listed: the limit counts that address's own requests", async () => {
    const forged = await statuses(t.app, CAPTCHA_LIMIT + 1, STRANGER, (i) => `203.0.113.${100 + i}`);
    expect(forged.slice(0, CAPTCHA_LIMIT).every((s) => s === 200)).toBe(true);
    expect(forged[CAPTCHA_LIMIT]).toBe(429);
    expect((await captcha(t.app, STRANGER)).statusCode).toBe(429);
  });

  it('is off by default: the header is ignored whoever sends it', async () => {
    const forged = await statuses(plain, CAPTCHA_LIMIT + 1, PROXY, (i) => `203.0.113.${i}`);
    expect(forged[CAPTCHA_LIMIT]).toBe(429);
  });

  it('throttles sign-in failures per forwarded client: another client behind the proxy still signs in', async () => {
    await sql`delete from auth_throttle`.execute(t.db);
    const login = (email: string, password: string, client: string) =>
      t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress: PROXY, headers: { 'x-forwarded-for': client } });
    let last = 0;
    for (let i = 0; i < 31; i++) last = (await login(`stranger${i}@nowhere.test`, 'Wrong1234', '203.0.113.50')).statusCode;
    expect(last).toBe(429);
    expect((await login(user.email, 'Passw0rd1', '203.0.113.50')).statusCode).toBe(429);
    expect((await login(user.email, 'Passw0rd1', '203.0.113.51')).statusCode).toBe(200);
    const rows = await t.db.selectFrom('auth_throttle').select('key').execute();
    expect(rows.map((r) => r.key)).toContain('address:203.0.113.50');
    expect(rows.map((r) => r.key)).not.toContain(`address:${PROXY}`);
    await sql`delete from auth_throttle`.execute(t.db);
  });

  it("writes the client's address in the access log", async () => {
    await t.app.inject({ method: 'GET', url: '/api/version?from=proxy', remoteAddress: PROXY, headers: { 'x-forwarded-for': '203.0.113.9' } });
    await t.app.inject({ method: 'GET', url: '/api/version?from=stranger', remoteAddress: STRANGER, headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(lines.find((l) => l.url === '/api/version?from=proxy')).toMatchObject({ status: 200, ip: '203.0.113.9' });
    expect(lines.find((l) => l.url === '/api/version?from=stranger')).toMatchObject({ status: 200, ip: STRANGER });
  });
});

describe('cookies when PUBLIC_URL is https', () => {
  it('sets and clears the session cookie Secure, HttpOnly and SameSite', async () => {
    const res = await https.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: 'Passw0rd1' }, remoteAddress: '192.0.2.200' });
    expect(res.statusCode).toBe(200);
    const sid = res.cookies.find((c) => c.name === 'sid');
    expect(sid).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Lax', path: '/' });
    const out = await https.inject({ method: 'POST', url: '/api/auth/logout', cookies: { sid: sid?.value ?? '' } });
    expect(out.statusCode).toBe(204);
    const cleared = out.cookies.find((c) => c.name === 'sid');
    expect(cleared).toMatchObject({ value: '', secure: true, httpOnly: true, sameSite: 'Lax', path: '/' });
    // Every cookie either answer set is Secure.
    for (const c of [...res.cookies, ...out.cookies]) expect(c.secure, c.name).toBe(true);
  });

  it('leaves them without Secure on plain http (a local install)', async () => {
    const res = await plain.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: 'Passw0rd1' }, remoteAddress: '192.0.2.201' });
    expect(res.statusCode).toBe(200);
    expect(res.cookies.find((c) => c.name === 'sid')?.secure).toBeFalsy();
  });
});
