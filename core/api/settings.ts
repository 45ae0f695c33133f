/**
 * The settings API's contract: the tenant's business calendar (issue 16),
 * which business-day due dates are counted on. Holidays are the items of the
 * tenant's `festivos` master, edited in the masters screens.
 */
import { z } from 'zod';
import { isTimeZone } from '../auth.js';

/** Days of the week, Monday first (ISO order). */
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** The holidays master's code. */
export const HOLIDAYS_MASTER = 'festivos';

const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'settings.calendar.badTime');

export const businessCalendarSchema = z.object({
  workDays: z.array(z.enum(WEEKDAYS)),
  /** Working hours, HH:mm in `timeZone`. */
  workStart: z.string(),
  workEnd: z.string(),
  timeZone: z.string(),
  updatedAt: z.date().nullable(),
});
export type BusinessCalendarView = z.infer<typeof businessCalendarSchema>;

export const businessCalendarBody = z
  .object({
    workDays: z
      .array(z.enum(WEEKDAYS, { error: 'settings.calendar.badWeekday' }))
      .min(1, 'settings.calendar.noWorkDays')
      .max(7)
      .refine((d) => new Set(d).size === d.length, 'settings.calendar.duplicateWeekday'),
    workStart: hhmm,
    workEnd: hhmm,
    timeZone: z.string().max(64).refine(isTimeZone, { error: 'validation.chooseOption' }),
  })
  .refine((b) => b.workStart < b.workEnd, { path: ['workEnd'], message: 'settings.calendar.endBeforeStart' });
export type BusinessCalendarBody = z.infer<typeof businessCalendarBody>;
