/**
 * The tenant's settings: its business calendar (one row per tenant in
 * `business_calendars`; a tenant without one has the defaults) and its
 * holidays (the active items of its `festivos` master whose code is a date).
 * The engine reads them by tenant (workflow/due.ts); the routes by actor.
 */
import { sql, type Transaction } from 'kysely';
import { HOLIDAYS_MASTER, WEEKDAYS, type BusinessCalendarBody, type BusinessCalendarView, type Weekday } from '../../../core/api/settings.js';
import type { Db } from '../../db/pool.js';
import type { Database } from '../../db/types.js';
import type { Doer } from '../acl/policy.js';

type Executor = Db | Transaction<Database>;

export const DEFAULT_CALENDAR = { workDays: ['mon', 'tue', 'wed', 'thu', 'fri'] as Weekday[], workStart: '08:00', workEnd: '17:00' };

/** The tenant's zone when its calendar names none yet: its default project's (as cases/filters.ts reads it). */
const defaultZone = (entityId: number) =>
  sql<string>`coalesce((select p.time_zone from projects p where p.entity_id = ${entityId} order by p.is_default desc, p.id limit 1), 'UTC')`;

export async function readBusinessCalendar(db: Executor, entityId: number): Promise<BusinessCalendarView> {
  const row = await db
    .selectNoFrom([
      sql<string[] | null>`(select work_days from business_calendars where entity_id = ${entityId})`.as('work_days'),
      sql<string | null>`(select work_start from business_calendars where entity_id = ${entityId})`.as('work_start'),
      sql<string | null>`(select work_end from business_calendars where entity_id = ${entityId})`.as('work_end'),
      sql<string>`coalesce((select time_zone from business_calendars where entity_id = ${entityId}), ${defaultZone(entityId)})`.as('time_zone'),
      sql<Date | null>`(select updated_at from business_calendars where entity_id = ${entityId})`.as('updated_at'),
    ])
    .executeTakeFirstOrThrow();
  return {
    // Monday first, whatever order they were given in.
    workDays: row.work_days ? WEEKDAYS.filter((d) => row.work_days?.includes(d)) : DEFAULT_CALENDAR.workDays,
    workStart: row.work_start ?? DEFAULT_CALENDAR.workStart,
    workEnd: row.work_end ?? DEFAULT_CALENDAR.workEnd,
    timeZone: row.time_zone,
    updatedAt: row.updated_at,
  };
}

/** The tenant's holidays: dates (YYYY-MM-DD) of its calendar's zone. */
export async function readHolidays(db: Executor, entityId: number): Promise<Set<string>> {
  const rows = await db
    .selectFrom('master_items as i')
    .innerJoin('masters as m', 'm.id', 'i.master_id')
    .where('m.entity_id', '=', entityId)
    .where('i.entity_id', '=', entityId)
    .where('m.code', '=', HOLIDAYS_MASTER)
    .where('i.active', '=', true)
    .where('i.code', '~', '^\\d{4}-\\d{2}-\\d{2}$')
    .select('i.code')
    .execute();
  return new Set(rows.map((r) => r.code));
}

export async function findCalendar(db: Executor, doer: Doer): Promise<BusinessCalendarView> {
  return readBusinessCalendar(db, doer.entityId);
}

export async function saveCalendar(db: Executor, doer: Doer, body: BusinessCalendarBody): Promise<void> {
  const values = { work_days: WEEKDAYS.filter((d) => body.workDays.includes(d)), work_start: body.workStart, work_end: body.workEnd, time_zone: body.timeZone };
  await db
    .insertInto('business_calendars')
    .values({ entity_id: doer.entityId, ...values })
    .onConflict((oc) => oc.column('entity_id').doUpdateSet({ ...values, updated_at: new Date() }))
    .execute();
}
