/** Header that carries the application version on every request and response. */
export const VERSION_HEADER = 'x-app-version';
/** The browser reloads for a new version at most once in this many ms (spec: reload guard 60000 ms). */
export const RELOAD_GUARD_MS = 60_000;
