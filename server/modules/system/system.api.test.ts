import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestApp, createTestDatabase, type TestApp } from '../../../tests/support/app.js';
import { buildApp } from '../../app.js';
import { openDb } from '../../db/pool.js';
import { APP_VERSION } from '../../version.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('GET /api/health', () => {
  it('is ok while the database answers', async () => {
    const res = await t.request({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', database: 'up' });
  });
});

describe('GET /api/ready', () => {
  it('is 200 while the instance takes traffic', async () => {
    const res = await t.request({ method: 'GET', url: '/api/ready' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ready' });
  });

  it('is 503 SHUTTING_DOWN from the signal on (main.ts sets draining), while health still answers', async () => {
    t.app.draining = true;
    try {
      const res = await t.request({ method: 'GET', url: '/api/ready', cookies: { lang: 'es' } });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ error: { code: 'SHUTTING_DOWN', message: 'Este servidor se está apagando. Inténtelo de nuevo en un momento.' } });
      // Liveness is another question: the process is alive and finishing its requests.
      expect((await t.request({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    } finally {
      t.app.draining = false;
    }
    expect((await t.request({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
  });

  it('is draining once the app starts closing', async () => {
    const app = await buildApp({ config: t.app.config, db: t.db });
    await app.ready();
    expect(app.draining).toBe(false);
    await app.close();
    expect(app.draining).toBe(true);
  });

  it('is 503 DB_UNAVAILABLE while the database cannot be reached, and 200 again once it can, without a restart', async () => {
    const database = await createTestDatabase();
    const handle = openDb(database.url, { max: 2, onError: () => {} });
    const app = await buildApp({ config: t.app.config, db: handle.db });
    const admin = new pg.Client({ connectionString: inject('testDb').adminUrl });
    await admin.connect();
    const away = `${database.name}_away`;
    let moved = false;
    try {
      expect((await app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
      // The database goes away: its connections are cut and new ones find no database of that name.
      await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [database.name]);
      await admin.query(`alter database ${database.name} rename to ${away}`);
      moved = true;
      const ready = await app.inject({ method: 'GET', url: '/api/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ error: { code: 'DB_UNAVAILABLE', message: 'The database is not reachable.' } });
      expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(503);
      await admin.query(`alter database ${away} rename to ${database.name}`);
      moved = false;
      expect((await app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
    } finally {
      if (moved) await admin.query(`alter database ${away} rename to ${database.name}`);
      await admin.end();
      await app.close();
      await handle.close();
      await database.drop();
    }
  });
});

describe('readiness under load', () => {
  it('answers on a connection of its own, at once, while every connection of the app pool is taken', async () => {
    const database = await createTestDatabase();
    const handle = openDb(database.url, { max: 2, onError: () => {} });
    const app = await buildApp({ config: t.app.config, db: handle.db });
    await app.ready();
    let held = [await handle.pool.connect(), await handle.pool.connect()];
    try {
      // A request for the app's pool now waits (up to its 5 s connect timeout): the balancer's check must not.
      const queued = handle.pool.query('select 1').catch((e: Error) => e);
      const started = Date.now();
      const ready = await app.inject({ method: 'GET', url: '/api/ready' });
      expect(ready.statusCode).toBe(200);
      expect(Date.now() - started).toBeLessThan(1_500);
      expect(handle.pool.waitingCount).toBe(1);
      for (const c of held) c.release();
      held = [];
      expect(await queued).toMatchObject({ rows: [{ '?column?': 1 }] });
    } finally {
      for (const c of held) c.release();
      await app.close();
      await handle.close();
      await database.drop();
    }
  });
});

describe('GET /api/version', () => {
  it('returns the package version, also in the header', async () => {
    const res = await t.request({ method: 'GET', url: '/api/version' });
    expect(res.json()).toEqual({ version: APP_VERSION });
    expect(res.headers['x-app-version']).toBe(APP_VERSION);
  });
});
