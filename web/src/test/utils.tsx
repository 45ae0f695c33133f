import { cleanup, render } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import { afterEach, vi } from 'vitest';
import { DEFAULT_COLORS, type ProjectSettings } from '../../../core/project.js';
import { VERSION_HEADER } from '../../../core/version.js';
import { App } from '../app/App.js';
import { createQueryClient } from '../app/queryClient.js';
import { appRoutes } from '../app/router.js';
import i18n from '../i18n/index.js';
import { writeCookie } from '../lib/cookies.js';

// The root Vitest config defines the version like Vite does; a bare run has no define.
if (typeof __APP_VERSION__ === 'undefined') vi.stubGlobal('__APP_VERSION__', '0.0.0-test');

/** The version this test build believes it is. */
export const testVersion = (): string => __APP_VERSION__;

afterEach(async () => {
  cleanup();
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
};

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

/** A fetch that serves the project settings and nothing else. */
export function mockSettingsFetch(settings: ProjectSettings = settingsFixture) {
  return mockFetch((url) =>
    url.endsWith('/settings')
      ? jsonResponse(settings)
      : jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404),
  );
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
  return { router, ...render(<App router={router} queryClient={queryClient} />) };
}
