import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import { DEADLINE_TIME_ZONE, DEFAULT_TIME_ZONE } from './project.js';

dayjs.extend(utc);
dayjs.extend(timezone);

/** Spec section 9: MM/DD/YYYY and MM/DD/YYYY HH:mm. */
export const DATE_FORMAT = 'MM/DD/YYYY';
export const DATE_TIME_FORMAT = 'MM/DD/YYYY HH:mm';

type DateInput = Date | string | number;

export function formatDate(value: DateInput, timeZone: string = DEFAULT_TIME_ZONE): string {
  return dayjs(value).tz(timeZone).format(DATE_FORMAT);
}

export function formatDateTime(value: DateInput, timeZone: string = DEFAULT_TIME_ZONE): string {
  return dayjs(value).tz(timeZone).format(DATE_TIME_FORMAT);
}

/** A wall-clock time such as `2021-12-01T00:00:00` read in `timeZone`, as an instant. */
export function wallTimeToInstant(wallTime: string, timeZone: string): Date {
  if (!/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2})?)?$/.test(wallTime)) {
    throw new RangeError(`Not a wall-clock time: ${wallTime}`);
  }
  return dayjs.tz(wallTime, timeZone).toDate();
}

/**
 * New applications are closed once the deadline (US Eastern wall time) has
 * passed, unless the project still allows them. No deadline: always open.
 */
export function newApplicationsOpen(
  settings: { newApplicationsDeadline: string | null; allowNewApplications: boolean },
  now: Date,
): boolean {
  if (settings.allowNewApplications || !settings.newApplicationsDeadline) return true;
  return now.getTime() < wallTimeToInstant(settings.newApplicationsDeadline, DEADLINE_TIME_ZONE).getTime();
}
