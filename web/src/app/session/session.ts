import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { createContext, useContext, useMemo } from 'react';
import type { SessionInfo } from '../../../../core/auth.js';
import type { Action, Target } from '../../../../core/targets.js';
import i18n, { LANGUAGES, type Language, languageChosenHere, setLanguage } from '../../i18n/index.js';
import { ApiError, apiFetch } from '../../lib/api.js';
import { rememberProject } from '../project/projectSettings.js';

export type Session = SessionInfo;

export const SESSION_KEY = ['session'] as const;

/**
 * The signed-in user, their rules and targets. No session (401) is an answer,
 * not a failure: the query holds `null` and the default layout sends the
 * user to /login.
 */
export const sessionQuery = queryOptions({
  queryKey: SESSION_KEY,
  queryFn: async ({ signal }): Promise<Session | null> => {
    try {
      return await apiFetch<Session>('/api/auth/session', { signal });
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return null;
      throw error;
    }
  },
  // Refetched on focus after this: a changed rule or an ended session shows up soon.
  staleTime: 30_000,
  meta: { silentError: true },
});

/** Why the session ended, for the message on the sign-in page. */
export type SignOutReason = 'exit' | 'idle' | 'expired';

let lastSignOut: SignOutReason | null = null;

/** How the last session of this page ended (null when none ended here). */
export function signOutReason(): SignOutReason | null {
  return lastSignOut;
}

/** Other tabs of the same browser hear of a sign-out through this key. */
export const SIGN_OUT_STORAGE_KEY = 'app.signedOut';

/**
 * Forgets the session in this tab: the cache holds `null` (the default
 * layout then sends the user to /login) and every other cached answer but
 * the project settings goes, so the next user sees none of it.
 */
export function endSessionLocally(client: QueryClient, reason: SignOutReason): void {
  lastSignOut = reason;
  client.setQueryData(SESSION_KEY, null);
  client.removeQueries({ predicate: (query) => !['session', 'project-settings'].includes(String(query.queryKey[0])) });
}

/** Ends the session on the server, then here, and tells the other tabs. */
export async function signOut(client: QueryClient, reason: 'exit' | 'idle'): Promise<void> {
  await apiFetch('/api/auth/logout', { method: 'POST' }).catch(() => undefined);
  endSessionLocally(client, reason);
  try {
    localStorage.setItem(SIGN_OUT_STORAGE_KEY, `${reason}:${Date.now()}`);
  } catch {
    // Without storage the other tabs learn it from their next request (401).
  }
}

/**
 * A sign-in answered with a session: keep it and the project it belongs to.
 * On a device where no language was chosen yet (the page guessed it from the
 * browser), the app takes the language saved in the user's profile; a choice
 * made on this device, on the sign-in page too, is kept.
 */
export function signedIn(client: QueryClient, session: Session): void {
  lastSignOut = null;
  client.setQueryData(SESSION_KEY, session);
  if (session.project) rememberProject(session.project);
  const saved = session.user.language as Language;
  if (!languageChosenHere() && (LANGUAGES as readonly string[]).includes(saved) && saved !== i18n.language) void setLanguage(saved);
}

/**
 * A `?next=` worth following: a path of this app (`/...`), never another
 * site. `//host` and `/\host` name another site, and browsers drop tabs and
 * line breaks from addresses (`/\t/host` is `//host`), so backslashes and
 * control characters anywhere refuse it. Null when it is not one.
 */
export function safeNext(next: string | null | undefined): string | null {
  if (!next || !next.startsWith('/') || next.startsWith('//')) return null;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing them is the point.
  if (/[\\\u0000-\u001f\u007f]/.test(next)) return null;
  return next;
}

/** Where the sign-in page returns to: a path of this app, never another site; /home otherwise. */
export function safeNextPath(next: string | null | undefined): string {
  return safeNext(next) ?? '/home';
}

/** `?next=...` carrying a safe `next` on to another page (the sign-in and sign-up pages link to each other), or ''. */
export function nextQuery(next: string | null | undefined): string {
  const safe = safeNext(next);
  return safe ? `?next=${encodeURIComponent(safe)}` : '';
}

export const SessionContext = createContext<Session | null>(null);

/** The signed-in session; only pages under the default layout may ask. */
export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession needs the default layout (RequireSession) above it');
  return session;
}

export interface SessionUser {
  name: string;
  email?: string;
  targets: readonly string[];
  /** A platform operator: the agencies pages. */
  operator?: boolean;
}

export function useSessionUser(): SessionUser {
  const session = useSession();
  return useMemo(() => ({ ...session.user, targets: session.targets }), [session]);
}

/** Whether the user may do `action` on `target`: buttons follow this, the server enforces it. */
export function useCan(): (target: Target, action: Action) => boolean {
  const session = useSession();
  return (target, action) => session.rules[target]?.includes(action) ?? false;
}
