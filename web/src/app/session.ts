import { TARGETS, type Target } from '../../../core/targets.js';
import { goTo } from '../lib/browser.js';

export interface SessionUser {
  name: string;
  targets: readonly Target[];
}

/**
 * The signed-in user. Sign-in does not exist yet, so this is a fixture that
 * holds every target, which lets the whole menu be seen; it will come from
 * `GET /api/auth/session` once that exists.
 */
export const fixtureUser: SessionUser = { name: 'Demo Coordinator', targets: TARGETS };

export function useSessionUser(): SessionUser {
  return fixtureUser;
}

/** Leaves the session. With no sign-in yet, that means starting the app afresh. */
export function exit(): void {
  goTo('/');
}
