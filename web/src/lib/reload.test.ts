// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { RELOAD_GUARD_MS } from '../../../core/version.js';
import { reloadPage } from './browser.js';
import { reloadForNewVersion } from './reload.js';

vi.mock('./browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));

describe('reloadForNewVersion', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-01-01T10:00:00Z'));
    vi.mocked(reloadPage).mockClear();
    localStorage.clear();
  });
  afterEach(() => vi.useRealTimers());

  test('reloads the first time and stores when', () => {
    expect(reloadForNewVersion()).toBe(true);
    expect(reloadPage).toHaveBeenCalledTimes(1);
    expect(localStorage.getItem('app.lastReload')).toBe(String(Date.now()));
  });

  test('refuses a second reload within the guard, allows one after it', () => {
    expect(reloadForNewVersion()).toBe(true);
    vi.advanceTimersByTime(RELOAD_GUARD_MS - 1);
    expect(reloadForNewVersion()).toBe(false);
    expect(reloadPage).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(reloadForNewVersion()).toBe(true);
    expect(reloadPage).toHaveBeenCalledTimes(2);
  });

  test('the guard survives the reload itself (it lives in localStorage)', () => {
    localStorage.setItem('app.lastReload', String(Date.now() - 30_000));
    expect(reloadForNewVersion()).toBe(false);
    expect(reloadPage).not.toHaveBeenCalled();
  });

  test('a stored time in the future (clock moved back) does not block forever', () => {
    localStorage.setItem('app.lastReload', String(Date.now() + 3_600_000));
    expect(reloadForNewVersion()).toBe(true);
  });
});
