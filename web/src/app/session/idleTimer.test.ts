// @vitest-environment jsdom
import { afterEach, describe, expect, test, vi } from 'vitest';
import { ACTIVITY_STORAGE_KEY, type IdleClock, startIdleTimer } from './idleTimer.js';

/** A clock that moves only when told, running due timers as it passes them. */
function manualClock(start = 1_000_000): IdleClock & { advance(ms: number): void } {
  let now = start;
  let nextId = 1;
  const timers = new Map<number, { at: number; run: () => void }>();
  return {
    now: () => now,
    setTimeout(run, ms) {
      const id = nextId++;
      timers.set(id, { at: now + ms, run });
      return id;
    },
    clearTimeout(id) {
      timers.delete(id as number);
    },
    advance(ms) {
      const end = now + ms;
      for (;;) {
        const due = [...timers.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].run();
      }
      now = end;
    },
  };
}

const MINUTE = 60_000;

describe('the idle timer', () => {
  afterEach(() => localStorage.clear());

  function start(options: { storage?: Storage | null; keepAliveMs?: number } = {}) {
    const clock = manualClock();
    const target = new EventTarget();
    const onIdle = vi.fn();
    const onKeepAlive = vi.fn();
    const timer = startIdleTimer({
      timeoutMs: 50 * MINUTE,
      onIdle,
      onKeepAlive,
      keepAliveMs: options.keepAliveMs,
      clock,
      target,
      storage: options.storage === undefined ? null : options.storage,
    });
    const act = (type = 'pointerdown') => target.dispatchEvent(new Event(type));
    return { clock, onIdle, onKeepAlive, timer, act };
  }

  test('fires once, exactly when the idle time has passed without activity', () => {
    const { clock, onIdle } = start();
    clock.advance(50 * MINUTE - 1);
    expect(onIdle).not.toHaveBeenCalled();
    clock.advance(1);
    expect(onIdle).toHaveBeenCalledTimes(1);
    clock.advance(500 * MINUTE);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  test.each(['pointerdown', 'pointermove', 'keydown', 'wheel', 'touchstart', 'scroll'])('%s counts as activity', (type) => {
    const { clock, onIdle, act } = start();
    clock.advance(40 * MINUTE);
    act(type);
    clock.advance(40 * MINUTE);
    expect(onIdle).not.toHaveBeenCalled();
    clock.advance(10 * MINUTE);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  test('other events do not', () => {
    const { clock, onIdle, act } = start();
    clock.advance(40 * MINUTE);
    act('focus');
    clock.advance(10 * MINUTE);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  test('stop() cancels it and stops listening', () => {
    const { clock, onIdle, timer } = start();
    timer.stop();
    clock.advance(100 * MINUTE);
    expect(onIdle).not.toHaveBeenCalled();
  });

  test('activity in another tab (shared storage) keeps this tab signed in', () => {
    const { clock, onIdle } = start({ storage: localStorage });
    clock.advance(45 * MINUTE);
    // Another tab of the same browser writes its last activity.
    localStorage.setItem(ACTIVITY_STORAGE_KEY, String(clock.now()));
    clock.advance(10 * MINUTE);
    expect(onIdle).not.toHaveBeenCalled();
    clock.advance(40 * MINUTE);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  test('a shared time in the future is not trusted', () => {
    const { clock, onIdle } = start({ storage: localStorage });
    localStorage.setItem(ACTIVITY_STORAGE_KEY, String(clock.now() + 1000 * MINUTE));
    clock.advance(50 * MINUTE);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  test('activity keeps the server session alive, at most once per interval', () => {
    const { clock, onKeepAlive, act } = start({ keepAliveMs: 10 * MINUTE });
    act();
    expect(onKeepAlive).not.toHaveBeenCalled();
    clock.advance(10 * MINUTE);
    act();
    act();
    expect(onKeepAlive).toHaveBeenCalledTimes(1);
    clock.advance(5 * MINUTE);
    act();
    expect(onKeepAlive).toHaveBeenCalledTimes(1);
    clock.advance(5 * MINUTE);
    act();
    expect(onKeepAlive).toHaveBeenCalledTimes(2);
  });
});
