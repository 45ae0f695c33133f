// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { setLanguage } from '../../i18n/index.js';
import { safeNextPath } from './session.js';
import {
  jsonResponse,
  mockFetch,
  mockSettingsFetch,
  renderApp,
  sessionFixture,
  sessionWith,
  settingsFixture,
  unauthorized,
} from '../../test/utils.js';

vi.mock('../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));

describe('pages that need a session', () => {
  test('without one, the user goes to /login with the wanted page in ?next=, and returns there after signing in', async () => {
    let signedIn = false;
    const fetchMock = mockFetch((url) => {
      if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
      if (url === '/api/auth/session') return signedIn ? jsonResponse(sessionFixture) : unauthorized();
      if (url === '/api/auth/login') {
        signedIn = true;
        return jsonResponse(sessionFixture);
      }
      if (url.startsWith('/api/acl/roles?')) return jsonResponse({ items: [], total: 0 });
      return jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);
    });
    const { router } = renderApp('/main/acl_roles/');
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(new URLSearchParams(router.state.location.search).get('next')).toBe('/main/acl_roles/');

    fireEvent.change(screen.getByLabelText(/Email/), { target: { value: 'coordinator@demo.test' } });
    fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: 'Demo12345' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(await screen.findByRole('heading', { name: 'Roles' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/main/acl_roles/');
    const login = fetchMock.mock.calls.find(([url]) => url === '/api/auth/login');
    expect(JSON.parse(String(login?.[1]?.body))).toEqual({ email: 'coordinator@demo.test', password: 'Demo12345' });
  });

  test('?next= never leads to another site', async () => {
    mockFetch((url) => {
      if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
      if (url === '/api/auth/login') return jsonResponse(sessionFixture);
      return jsonResponse(sessionFixture);
    });
    const { router } = renderApp('/login?next=//evil.example/steal');
    fireEvent.change(await screen.findByLabelText(/Email/), { target: { value: 'a@b.co' } });
    fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: 'x' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
  });
});

describe('safeNextPath', () => {
  test.each([
    ['/publico/demo-housing-agency/rental-assistance?x=1', '/publico/demo-housing-agency/rental-assistance?x=1'],
    ['//evil.example', '/home'],
    ['/\\evil.example', '/home'],
    ['/\t/evil.example', '/home'],
    ['/ok\n//evil.example', '/home'],
    ['https://evil.example/', '/home'],
    ['javascript:alert(1)', '/home'],
    ['', '/home'],
    [null, '/home'],
  ])('%j -> %s', (next, path) => {
    expect(safeNextPath(next)).toBe(path);
  });
});

describe('the route guard', () => {
  test("a page whose target the user lacks sends them to /home with 'The user does not have permission to the page'", async () => {
    mockSettingsFetch(settingsFixture, sessionWith(['wf_casos', 'wf_tareas', 'menutareas']));
    const { router } = renderApp('/main/acl_roles/');
    expect(await screen.findByRole('alert')).toHaveTextContent('The user does not have permission to the page');
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
    expect(await screen.findByRole('heading', { name: 'Welcome, Demo Coordinator' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Roles' })).not.toBeInTheDocument();
  });

  test('the same in Spanish', async () => {
    await setLanguage('es');
    mockSettingsFetch(settingsFixture, sessionWith(['wf_casos']));
    const { router } = renderApp('/acl/users');
    expect(await screen.findByRole('alert')).toHaveTextContent('El usuario no tiene permiso para la página');
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
  });

  test('a page whose target the user holds opens', async () => {
    mockFetch((url) => {
      if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
      if (url === '/api/auth/session') return jsonResponse(sessionWith(['acl_roles']));
      return jsonResponse({ items: [], total: 0 });
    });
    const { router } = renderApp('/main/acl_roles/');
    expect(await screen.findByRole('heading', { name: 'Roles' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/main/acl_roles/');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  test('a call answered 401 (the session ended elsewhere) sends the user to sign in again', async () => {
    mockFetch((url) => {
      if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
      if (url === '/api/auth/session') return jsonResponse(sessionFixture);
      return unauthorized();
    });
    const { router } = renderApp('/main/acl_roles/');
    expect(await screen.findByText('Your session has ended. Please sign in again.')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(new URLSearchParams(router.state.location.search).get('next')).toBe('/main/acl_roles/');
  });
});

describe('idle sign-out', () => {
  afterEach(() => vi.useRealTimers());

  test.each([
    ['en', 'You have been logged out for inactivity'],
    ['es', 'Su sesión se cerró por inactividad'],
  ] as const)('after the idle time without activity the session ends and /login says why (%s)', async (language, text) => {
    await setLanguage(language);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], shouldAdvanceTime: true });
    const fetchMock = mockSettingsFetch(settingsFixture, { ...sessionFixture, idleTimeoutSeconds: 120 });
    const { router } = renderApp('/home');
    await screen.findByRole('heading', { level: 1 });
    vi.advanceTimersByTime(119_000);
    expect(fetchMock).not.toHaveBeenCalledWith('/api/auth/logout', expect.anything());
    vi.advanceTimersByTime(1_000);
    expect(await screen.findByText(text)).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith('/api/auth/logout', expect.objectContaining({ method: 'POST' }));
    expect(router.state.location.pathname).toBe('/login');
    expect(new URLSearchParams(router.state.location.search).get('next')).toBe('/home');
  });

  test('activity postpones it', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], shouldAdvanceTime: true });
    const fetchMock = mockSettingsFetch(settingsFixture, { ...sessionFixture, idleTimeoutSeconds: 120 });
    renderApp('/home');
    await screen.findByRole('heading', { name: 'Welcome, Demo Coordinator' });
    vi.advanceTimersByTime(100_000);
    fireEvent.keyDown(document.body, { key: 'Tab' });
    vi.advanceTimersByTime(100_000);
    expect(fetchMock).not.toHaveBeenCalledWith('/api/auth/logout', expect.anything());
    expect(screen.getByRole('heading', { name: 'Welcome, Demo Coordinator' })).toBeInTheDocument();
  });
});
