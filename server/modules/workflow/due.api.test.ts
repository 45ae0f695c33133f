import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../tests/support/app.js';
import { makeProject } from '../../../tests/support/factories.js';
import { type DbHandle, openDb } from '../../db/pool.js';
import { dueAt } from './due.js';

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
