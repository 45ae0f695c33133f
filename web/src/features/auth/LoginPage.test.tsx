// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import i18n, { setLanguage } from '../../i18n/index.js';
import { readCookie } from '../../lib/cookies.js';
import { jsonResponse, mockFetch, mockSettingsFetch, renderApp, sessionFixture, settingsFixture } from '../../test/utils.js';

vi.mock('../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));

const submit = (name = 'Sign in') => fireEvent.click(screen.getByRole('button', { name }));

describe('the sign-in form', () => {
  test.each([
    ['en', 'Sign in', 'This field is required'],
    ['es', 'Ingresar', 'Este campo es obligatorio'],
  ] as const)('says which fields are missing, under each field (%s)', async (language, button, required) => {
    await setLanguage(language);
    const fetchMock = mockSettingsFetch(settingsFixture, null);
    renderApp('/login');
    await screen.findByRole('heading', { level: 1 });
    submit(button);
    const messages = await screen.findAllByText(required);
    expect(messages).toHaveLength(2);
    // Each message is the described-by text of its input.
    const email = screen.getByRole('textbox', { name: language === 'en' ? /Email/ : /Correo electrónico/ });
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(document.getElementById(email.getAttribute('aria-describedby') ?? '')).toHaveTextContent(required);
    // Nothing went to the server.
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/auth/login')).toBe(false);
  });

  test("shows the server's refusal in the form, translated by the server", async () => {
    mockFetch((url) => {
      if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
      if (url === '/api/auth/login') {
        return jsonResponse({ error: { code: 'ACCOUNT_LOCKED', message: 'Su cuenta está bloqueada por demasiados intentos fallidos.' } }, 403);
      }
      return jsonResponse({ error: { code: 'UNAUTHORIZED', message: 'x' } }, 401);
    });
    renderApp('/login');
    fireEvent.change(await screen.findByLabelText(/Email/), { target: { value: 'someone@demo.test' } });
    fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: 'Wrong1234' } });
    submit();
    expect(await screen.findByRole('alert')).toHaveTextContent('Su cuenta está bloqueada');
  });

  test.each(['en', 'es'] as const)('the locked-account message names a link of the page that unlocks it: password recovery (%s)', async (language) => {
    await setLanguage(language);
    // The message as the server sends it: the shared translation of the error's key.
    const locked = i18n.getFixedT(language)('auth.errors.accountLocked');
    mockFetch((url) => {
      if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
      return jsonResponse({ error: { code: 'ACCOUNT_LOCKED', message: locked } }, 403);
    });
    renderApp('/login');
    fireEvent.change(await screen.findByLabelText(language === 'en' ? /Email/ : /Correo electrónico/), { target: { value: 'someone@demo.test' } });
    fireEvent.change(screen.getByLabelText(language === 'en' ? /^Password/ : /^Contraseña/), { target: { value: 'Right1234' } });
    submit(language === 'en' ? 'Sign in' : 'Ingresar');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(locked);
    const named = /"([^"]+)"/.exec(locked)?.[1] as string;
    expect(named).toBe(i18n.getFixedT(language)('login.forgotPassword'));
    expect(screen.getByRole('link', { name: named })).toHaveAttribute('href', '/user/recovery-password');
  });

  test('puts server validation details under their fields', async () => {
    mockFetch((url) => {
      if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
      return jsonResponse(
        { error: { code: 'VALIDATION', message: 'Some values are not valid', details: [{ path: 'email', message: 'The text is too long' }] } },
        400,
      );
    });
    renderApp('/login');
    fireEvent.change(await screen.findByLabelText(/Email/), { target: { value: 'someone@demo.test' } });
    fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: 'Demo12345' } });
    submit();
    expect(await screen.findByText('The text is too long')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /Email/ })).toHaveAttribute('aria-invalid', 'true');
  });

  test('links to sign-up, password recovery and sign-in by document', async () => {
    mockSettingsFetch(settingsFixture, null);
    renderApp('/login');
    const nav = await screen.findByRole('navigation');
    expect(within(nav).getByRole('link', { name: 'Create an account' })).toHaveAttribute('href', '/user/create-account');
    expect(within(nav).getByRole('link', { name: 'Forgot your password?' })).toHaveAttribute('href', '/user/recovery-password');
    expect(within(nav).getByRole('link', { name: 'Sign in with your document number' })).toHaveAttribute('href', '/login2');
  });

  test('in a project and on the way somewhere (?next=), the other ways in keep both', async () => {
    mockSettingsFetch(settingsFixture, null);
    renderApp(`/login/applications?next=${encodeURIComponent('/publico/demo-housing-agency/rental-assistance')}`);
    const nav = await screen.findByRole('navigation');
    const next = '?next=%2Fpublico%2Fdemo-housing-agency%2Frental-assistance';
    expect(within(nav).getByRole('link', { name: 'Create an account' })).toHaveAttribute('href', `/user/create-account/applications${next}`);
    expect(within(nav).getByRole('link', { name: 'Sign in with your document number' })).toHaveAttribute('href', `/login2/applications${next}`);
  });

  test('/login2 signs in by document number within the project', async () => {
    const fetchMock = mockFetch((url) => {
      if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
      if (url === '/api/auth/login-document') return jsonResponse(sessionFixture);
      return jsonResponse(sessionFixture);
    });
    const { router } = renderApp('/login2/applications');
    fireEvent.change(await screen.findByLabelText(/Document number/), { target: { value: '1020304050' } });
    fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: 'Demo12345' } });
    submit();
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
    const call = fetchMock.mock.calls.find(([url]) => url === '/api/auth/login-document');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ docnumber: '1020304050', password: 'Demo12345', project: 'applications' });
  });
});

describe('the language after signing in', () => {
  const signInAs = async (language: 'en' | 'es') => {
    let signedIn = false;
    const session = { ...sessionFixture, user: { ...sessionFixture.user, language } };
    mockFetch((url) => {
      if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
      if (url === '/api/auth/login') {
        signedIn = true;
        return jsonResponse(session);
      }
      if (url === '/api/auth/session' && !signedIn) return jsonResponse({ error: { code: 'UNAUTHORIZED', message: 'x' } }, 401);
      return jsonResponse(session);
    });
    const { router } = renderApp('/login');
    fireEvent.change(await screen.findByLabelText(/Email|Correo/), { target: { value: 'coordinator@demo.test' } });
    fireEvent.change(screen.getByLabelText(/^Password|^Contraseña/), { target: { value: 'Demo12345' } });
    fireEvent.click(screen.getByRole('button', { name: /^(Sign in|Ingresar)$/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
  };

  test("on a device with no language chosen, takes the one saved in the user's profile and remembers it", async () => {
    // Guessed from the browser: nothing stored (the test setup clears storage and cookies).
    await i18n.changeLanguage('en');
    await signInAs('es');
    await waitFor(() => expect(document.documentElement.lang).toBe('es'));
    expect(readCookie('lang')).toBe('es');
    await setLanguage('en');
  });

  test('keeps a language chosen on this device, on the sign-in page too', async () => {
    await setLanguage('en');
    await signInAs('es');
    await screen.findByRole('heading', { level: 1 });
    expect(document.documentElement.lang).toBe('en');
    expect(readCookie('lang')).toBe('en');
  });
});

describe('/login/{id}', () => {
  test("shows that project's title and remembers it in the projectid cookie", async () => {
    const fetchMock = mockSettingsFetch({ ...settingsFixture, id: 'other', title: 'Title Clearance Office' }, null);
    renderApp('/login/other');
    expect(await screen.findByTestId('project-title')).toHaveTextContent('Title Clearance Office');
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/projects/other/settings');
    await waitFor(() => expect(readCookie('projectid')).toBe('other'));
  });

  test('an unknown project is the 404 page, and is not remembered', async () => {
    mockFetch((url) =>
      url === '/api/projects/nope/settings'
        ? jsonResponse({ error: { code: 'NOT_FOUND', message: 'The requested record was not found.' } }, 404)
        : jsonResponse(settingsFixture),
    );
    renderApp('/login/nope');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(readCookie('projectid')).toBeNull();
  });
});
