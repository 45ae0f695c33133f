/**
 * When a task is due. Its `expiration_days` count either days of the
 * calendar or working days of the tenant's business calendar
 * (settings/repo.ts: working days and hours, its time zone, the `festivos`
 * master's holidays).
 *
 * Calendar days: `days` days after `now`, at the same wall-clock time in the
 * case's project time zone. A day is not 24 hours when daylight saving time
 * begins or ends in between (23 or 25 in US Eastern); PostgreSQL's calendar
 * arithmetic on local time does it right.
 *
 * Business days (`businessDueAt`): counted in the calendar's zone from the
 * first working day whose working hours have not ended at `now` (today, or
 * the next working day when `now` is after hours, on a weekend or on a
 * holiday); the task is due at the end of working hours `days` working days
 * after that day (0: at the end of that day).
 */
import dayjs, { type Dayjs } from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import { type RawBuilder, sql } from 'kysely';
import { WEEKDAYS, type Weekday } from '../../../core/api/settings.js';
import type { ExpirationUnit } from '../../../core/workflow/protocol.js';
import type { Db } from '../../db/pool.js';
import { readBusinessCalendar, readHolidays } from '../settings/repo.js';

dayjs.extend(utc);
dayjs.extend(timezone);

export function dueAt(c: { project_id: number }, days: number | null, now: Date = new Date()): RawBuilder<Date> | null {
  if (days === null) return null;
  const zone = sql`(select p.time_zone from projects p where p.id = ${c.project_id})`;
  return sql<Date>`((${now}::timestamptz at time zone ${zone}) + ${days} * interval '1 day') at time zone ${zone}`;
}

export interface BusinessCalendar {
  workDays: readonly Weekday[];
  /** HH:mm, in `timeZone`. */
  workStart: string;
  workEnd: string;
  timeZone: string;
}

/** Past this many days without a working day the calendar is broken (it has at least one working day a week). */
const MAX_SCAN_DAYS = 3650 * 2 + 366;

/** `days` working days after `now`, due at the end of the working day; `holidays` are dates (YYYY-MM-DD) of the calendar's zone. */
export function businessDueAt(now: Date, days: number, calendar: BusinessCalendar, holidays: ReadonlySet<string>): Date {
  const local = dayjs(now).tz(calendar.timeZone);
  // Dates as UTC midnights: adding a day is always 24 hours, whatever the zone's daylight saving does.
  const isWorkingDay = (d: Dayjs) => calendar.workDays.includes(WEEKDAYS[(d.day() + 6) % 7]) && !holidays.has(d.format('YYYY-MM-DD'));
  let day = dayjs.utc(local.format('YYYY-MM-DD'));
  let scanned = 0;
  const nextWorkingDay = (d: Dayjs) => {
    let n = d.add(1, 'day');
    while (!isWorkingDay(n)) {
      n = n.add(1, 'day');
      if (++scanned > MAX_SCAN_DAYS) throw new Error('The business calendar has no working day');
    }
    return n;
  };
  if (!isWorkingDay(day) || local.format('HH:mm:ss') >= `${calendar.workEnd}:00`) day = nextWorkingDay(day);
  for (let i = 0; i < days; i++) day = nextWorkingDay(day);
  return dayjs.tz(`${day.format('YYYY-MM-DD')} ${calendar.workEnd}`, calendar.timeZone).toDate();
}

/** A task's due date in its unit: SQL for calendar days, an instant for business days (the tenant's calendar read here). */
export async function taskDueAt(
  db: Db,
  c: { entity_id: number; project_id: number },
  days: number | null,
  unit: ExpirationUnit,
  now: Date = new Date(),
): Promise<RawBuilder<Date> | Date | null> {
  if (days === null) return null;
  if (unit === 'calendar') return dueAt(c, days, now);
  const calendar = await readBusinessCalendar(db, c.entity_id);
  return businessDueAt(now, days, calendar, await readHolidays(db, c.entity_id));
}
