import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/support/app.js';
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

describe('GET /api/version', () => {
  it('returns the package version, also in the header', async () => {
    const res = await t.request({ method: 'GET', url: '/api/version' });
    expect(res.json()).toEqual({ version: APP_VERSION });
    expect(res.headers['x-app-version']).toBe(APP_VERSION);
  });
});
