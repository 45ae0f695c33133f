/**
 * When a task is due: `days` days of the tenant's calendar after `now`, at
 * the same wall-clock time in the case's project time zone. A day is not 24
 * hours when daylight saving time begins or ends in between (23 or 25 in US
 * Eastern); PostgreSQL's calendar arithmetic on local time does it right.
 */
import { type RawBuilder, sql } from 'kysely';

export function dueAt(c: { project_id: number }, days: number | null, now: Date = new Date()): RawBuilder<Date> | null {
  if (days === null) return null;
  const zone = sql`(select p.time_zone from projects p where p.id = ${c.project_id})`;
  return sql<Date>`((${now}::timestamptz at time zone ${zone}) + ${days} * interval '1 day') at time zone ${zone}`;
}
