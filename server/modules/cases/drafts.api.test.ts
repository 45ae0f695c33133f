import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, login, type TestApp } from '../../../tests/support/app.js';

/** Draft saves in the history: who saved, when, and which fields changed (the values stay in the draft). */
let t: TestApp;
let applicant: { sid: string };
let coordinator: { sid: string };
beforeAll(async () => {
  t = await createTestApp({ demo: true, workflow: true });
  [applicant, coordinator] = await Promise.all(['applicant@demo.test', 'coordinator@demo.test'].map((e) => login(t, e)));
});
afterAll(() => t.close());

type Event = { action: string; userName: string | null; detail: Record<string, unknown> };
const req = (method: string, url: string, who: { sid: string }, payload?: unknown) =>
  t.request({ method: method as 'GET', url, cookies: { ...who, lang: 'en' }, payload: payload as string });

describe('saving a draft', () => {
  it('records each save that changed something, with the fields it changed; an unchanged or stale save records nothing', async () => {
    const options = (await req('GET', '/api/cases/new-options', applicant)).json<{ protocols: Array<{ id: number }> }>();
    const created = await req('POST', '/api/cases/drafts', applicant, { protocolId: options.protocols[0].id, data: { firstName: 'Lucía', lastName: '', receive_assistance_alert: false } });
    expect(created.statusCode).toBe(201);
    const { id, version } = created.json<{ id: number; version: number }>();

    // Untouched defaults ('' and false) are no change; a new value and a changed one are.
    const saved = await req('PUT', `/api/cases/drafts/${id}`, applicant, { data: { firstName: 'Lucía María', lastName: 'Ortega', email: '', receive_assistance_alert: false }, version });
    expect(saved.statusCode).toBe(200);
    const next = saved.json<{ version: number }>().version;
    expect(next).toBe(version + 1);
    // The same values again: saved, but nothing to record.
    expect((await req('PUT', `/api/cases/drafts/${id}`, applicant, { data: { firstName: 'Lucía María', lastName: 'Ortega' }, version: next })).statusCode).toBe(200);
    // A stale version writes nothing.
    const stale = await req('PUT', `/api/cases/drafts/${id}`, applicant, { data: { firstName: 'Someone else' }, version });
    expect(stale.statusCode).toBe(409);
    expect(stale.json<{ error: { code: string } }>().error.code).toBe('STALE_DRAFT');
    expect((await req('GET', `/api/cases/drafts/${id}`, applicant)).json<{ data: Record<string, unknown> }>().data.firstName).toBe('Lucía María');

    const history = (await req('GET', `/api/cases/${id}/history`, coordinator)).json<Event[]>();
    expect(history.map((e) => [e.action, e.userName, e.detail.fields])).toEqual([
      ['case_created', 'Ana Applicant', ['firstName']],
      ['draft_saved', 'Ana Applicant', ['firstName', 'lastName']],
    ]);
  });

  it("is 404 for someone else's draft, and changes nothing", async () => {
    const options = (await req('GET', '/api/cases/new-options', applicant)).json<{ protocols: Array<{ id: number }> }>();
    const { id } = (await req('POST', '/api/cases/drafts', applicant, { protocolId: options.protocols[0].id, data: { firstName: 'Ana' } })).json<{ id: number }>();
    expect((await req('PUT', `/api/cases/drafts/${id}`, coordinator, { data: { firstName: 'Carla' } })).statusCode).toBe(404);
    expect((await req('GET', `/api/cases/drafts/${id}`, applicant)).json<{ data: Record<string, unknown> }>().data).toEqual({ firstName: 'Ana' });
  });
});
