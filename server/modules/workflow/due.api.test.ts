import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase } from '../../../tests/support/app.js';
import { makeCase, makeEntity, makeMasterItem, makeProject, makePublishedProtocol, makeUser } from '../../../tests/support/factories.js';
import { type DbHandle, openDb } from '../../db/pool.js';
import { actorForUser } from '../auth/sessions.js';
import { submitCase } from '../cases/commands.js';
import { dueAt } from './due.js';
import { createAdhocTask, restartTask } from './engine.js';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let h: DbHandle;
beforeAll(async () => {
  database = await createTestDatabase();
  h = openDb(database.url);
});
afterAll(async () => {
  await h.close();
  await database.drop();
});

const due = async (timeZone: string, now: string, days: number) => {
  const project = await makeProject(h.db, { time_zone: timeZone });
  const row = await sql<{ at: Date }>`select ${dueAt({ project_id: project.id }, days, new Date(now))} as at`.execute(h.db);
  return row.rows[0].at.toISOString();
};

describe('a task due in N days', () => {
  it.each([
    // 10:00 on Saturday 7 March 2026 in New York (EST, UTC-5); daylight saving begins on Sunday 8 March at 02:00.
    ['America/New_York', '2026-03-07T15:00:00Z', 1, '2026-03-08T14:00:00.000Z'], // 10:00 EDT: 23 hours later
    ['America/New_York', '2026-03-07T15:00:00Z', 3, '2026-03-10T14:00:00.000Z'],
    // 10:00 on Saturday 31 October 2026 (EDT, UTC-4); it ends on Sunday 1 November at 02:00.
    ['America/New_York', '2026-10-31T14:00:00Z', 1, '2026-11-01T15:00:00.000Z'], // 10:00 EST: 25 hours later
    ['America/New_York', '2026-10-31T14:00:00Z', 0, '2026-10-31T14:00:00.000Z'],
    // Bogotá has no daylight saving time: always 24 hours a day.
    ['America/Bogota', '2026-03-07T15:00:00Z', 1, '2026-03-08T15:00:00.000Z'],
  ])('in %s from %s plus %i days is %s (the same wall-clock time)', async (zone, now, days, expected) => {
    expect(await due(zone, now, days)).toBe(expected);
  });

  it('has no due date without a number of days', () => {
    expect(dueAt({ project_id: 1 }, null)).toBeNull();
  });
});

describe('the engine gives a protocol task its due date in its unit', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('business days on the tenant calendar (its zone, its holidays), calendar days as before, kept through a restart; ad-hoc tasks count calendar days', async () => {
    const env = { publicUrl: 'https://cases.example.org', smtpConfigured: false };
    const entity = await makeEntity(h.db);
    // The project is in Bogotá; the business calendar in New York, with Thanksgiving 2026 off.
    const project = await makeProject(h.db, { entity_id: entity.id, time_zone: 'America/Bogota' });
    await h.db.insertInto('business_calendars').values({ entity_id: entity.id, work_days: ['mon', 'tue', 'wed', 'thu', 'fri'], work_start: '08:00', work_end: '17:00', time_zone: 'America/New_York' }).execute();
    const festivos = await h.db.selectFrom('masters').where('entity_id', '=', entity.id).where('code', '=', 'festivos').selectAll().executeTakeFirstOrThrow();
    await makeMasterItem(h.db, festivos, { code: '2026-11-26', name: 'Thanksgiving Day' });
    // An inactive holiday is a working day.
    await makeMasterItem(h.db, festivos, { code: '2026-11-30', name: 'Not a holiday any more', active: false });
    const owner = await makeUser(h.db, entity.id, { role: 'coordinator', rules: { wf_casos: ['show', 'update'], admin_cases: ['show', 'update'], wf_tareas: ['show', 'create', 'update', 'accept', 'reject', 'restart_task'], admintasks: ['show', 'update', 'restart_task'] } });
    const protocol = await makePublishedProtocol(h.db, entity.id, {
      start: ['review', 'check', 'old'],
      tasks: [
        { code: 'review', name: 'Review', responsible: { kind: 'owner' }, expirationDays: 1, expirationUnit: 'business' },
        { code: 'check', name: 'Check', responsible: { kind: 'owner' }, expirationDays: 1, expirationUnit: 'calendar' },
        // Saved before the unit existed: calendar days.
        { code: 'old', name: 'Old', responsible: { kind: 'owner' }, expirationDays: 2 },
      ],
    });
    const c = await makeCase(h.db, protocol, { ownerId: owner.id, projectId: project.id });

    // Wednesday 25 November 2026, 09:00 in New York.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-25T14:00:00Z'));
    await submitCase(h.db, env, { system: true, entityId: entity.id }, c.id);
    const tasks = async () =>
      new Map((await h.db.selectFrom('tasks').where('case_id', '=', c.id).select(['id', 'code', 'due_at', 'expiration_unit', 'state']).execute()).map((r) => [r.code, r]));
    let byCode = await tasks();
    // Thursday is Thanksgiving: the next working day is Friday, due at 17:00 in New York (22:00Z).
    expect(byCode.get('review')).toMatchObject({ state: 'PENDING', expiration_unit: 'business' });
    expect(byCode.get('review')?.due_at?.toISOString()).toBe('2026-11-27T22:00:00.000Z');
    // Calendar days: the same wall-clock time a day later in the project's zone.
    expect(byCode.get('check')).toMatchObject({ expiration_unit: 'calendar' });
    expect(byCode.get('check')?.due_at?.toISOString()).toBe('2026-11-26T14:00:00.000Z');
    expect(byCode.get('old')?.due_at?.toISOString()).toBe('2026-11-27T14:00:00.000Z');

    // Restarted after hours on Friday the 27th (18:00 New York): counted from Monday, due Tuesday 17:00 (the inactive holiday counts as a working day).
    const review = byCode.get('review')?.id as number;
    await h.db.updateTable('tasks').set({ state: 'ACCEPTED' }).where('id', '=', review).execute();
    vi.setSystemTime(new Date('2026-11-27T23:00:00Z'));
    await restartTask(h.db, env, await actorForUser(h.db, owner.id), review);
    byCode = await tasks();
    expect(byCode.get('review')?.state).toBe('PENDING');
    expect(byCode.get('review')?.due_at?.toISOString()).toBe('2026-12-01T22:00:00.000Z');

    // An ad-hoc task's days are calendar days.
    const adhoc = await createAdhocTask(h.db, env, await actorForUser(h.db, owner.id), { caseId: c.id, name: 'Call the landlord', userId: owner.id, expirationDays: 1 });
    const row = await h.db.selectFrom('tasks').where('id', '=', adhoc).select(['due_at', 'expiration_unit']).executeTakeFirstOrThrow();
    expect(row.expiration_unit).toBe('calendar');
    expect(row.due_at?.toISOString()).toBe('2026-11-28T23:00:00.000Z');
  });
});
