import { RELOAD_GUARD_MS } from '../../../core/version.js';
import { reloadPage } from './browser.js';

const LAST_RELOAD_KEY = 'app.lastReload';

/**
 * Reloads the page to pick up a new front-end version, at most once per
 * RELOAD_GUARD_MS: if the new build is still not being served, a loop of
 * reloads would make the app unusable. Returns whether it reloaded.
 */
export function reloadForNewVersion(): boolean {
  const now = Date.now();
  try {
    const last = Number(localStorage.getItem(LAST_RELOAD_KEY));
    if (last > 0 && now >= last && now - last < RELOAD_GUARD_MS) return false;
    localStorage.setItem(LAST_RELOAD_KEY, String(now));
  } catch {
    // Without storage there is no guard, and an unguarded reload could loop.
    return false;
  }
  reloadPage();
  return true;
}
