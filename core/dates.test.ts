import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, newApplicationsOpen, wallTimeToInstant } from './dates.js';

describe('dates', () => {
  it('formats MM/DD/YYYY and MM/DD/YYYY HH:mm in America/Bogota by default', () => {
    // 03:30 UTC on March 5th is 22:30 on March 4th in Bogota (UTC-5).
    expect(formatDate('2026-03-05T03:30:00Z')).toBe('03/04/2026');
    expect(formatDateTime('2026-03-05T03:30:00Z')).toBe('03/04/2026 22:30');
  });

  it('formats in another time zone when asked', () => {
    expect(formatDateTime('2026-03-05T03:30:00Z', 'UTC')).toBe('03/05/2026 03:30');
  });

  it('reads a wall time in US Eastern, with daylight saving', () => {
    expect(wallTimeToInstant('2021-12-01T00:00:00', 'America/New_York').toISOString()).toBe('2021-12-01T05:00:00.000Z');
    expect(wallTimeToInstant('2021-07-01T00:00:00', 'America/New_York').toISOString()).toBe('2021-07-01T04:00:00.000Z');
  });

  it('refuses what is not a wall time', () => {
    expect(() => wallTimeToInstant('tomorrow', 'America/New_York')).toThrow(RangeError);
  });

  it('closes new applications after the deadline unless allowed', () => {
    const s = { newApplicationsDeadline: '2021-12-01T00:00:00', allowNewApplications: false };
    expect(newApplicationsOpen(s, new Date('2021-11-30T12:00:00Z'))).toBe(true);
    expect(newApplicationsOpen(s, new Date('2021-12-02T00:00:00Z'))).toBe(false);
    expect(newApplicationsOpen({ ...s, allowNewApplications: true }, new Date('2030-01-01T00:00:00Z'))).toBe(true);
  });
});
