import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../tests/support/app.js';
import { makeEntity, makeUser } from '../../tests/support/factories.js';
import { buildApp } from '../app.js';
import { type DbHandle, openDb, poolOf } from '../db/pool.js';
import { sweepRateLimits } from './rate-limit-store.js';

/**
 * Several instances on one database share the request limits (issue 21):
 * the per-address limits (`config.rateLimit`, @fastify/rate-limit with the
 * PostgreSQL store) and the per-account ones (`config.accountLimit`) count in
 * `rate_limits`, so a client spreading its requests over two apps built on
 * the same database, each with its own pool, gets each limit once, not twice.
 */

/** GET /api/auth/captcha takes 30 a minute per address. */
const CAPTCHA_LIMIT = 30;
/** The throwaway routes both apps get: 3 per address in a 2 s window; 3 per account a minute. */
const SHORT_MAX = 3;
const SHORT_WINDOW_MS = 2000;
const ACCOUNT_MAX = 3;

let t: TestApp;
let a: FastifyInstance;
let b: FastifyInstance;
let second: DbHandle;
let users: Array<{ email: string }>;

function withTestRoutes(app: FastifyInstance): FastifyInstance {
  app.get('/api/test/limited', { config: { access: 'public', rateLimit: { max: SHORT_MAX, timeWindow: SHORT_WINDOW_MS } } }, async () => ({ ok: true }));
  app.get('/api/test/per-account', { config: { access: 'session', accountLimit: { max: ACCOUNT_MAX, timeWindow: '1 minute' } } }, async () => ({ ok: true }));
  return app;
}

beforeAll(async () => {
  t = await createTestApp();
  // Two more apps on the same database, the second through a pool of its own: two instances.
  second = openDb(poolOf(t.db).options.connectionString as string, { max: 5 });
  a = withTestRoutes(await buildApp({ config: t.app.config, db: t.db }));
  b = withTestRoutes(await buildApp({ config: t.app.config, db: second.db }));
  await Promise.all([a.ready(), b.ready()]);
  const entity = await makeEntity(t.db);
  users = [
    await makeUser(t.db, entity.id, { role: 'clerk', password: 'Passw0rd1' }),
    await makeUser(t.db, entity.id, { role: 'clerk', password: 'Passw0rd1' }),
  ];
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await second?.close();
  await t?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('per-address limits across instances', () => {
  it("a real route's limit (captcha, 30 a minute) counts the requests of both apps: the 31st is 429 with Retry-After, on either", async () => {
    const remoteAddress = '198.51.100.31';
    const statuses: number[] = [];
    for (let i = 0; i < CAPTCHA_LIMIT; i++) {
      const app = i % 2 ? b : a;
      statuses.push((await app.inject({ method: 'GET', url: '/api/auth/captcha', remoteAddress })).statusCode);
    }
    expect(statuses.every((s) => s === 200)).toBe(true);
    for (const app of [a, b, t.app]) {
      const refused = await app.inject({ method: 'GET', url: '/api/auth/captcha', remoteAddress });
      expect(refused.statusCode).toBe(429);
      expect(refused.json<{ error: { code: string } }>().error.code).toBe('RATE_LIMITED');
      const retryAfter = Number(refused.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
    }
    // Another address has its own count; the row is keyed by the route and the address.
    expect((await b.inject({ method: 'GET', url: '/api/auth/captcha', remoteAddress: '198.51.100.32' })).statusCode).toBe(200);
    const row = await t.db.selectFrom('rate_limits').where('key', '=', 'GET/api/auth/captcha-198.51.100.31').select('count').executeTakeFirstOrThrow();
    expect(row.count).toBe(CAPTCHA_LIMIT + 3);
  });

  it('a new window starts afresh for everyone once the old one has ended', async () => {
    const remoteAddress = '198.51.100.40';
    const hit = (app: FastifyInstance) => app.inject({ method: 'GET', url: '/api/test/limited', remoteAddress });
    const first = [await hit(a), await hit(b), await hit(a)].map((r) => r.statusCode);
    expect(first).toEqual([200, 200, 200]);
    const refused = await hit(b);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(2);
    expect((await hit(a)).statusCode).toBe(429);
    await sleep(SHORT_WINDOW_MS + 100);
    const again = [await hit(b), await hit(a), await hit(b)].map((r) => r.statusCode);
    expect(again).toEqual([200, 200, 200]);
    expect((await hit(a)).statusCode).toBe(429);
  });

  it('counts concurrent requests exactly: of 20 at once over both apps, 3 pass', async () => {
    const remoteAddress = '198.51.100.41';
    const all = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? b : a).inject({ method: 'GET', url: '/api/test/limited', remoteAddress })));
    const codes = all.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(SHORT_MAX);
    expect(codes.filter((c) => c === 429)).toHaveLength(20 - SHORT_MAX);
  });
});

describe('per-account limits across instances', () => {
  it("counts an account's calls on both apps: the 4th is 429 with Retry-After; another account at the same address goes on", async () => {
    const remoteAddress = '198.51.100.50';
    const sid = async (app: FastifyInstance, email: string) => {
      const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'Passw0rd1' }, remoteAddress });
      expect(res.statusCode).toBe(200);
      return res.cookies.find((c) => c.name === 'sid')?.value ?? '';
    };
    const one = await sid(a, users[0].email);
    const other = await sid(b, users[1].email);
    const call = (app: FastifyInstance, token: string) => app.inject({ method: 'GET', url: '/api/test/per-account', cookies: { sid: token }, remoteAddress });
    expect([(await call(a, one)).statusCode, (await call(b, one)).statusCode, (await call(a, one)).statusCode]).toEqual([200, 200, 200]);
    const refused = await call(b, one);
    expect(refused.statusCode).toBe(429);
    expect(refused.json<{ error: { code: string } }>().error.code).toBe('RATE_LIMITED');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await call(a, one)).statusCode).toBe(429);
    expect((await call(a, other)).statusCode).toBe(200);
    // The window ends (made to, rather than waited for): the account starts afresh on both.
    await sql`update rate_limits set expires_at = now() - interval '1 second' where key like 'account:%'`.execute(t.db);
    expect([(await call(b, one)).statusCode, (await call(a, one)).statusCode, (await call(b, one)).statusCode]).toEqual([200, 200, 200]);
    expect((await call(a, one)).statusCode).toBe(429);
  });
});

describe('the store', () => {
  it('sweeps ended windows only', async () => {
    await sql`insert into rate_limits (key, count, expires_at) values ('test-ended', 5, now() - interval '1 second'), ('test-live', 5, now() + interval '1 minute')`.execute(t.db);
    expect(await sweepRateLimits(t.db)).toBeGreaterThanOrEqual(1);
    const keys = (await t.db.selectFrom('rate_limits').select('key').where('key', 'like', 'test-%').execute()).map((r) => r.key);
    expect(keys).toEqual(['test-live']);
  });

  it('answers 503 DB_UNAVAILABLE on a limited route when the database cannot be reached, not 500', async () => {
    // An app whose pool can no longer reach the database (its start reads the database, so it is cut after).
    const gone = openDb(poolOf(t.db).options.connectionString as string, { max: 1 });
    const app = await buildApp({ config: t.app.config, db: gone.db });
    try {
      await app.ready();
      await gone.pool.end();
      const res = await app.inject({ method: 'GET', url: '/api/auth/captcha', remoteAddress: '198.51.100.60' });
      expect(res.statusCode).toBe(503);
      expect(res.json<{ error: { code: string } }>().error.code).toBe('DB_UNAVAILABLE');
      // No count was written for it.
      expect(await t.db.selectFrom('rate_limits').where('key', 'like', '%198.51.100.60').select('key').execute()).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
