import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, login, type TestApp } from '../../../tests/support/app.js';
import { makeEntity, makeProject, makeUser } from '../../../tests/support/factories.js';

/**
 * The tenant's business calendar through the API, on tenants made here: its
 * defaults (Monday to Friday, 08:00 to 17:00, the default project's zone),
 * a change read back, who may read and change it (menu_configuracion show
 * and update), another tenant's calendar untouched, and bad input refused
 * with nothing changed.
 */
let t: TestApp;
type Who = 'settings admin' | 'settings reader' | 'none' | 'admin of another tenant';
const sessions = {} as Record<Who, { sid: string }>;
const PASSWORD = 'Passw0rd1';
let entityId: number;
let otherId: number;

type Calendar = { workDays: string[]; workStart: string; workEnd: string; timeZone: string; updatedAt: string | null };
type Err = { error: { code: string; message: string; details?: Array<{ path: string; message: string }> } };

beforeAll(async () => {
  t = await createTestApp();
  const entity = await makeEntity(t.db);
  const other = await makeEntity(t.db);
  entityId = entity.id;
  otherId = other.id;
  await makeProject(t.db, { entity_id: entity.id, time_zone: 'America/New_York' });
  await makeProject(t.db, { entity_id: other.id, time_zone: 'America/Bogota' });
  const users: Array<[Who, number, Record<string, Array<'show' | 'update'>>]> = [
    ['settings admin', entity.id, { menu_configuracion: ['show', 'update'] }],
    ['settings reader', entity.id, { menu_configuracion: ['show'] }],
    ['none', entity.id, { wf_casos: ['show'] }],
    ['admin of another tenant', other.id, { menu_configuracion: ['show', 'update'] }],
  ];
  for (const [who, entity, rules] of users) {
    const u = await makeUser(t.db, entity, { role: who.replace(/ /g, '-'), rules, password: PASSWORD });
    sessions[who] = await login(t, u.email, PASSWORD);
  }
});
afterAll(() => t.close());

const as = (who: Who, method: 'GET' | 'PUT', payload?: unknown, lang = 'en') =>
  t.request({ method, url: '/api/settings/calendar', cookies: { ...sessions[who], lang }, payload: payload as string });
const stored = () => t.db.selectFrom('business_calendars').where('entity_id', '=', entityId).selectAll().executeTakeFirst();
const good = { workDays: ['mon', 'tue', 'wed', 'thu'], workStart: '07:30', workEnd: '16:00', timeZone: 'America/Chicago' };

describe('the business calendar', () => {
  it('has the defaults before anyone sets it: Monday to Friday, 08:00 to 17:00, the default project\'s zone', async () => {
    const res = await as('settings reader', 'GET');
    expect(res.statusCode).toBe(200);
    expect(res.json<Calendar>()).toEqual({ workDays: ['mon', 'tue', 'wed', 'thu', 'fri'], workStart: '08:00', workEnd: '17:00', timeZone: 'America/New_York', updatedAt: null });
    expect((await as('admin of another tenant', 'GET')).json<Calendar>().timeZone).toBe('America/Bogota');
  });

  it('is changed by a settings admin and read back, days in week order; another tenant\'s stays as it was', async () => {
    const res = await as('settings admin', 'PUT', { ...good, workDays: ['thu', 'mon', 'wed', 'tue'] });
    expect(res.statusCode).toBe(200);
    const body = res.json<Calendar>();
    expect(body).toMatchObject(good);
    expect(body.updatedAt).not.toBeNull();
    expect((await as('settings reader', 'GET')).json<Calendar>()).toMatchObject(good);
    expect(await stored()).toMatchObject({ work_days: good.workDays, work_start: '07:30', work_end: '16:00', time_zone: 'America/Chicago' });
    expect(await t.db.selectFrom('business_calendars').where('entity_id', '=', otherId).selectAll().executeTakeFirst()).toBeUndefined();
    // And changed again: one row per tenant.
    const again = await as('settings admin', 'PUT', { ...good, workDays: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat'] });
    expect(again.json<Calendar>().workDays).toEqual(['mon', 'tue', 'wed', 'thu', 'fri', 'sat']);
    await as('settings admin', 'PUT', good);
  });

  it.each([
    ['settings reader', 'GET', 200],
    ['settings reader', 'PUT', 403],
    ['none', 'GET', 403],
    ['none', 'PUT', 403],
  ] as const)('%s: %s is %i', async (who, method, status) => {
    const before = await stored();
    const res = await as(who, method, method === 'PUT' ? { ...good, workStart: '06:00' } : undefined);
    expect(res.statusCode).toBe(status);
    if (status === 403) expect(res.json<Err>().error.code).toBe('FORBIDDEN');
    expect(await stored()).toEqual(before);
  });

  it('is not read or changed without a session', async () => {
    expect((await t.request({ method: 'GET', url: '/api/settings/calendar' })).statusCode).toBe(401);
    expect((await t.request({ method: 'PUT', url: '/api/settings/calendar', payload: good })).statusCode).toBe(401);
  });

  it('changes only the caller\'s tenant: another tenant\'s admin sets its own', async () => {
    const res = await as('admin of another tenant', 'PUT', { ...good, timeZone: 'Europe/Madrid' });
    expect(res.statusCode).toBe(200);
    expect(res.json<Calendar>().timeZone).toBe('Europe/Madrid');
    expect((await as('settings reader', 'GET')).json<Calendar>().timeZone).toBe('America/Chicago');
  });

  it.each([
    ['an unknown weekday', { workDays: ['mon', 'funday'] }, 'workDays.1', 'Not a day of the week'],
    ['no working day', { workDays: [] }, 'workDays', 'Choose at least one working day'],
    ['a day twice', { workDays: ['mon', 'mon'] }, 'workDays', 'A day is given twice'],
    ['hours that end before they start', { workStart: '17:00', workEnd: '08:00' }, 'workEnd', 'The working day must end after it starts'],
    ['hours that end when they start', { workStart: '09:00', workEnd: '09:00' }, 'workEnd', 'The working day must end after it starts'],
    ['a time that is not HH:mm', { workStart: '8am' }, 'workStart', 'Write the time as HH:mm'],
    ['an hour past 23', { workEnd: '24:00' }, 'workEnd', 'Write the time as HH:mm'],
    ['an invalid time zone', { timeZone: 'Mars/Olympus_Mons' }, 'timeZone', 'You must choose an option'],
    ['a missing field', { timeZone: undefined }, 'timeZone', ''],
  ])('refuses %s with 400 and changes nothing', async (_what, change, path, message) => {
    const before = await stored();
    const res = await as('settings admin', 'PUT', { ...good, ...change });
    expect(res.statusCode).toBe(400);
    const err = res.json<Err>().error;
    expect(err.code).toBe('VALIDATION');
    const detail = err.details?.find((d) => d.path === path);
    expect(detail, JSON.stringify(err.details)).toBeDefined();
    if (message) expect(detail?.message).toBe(message);
    expect(await stored()).toEqual(before);
  });

  it('says what is wrong in Spanish too', async () => {
    const res = await as('settings admin', 'PUT', { ...good, workStart: '18:00', workEnd: '09:00' }, 'es');
    expect(res.json<Err>().error.details?.find((d) => d.path === 'workEnd')?.message).toBe('La jornada debe terminar después de empezar');
  });
});
