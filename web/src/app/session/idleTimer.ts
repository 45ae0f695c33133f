/** The clock the idle timer reads; tests pass their own. */
export interface IdleClock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: IdleClock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
};

/** What counts as the user being there. `scroll` does not bubble: listening in the capture phase hears every scroller. */
export const ACTIVITY_EVENTS = ['pointerdown', 'pointermove', 'keydown', 'wheel', 'touchstart', 'scroll'] as const;

/** Tabs of one browser share the time of the last activity here, so a user busy in one tab is not signed out by another. */
export const ACTIVITY_STORAGE_KEY = 'app.lastActivity';

/** Storage is written at most this often: pointer moves come by the hundred. */
const STORAGE_WRITE_MS = 1000;

export interface IdleTimerOptions {
  timeoutMs: number;
  onIdle: () => void;
  /** Called on activity at most once per `keepAliveMs` (to keep the server's session alive too). */
  onKeepAlive?: () => void;
  keepAliveMs?: number;
  clock?: IdleClock;
  /** Where activity events are heard; the window by default. */
  target?: EventTarget;
  /** Shared with other tabs; null to keep the time to this page. */
  storage?: Storage | null;
}

export interface IdleTimer {
  stop(): void;
  /** Counts as activity (also what every activity event does). */
  touch(): void;
}

/**
 * Calls `onIdle` once, after `timeoutMs` without user activity in this tab
 * or any other tab of the browser.
 */
export function startIdleTimer(options: IdleTimerOptions): IdleTimer {
  const clock = options.clock ?? systemClock;
  const target = options.target ?? globalThis.window;
  const storage = options.storage === undefined ? safeLocalStorage() : options.storage;
  let lastActivity = clock.now();
  let lastWrite = Number.NEGATIVE_INFINITY;
  let lastKeepAlive = lastActivity;
  let handle: unknown = null;
  let stopped = false;

  const shared = (): number => {
    try {
      const value = Number(storage?.getItem(ACTIVITY_STORAGE_KEY));
      // A time in the future (another tab's clock or a bad value) is not trusted.
      return Number.isFinite(value) && value <= clock.now() ? value : 0;
    } catch {
      return 0;
    }
  };

  const touch = () => {
    if (stopped) return;
    const now = clock.now();
    lastActivity = now;
    if (now - lastWrite >= STORAGE_WRITE_MS) {
      lastWrite = now;
      try {
        storage?.setItem(ACTIVITY_STORAGE_KEY, String(now));
      } catch {
        // Storage full or disabled: this tab keeps its own time.
      }
    }
    if (options.onKeepAlive && options.keepAliveMs !== undefined && now - lastKeepAlive >= options.keepAliveMs) {
      lastKeepAlive = now;
      options.onKeepAlive();
    }
  };

  const schedule = (ms: number) => {
    handle = clock.setTimeout(check, Math.max(0, ms));
  };

  function check() {
    if (stopped) return;
    const last = Math.max(lastActivity, shared());
    const idleFor = clock.now() - last;
    if (idleFor >= options.timeoutMs) {
      stop();
      options.onIdle();
    } else {
      schedule(options.timeoutMs - idleFor);
    }
  }

  function stop() {
    stopped = true;
    if (handle !== null) clock.clearTimeout(handle);
    for (const type of ACTIVITY_EVENTS) target?.removeEventListener(type, touch, true);
  }

  for (const type of ACTIVITY_EVENTS) target?.addEventListener(type, touch, { capture: true, passive: true });
  touch();
  schedule(options.timeoutMs);
  return { stop, touch };
}

function safeLocalStorage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}
