import { describe, expect, it } from 'vitest';
import { type BusinessCalendar, businessDueAt } from './due.js';

/** Monday to Friday, 08:00 to 17:00 in New York; Thanksgiving 2026 and Independence Day (observed) 2026 off. */
const ny: BusinessCalendar = { workDays: ['mon', 'tue', 'wed', 'thu', 'fri'], workStart: '08:00', workEnd: '17:00', timeZone: 'America/New_York' };
const holidays = new Set(['2026-11-26', '2026-07-03']);
const due = (now: string, days: number, calendar = ny, off: ReadonlySet<string> = holidays) => businessDueAt(new Date(now), days, calendar, off).toISOString();

describe('a task due in N business days', () => {
  it.each([
    // Daylight saving begins on Sunday 8 March 2026: Friday 17:00 is 22:00Z (EST), Monday 17:00 is 21:00Z (EDT).
    ['across the start of daylight saving time', '2026-03-06T15:00:00Z', 1, '2026-03-09T21:00:00.000Z'],
    // It ends on Sunday 1 November 2026: Friday 10:00 EDT, due Monday 17:00 EST.
    ['across the end of daylight saving time', '2026-10-30T14:00:00Z', 1, '2026-11-02T22:00:00.000Z'],
    ['over a weekend (Thursday noon plus 2)', '2026-03-12T16:00:00Z', 2, '2026-03-16T21:00:00.000Z'],
    ['over a holiday (Wednesday before Thanksgiving plus 1)', '2026-11-25T14:00:00Z', 1, '2026-11-27T22:00:00.000Z'],
    ['over a holiday that falls on a Friday, and the weekend after it', '2026-07-02T14:00:00Z', 1, '2026-07-06T21:00:00.000Z'],
    ['starting on a holiday (Thanksgiving plus 0: the next working day)', '2026-11-26T15:00:00Z', 0, '2026-11-27T22:00:00.000Z'],
    ['starting on a holiday plus 1', '2026-11-26T15:00:00Z', 1, '2026-11-30T22:00:00.000Z'],
    ['starting on a Saturday plus 0 (Monday)', '2026-03-07T15:00:00Z', 0, '2026-03-09T21:00:00.000Z'],
    ['starting on a Saturday plus 1 (Tuesday)', '2026-03-07T15:00:00Z', 1, '2026-03-10T21:00:00.000Z'],
    ['starting after hours (Monday 18:00 plus 1: Wednesday)', '2026-03-09T22:00:00Z', 1, '2026-03-11T21:00:00.000Z'],
    ['starting at the end of the working day (17:00 is after hours)', '2026-03-09T21:00:00Z', 0, '2026-03-10T21:00:00.000Z'],
    ['starting before hours (Monday 07:00 plus 0: that Monday)', '2026-03-09T11:00:00Z', 0, '2026-03-09T21:00:00.000Z'],
    ['starting within hours plus 0: the end of that day', '2026-03-09T20:59:00Z', 0, '2026-03-09T21:00:00.000Z'],
    // Friday 23:30 in New York is already Saturday in UTC: the day is the calendar's, not UTC's.
    ['on the calendar zone\'s day, not UTC\'s (Friday 23:30 EDT plus 1)', '2026-03-14T03:30:00Z', 1, '2026-03-17T21:00:00.000Z'],
    ['ten days over two weekends', '2026-03-02T14:00:00Z', 10, '2026-03-16T21:00:00.000Z'],
  ])('%s: from %s plus %i is %s', (_what, now, days, expected) => {
    expect(due(now, days)).toBe(expected);
  });

  it('uses the calendar\'s own working days, hours and zone', () => {
    // Sunday to Thursday, 09:00 to 16:30 in Jerusalem (UTC+2 in winter): from Thursday 10:00, 1 day is Sunday 16:30.
    const il: BusinessCalendar = { workDays: ['sun', 'mon', 'tue', 'wed', 'thu'], workStart: '09:00', workEnd: '16:30', timeZone: 'Asia/Jerusalem' };
    expect(due('2026-01-08T08:00:00Z', 1, il, new Set())).toBe('2026-01-11T14:30:00.000Z');
    // A holiday of another calendar does nothing here: only dates are compared.
    expect(due('2026-01-08T08:00:00Z', 1, il, new Set(['2026-01-10']))).toBe('2026-01-11T14:30:00.000Z');
    expect(due('2026-01-08T08:00:00Z', 1, il, new Set(['2026-01-11']))).toBe('2026-01-12T14:30:00.000Z');
  });

  it('never loops on a calendar whose working days are all holidays', () => {
    const sundaysOnly: BusinessCalendar = { ...ny, workDays: ['sun'] };
    const everySunday = new Set<string>();
    for (let d = new Date('2026-01-04T00:00:00Z'); d.getUTCFullYear() < 2047; d = new Date(d.getTime() + 7 * 86_400_000)) everySunday.add(d.toISOString().slice(0, 10));
    expect(() => due('2026-01-05T15:00:00Z', 1, sundaysOnly, everySunday)).toThrow(/no working day/);
  });
});
