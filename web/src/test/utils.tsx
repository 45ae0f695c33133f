import { cleanup, configure, render } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import { afterEach, vi } from 'vitest';
import type { SessionInfo } from '../../../core/auth.js';
import { DEFAULT_COLORS, type ProjectSettings } from '../../../core/project.js';
import { ACTIONS, TARGETS } from '../../../core/targets.js';
import { VERSION_HEADER } from '../../../core/version.js';
import { App } from '../app/App.js';
import { createQueryClient } from '../app/queryClient.js';
import { clearToasts } from '../components/feedback/toastStore.js';
import { appRoutes } from '../app/router.js';
import i18n from '../i18n/index.js';
import { writeCookie } from '../lib/cookies.js';

// The root Vitest config defines the version like Vite does; a bare run has no define.
if (typeof __APP_VERSION__ === 'undefined') vi.stubGlobal('__APP_VERSION__', '0.0.0-test');

// Pages load lazily: the first one of a file compiles its modules, which can take seconds on a busy machine
// (CI saw six tests of this project miss a 5 s wait while other suites ran on the same two cores, and later
// two first tests miss 15 s: FormBuilderPage's and TasksPage's). A wait ends as soon as what it looks for
// appears, so a long limit costs a passing test nothing; tests/support/web-setup.ts says the same.
configure({ asyncUtilTimeout: 30_000 });

/** The version this test build believes it is. */
export const testVersion = (): string => __APP_VERSION__;

afterEach(async () => {
  cleanup();
  clearToasts();
  localStorage.clear();
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0]?.trim();
    if (name) writeCookie(name, '', 0);
  }
  Reflect.deleteProperty(window, 'matchMedia');
  vi.unstubAllGlobals();
  if (typeof __APP_VERSION__ === 'undefined') vi.stubGlobal('__APP_VERSION__', '0.0.0-test');
  await i18n.changeLanguage('en');
});

export const settingsFixture: ProjectSettings = {
  id: 'applications',
  title: 'Demo Housing Agency',
  description: 'Rental assistance',
  colors: { ...DEFAULT_COLORS },
  favicon: null,
  logo: null,
  supportPhone: '+1 (555) 010-0100',
  timeZone: 'America/Bogota',
  language: 'en',
  idleTimeoutSeconds: 3000,
  autosaveSeconds: 300,
  newApplicationsDeadline: '2021-12-01T00:00:00',
  allowNewApplications: true,
  maintenance: false,
  blockIndexing: false,
};

/** Signed in with every target and action: the whole menu shows. */
export const sessionFixture: SessionInfo = {
  user: {
    uid: '2',
    name: 'Demo Coordinator',
    email: 'coordinator@demo.test',
    role: 'coordinator',
    roleName: 'Coordinator',
    language: 'en',
    timeZone: 'America/Bogota',
    entity: { docnumber: '900100200', name: 'Demo Housing Agency' },
  },
  rules: Object.fromEntries(TARGETS.map((target) => [target, [...ACTIONS]])),
  targets: [...TARGETS],
  project: null,
  idleTimeoutSeconds: 3000,
};

/** The fixture session with only these targets (each with every action). */
export function sessionWith(targets: readonly string[], overrides: Partial<SessionInfo> = {}): SessionInfo {
  return {
    ...sessionFixture,
    rules: Object.fromEntries(targets.map((target) => [target, [...ACTIONS]])),
    targets: [...targets],
    ...overrides,
  };
}

/** The user the home page and the menu see, for components rendered without the app around them. */
export const fixtureUser = { name: sessionFixture.user.name, targets: TARGETS };

export function jsonResponse(body: unknown, status = 200, version = testVersion()): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', [VERSION_HEADER]: version },
  });
}

/** Answers every call with `respond`; returns the mock to inspect the calls. */
export function mockFetch(respond: (url: string, init?: RequestInit) => Response | Promise<Response>) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => respond(String(input), init));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

export const unauthorized = () =>
  jsonResponse({ error: { code: 'UNAUTHORIZED', message: 'Your session has ended. Please sign in again.' } }, 401);

/**
 * A fetch that serves the project settings and the session (signed in as
 * `session`, or signed out with null) and answers 404 to anything else.
 */
export function mockSettingsFetch(settings: ProjectSettings = settingsFixture, session: SessionInfo | null = sessionFixture) {
  return mockFetch((url) => {
    if (url.endsWith('/settings')) return jsonResponse(settings);
    if (url === '/api/auth/session') return session ? jsonResponse(session) : unauthorized();
    if (url === '/api/auth/logout') return new Response(null, { status: 204 });
    return jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);
  });
}

/** jsdom has no matchMedia: answer width queries as a screen `width` pixels wide would. */
export function setScreenWidth(width: number): void {
  window.matchMedia = (query: string) => {
    const min = /min-width:\s*([\d.]+)px/.exec(query);
    const max = /max-width:\s*([\d.]+)px/.exec(query);
    const matches = (!min || width >= Number(min[1])) && (!max || width <= Number(max[1]));
    return {
      matches,
      media: query,
      onchange: null,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    };
  };
}

/** The whole app on a memory router at `path`. */
export function renderApp(path: string) {
  const router = createMemoryRouter(appRoutes, { initialEntries: [path] });
  const queryClient = createQueryClient();
  return { router, queryClient, ...render(<App router={router} queryClient={queryClient} />) };
}
