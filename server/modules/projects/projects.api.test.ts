import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/support/app.js';
import { makeEntity, makeProject } from '../../../tests/support/factories.js';
import { DEFAULT_COLORS } from '../../../core/project.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('GET /api/projects/:id/settings', () => {
  it('returns branding and behaviour, with the spec defaults', async () => {
    const p = await makeProject(t.db, { title: 'Rental help', support_phone: '+1 555 0100' });
    const res = await t.request({ method: 'GET', url: `/api/projects/${p.uid}/settings` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: p.uid,
      title: 'Rental help',
      description: '',
      colors: DEFAULT_COLORS,
      favicon: null,
      logo: null,
      supportPhone: '+1 555 0100',
      timeZone: 'America/Bogota',
      language: 'en',
      idleTimeoutSeconds: 3000,
      autosaveSeconds: 300,
      newApplicationsDeadline: null,
      allowNewApplications: true,
      maintenance: false,
      blockIndexing: false,
    });
  });

  it('`default` names the project marked default, else the oldest', async () => {
    await makeProject(t.db);
    const oldest = await t.db.selectFrom('projects').select('uid').orderBy('id').limit(1).executeTakeFirstOrThrow();
    const res1 = await t.request({ method: 'GET', url: '/api/projects/default/settings' });
    expect(res1.json<{ id: string }>().id).toBe(oldest.uid);
    const marked = await makeProject(t.db, { is_default: true });
    const res2 = await t.request({ method: 'GET', url: '/api/projects/default/settings' });
    expect(res2.json<{ id: string }>().id).toBe(marked.uid);
  });

  it('hides projects of a deactivated tenant', async () => {
    const entity = await makeEntity(t.db, { active: false });
    const p = await makeProject(t.db, { entity_id: entity.id });
    const res = await t.request({ method: 'GET', url: `/api/projects/${p.uid}/settings` });
    expect(res.statusCode).toBe(404);
    expect(res.json<{ error: { code: string } }>().error.code).toBe('NOT_FOUND');
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    expect((await t.request({ method: 'GET', url: '/api/projects/nobody/settings' })).statusCode).toBe(404);
    for (const bad of ['UPPER', '..%2F..%2Fetc', '%7B%7D', 'a'.repeat(80)]) {
      const res = await t.request({ method: 'GET', url: `/api/projects/${bad}/settings` });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json<{ error: { code: string } }>().error.code).toBe('VALIDATION');
    }
  });
});
