import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/support/app.js';
import { buildApp } from '../../app.js';
import { QUEUES } from '../../jobs/boss.js';

/**
 * GET /api/metrics (Prometheus text format): 404 unless METRICS is on; with
 * METRICS_TOKEN only for its bearer, without one only for loopback callers.
 * Request latency by route pattern, the pool, the job queues, the sockets.
 */
const TOKEN = 'scrape-token-0123456789';
const bearer = { authorization: `Bearer ${TOKEN}` };

let off: TestApp;
let on: TestApp;
beforeAll(async () => {
  off = await createTestApp();
  // The case queues' workers start pg-boss, which makes its tables; mail has no worker here (no SMTP).
  on = await createTestApp({ env: { METRICS: 'on', METRICS_TOKEN: TOKEN }, jobs: { mail: false, schedules: false, cases: true } });
});
afterAll(async () => {
  await off.close();
  await on.close();
});

const scrape = async (t: TestApp) => {
  const res = await t.request({ method: 'GET', url: '/api/metrics', headers: bearer });
  expect(res.statusCode).toBe(200);
  return res.body;
};
/** The value of the one series of `name` whose labels include all of `labels`. */
function valueOf(body: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const line = body.split('\n').find((l) => {
    if (!l.startsWith(`${name}{`) && !l.startsWith(`${name} `)) return false;
    return Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`));
  });
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('GET /api/metrics', () => {
  it('is 404 when METRICS is off, token or not', async () => {
    for (const headers of [{}, bearer]) {
      const res = await off.request({ method: 'GET', url: '/api/metrics', headers });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: { code: 'ROUTE_NOT_FOUND', message: 'This address of the API does not exist.' } });
    }
  });

  it('is 401 without the token or with a wrong one', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token-0123456789', TOKEN, `Basic ${TOKEN}`]) {
      const res = await on.request({ method: 'GET', url: '/api/metrics', headers: authorization ? { authorization } : {} });
      expect(res.statusCode, String(authorization)).toBe(401);
      expect(res.json<{ error: { code: string } }>().error.code).toBe('UNAUTHORIZED');
      expect(res.headers['www-authenticate']).toBe('Bearer');
      expect(res.body).not.toContain('casebook_');
    }
  });

  it('answers the bearer in the Prometheus text format, with request latency by route pattern and status class', async () => {
    await on.request({ method: 'GET', url: '/api/cases/12345' });
    await on.request({ method: 'GET', url: '/api/cases/67890' });
    await on.request({ method: 'GET', url: '/api/version' });
    await on.request({ method: 'GET', url: '/api/no/such/path/42' });
    await new Promise((r) => setImmediate(r));
    const res = await on.request({ method: 'GET', url: '/api/metrics', headers: bearer });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const body = res.body;
    expect(body).toContain('# TYPE casebook_http_request_duration_seconds histogram');
    // Both ids under one series of the route's pattern; never the raw URL.
    expect(valueOf(body, 'casebook_http_request_duration_seconds_count', { route: '/api/cases/:id', method: 'GET', status: '4xx' })).toBe(2);
    expect(valueOf(body, 'casebook_http_request_duration_seconds_count', { route: '/api/version', method: 'GET', status: '2xx' })).toBe(1);
    expect(valueOf(body, 'casebook_http_request_duration_seconds_count', { route: 'unmatched', status: '4xx' })).toBeGreaterThanOrEqual(1);
    expect(body).not.toMatch(/12345|67890|no\/such/);
    expect(valueOf(body, 'casebook_http_request_duration_seconds_bucket', { route: '/api/cases/:id', le: '+Inf' })).toBe(2);
  });

  it("has the pool's total, idle and waiting clients, the sockets, and the process's own metrics", async () => {
    const body = await scrape(on);
    for (const state of ['total', 'idle', 'waiting']) expect(valueOf(body, 'casebook_db_pool_clients', { state }), state).toBeGreaterThanOrEqual(0);
    expect(valueOf(body, 'casebook_db_pool_clients', { state: 'total' })).toBeGreaterThan(0);
    expect(valueOf(body, 'casebook_realtime_sockets')).toBe(0);
    expect(valueOf(body, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(body).toContain('nodejs_heap_size_used_bytes');
  });

  it('has the depth of each job queue, counted in the database', async () => {
    // A mail job no worker of this app takes: it waits.
    await on.app.jobs?.send(QUEUES.mailSend, { id: 999_999 });
    // The count is cached for 5 s; a fresh app counts at its first scrape.
    const fresh = await buildApp({ config: on.app.config, db: on.db });
    await fresh.ready();
    try {
      const res = await fresh.inject({ method: 'GET', url: '/api/metrics', headers: bearer });
      expect(res.statusCode).toBe(200);
      expect(valueOf(res.body, 'casebook_job_queue_depth', { queue: QUEUES.mailSend, state: 'waiting' })).toBe(1);
      expect(valueOf(res.body, 'casebook_job_queue_depth', { queue: QUEUES.caseImport, state: 'waiting' })).toBe(0);
      expect(valueOf(res.body, 'casebook_job_queue_depth', { queue: QUEUES.caseImport, state: 'active' })).toBe(0);
    } finally {
      await fresh.close();
    }
  });

  it('without METRICS_TOKEN answers loopback callers only', async () => {
    const app = await buildApp({ config: { ...on.app.config, metrics: { enabled: true, token: undefined } }, db: on.db });
    await app.ready();
    try {
      expect((await app.inject({ method: 'GET', url: '/api/metrics', remoteAddress: '127.0.0.1' })).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/api/metrics', remoteAddress: '::1' })).statusCode).toBe(200);
      const far = await app.inject({ method: 'GET', url: '/api/metrics', remoteAddress: '203.0.113.5' });
      expect(far.statusCode).toBe(403);
      expect(far.json<{ error: { code: string } }>().error.code).toBe('FORBIDDEN');
    } finally {
      await app.close();
    }
  });
});
