// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import { setLanguage } from '../../i18n/index.js';
import { jsonResponse, mockFetch, mockSettingsFetch, renderApp, settingsFixture } from '../../test/utils.js';

// The proof-of-work widget needs a real browser; the journeys in tests/e2e solve it.
vi.mock('./altcha.js', () => ({ loadAltcha: () => Promise.resolve() }));

async function fill(labels: { name: RegExp; email: RegExp; password: RegExp; confirm: RegExp }) {
  fireEvent.change(await screen.findByLabelText(labels.name), { target: { value: 'Nora New' } });
  fireEvent.change(screen.getByLabelText(labels.email), { target: { value: 'nora@demo.test' } });
  fireEvent.change(screen.getByLabelText(labels.password), { target: { value: 'Secret123' } });
  fireEvent.change(screen.getByLabelText(labels.confirm), { target: { value: 'Secret124' } });
}

describe('sign-up', () => {
  test('without the captcha: "Please complete captcha"; different passwords: "Passwords do not match"', async () => {
    mockSettingsFetch(settingsFixture, null);
    renderApp('/user/create-account');
    await fill({ name: /Full name/, email: /Email/, password: /^Password/, confirm: /Confirm the password/ });
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('Please complete captcha')).toBeInTheDocument();
    expect(screen.getByText('Passwords do not match')).toBeInTheDocument();
  });

  test('the same in Spanish', async () => {
    await setLanguage('es');
    mockSettingsFetch(settingsFixture, null);
    renderApp('/user/create-account');
    await fill({ name: /Nombre completo/, email: /Correo electrónico/, password: /^Contraseña/, confirm: /Confirme la contraseña/ });
    fireEvent.click(screen.getByRole('button', { name: 'Crear cuenta' }));
    expect(await screen.findByText('Por favor complete el captcha')).toBeInTheDocument();
    expect(screen.getByText('Las contraseñas no coinciden')).toBeInTheDocument();
  });

  test("a captcha the server refuses shows the server's message under the captcha", async () => {
    const fetchMock = mockFetch((url) => {
      if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
      return jsonResponse({ error: { code: 'CAPTCHA_REQUIRED', message: 'Please complete captcha' } }, 400);
    });
    renderApp('/user/create-account');
    await fill({ name: /Full name/, email: /Email/, password: /^Password/, confirm: /Confirm the password/ });
    fireEvent.change(screen.getByLabelText(/Confirm the password/), { target: { value: 'Secret123' } });
    // What the widget does once verified.
    const widget = document.querySelector('altcha-widget');
    widget?.dispatchEvent(new CustomEvent('statechange', { detail: { state: 'verified', payload: 'cGF5bG9hZA==' } }));
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('Please complete captcha')).toBeInTheDocument();
    const call = fetchMock.mock.calls.find(([url]) => url === '/api/auth/signup');
    expect(JSON.parse(String(call?.[1]?.body))).toMatchObject({ email: 'nora@demo.test', captcha: 'cGF5bG9hZA==' });
  });

  test.each([
    ['en', 'Check your email to continue: we have sent a message to this address.', 'Go to sign in'],
    ['es', 'Revise su correo para continuar: enviamos un mensaje a esta dirección.', 'Ir a iniciar sesión'],
  ] as const)("shows the server's one answer, new address or not, and the way to sign in (%s)", async (language, answer, goToSignIn) => {
    await setLanguage(language);
    const fetchMock = mockFetch((url) => {
      if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
      return jsonResponse({ message: answer }, 201);
    });
    renderApp('/user/create-account');
    const en = language === 'en';
    await fill(en
      ? { name: /Full name/, email: /Email/, password: /^Password/, confirm: /Confirm the password/ }
      : { name: /Nombre completo/, email: /Correo electrónico/, password: /^Contraseña/, confirm: /Confirme la contraseña/ });
    fireEvent.change(screen.getByLabelText(en ? /Confirm the password/ : /Confirme la contraseña/), { target: { value: 'Secret123' } });
    document.querySelector('altcha-widget')?.dispatchEvent(new CustomEvent('statechange', { detail: { state: 'verified', payload: 'cGF5bG9hZA==' } }));
    fireEvent.click(screen.getByRole('button', { name: en ? 'Create account' : 'Crear cuenta' }));
    expect(await screen.findByRole('status')).toHaveTextContent(answer);
    expect(screen.getByRole('link', { name: goToSignIn })).toHaveAttribute('href', '/login');
    expect(fetchMock.mock.calls.filter(([url]) => url === '/api/auth/signup')).toHaveLength(1);
  });

  test('from a public programme (/user/create-account/{project}?next=): signs up in that project, and the way to sign in comes back to the programme', async () => {
    const next = '/publico/demo-housing-agency/rental-assistance';
    const fetchMock = mockFetch((url) => {
      if (url.endsWith('/settings')) return jsonResponse({ ...settingsFixture, id: 'other', title: 'Title Clearance Office' });
      return jsonResponse({ message: 'Check your email to continue: we have sent a message to this address.' }, 201);
    });
    renderApp(`/user/create-account/other?next=${encodeURIComponent(next)}`);
    const signIn = `/login/other?next=${encodeURIComponent(next)}`;
    expect(await screen.findByRole('link', { name: 'I already have an account: sign in' })).toHaveAttribute('href', signIn);
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/projects/other/settings');
    await fill({ name: /Full name/, email: /Email/, password: /^Password/, confirm: /Confirm the password/ });
    fireEvent.change(screen.getByLabelText(/Confirm the password/), { target: { value: 'Secret123' } });
    document.querySelector('altcha-widget')?.dispatchEvent(new CustomEvent('statechange', { detail: { state: 'verified', payload: 'cGF5bG9hZA==' } }));
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByRole('link', { name: 'Go to sign in' })).toHaveAttribute('href', signIn);
    const call = fetchMock.mock.calls.find(([url]) => url === '/api/auth/signup');
    expect(JSON.parse(String(call?.[1]?.body))).toMatchObject({ email: 'nora@demo.test', project: 'other' });
  });

  test.each(['//evil.example/steal', 'https://evil.example/', '/\\evil.example', '/\t/evil.example', 'javascript:alert(1)'])('never carries a next that leaves the site on: %s', async (next) => {
    mockSettingsFetch(settingsFixture, null);
    renderApp(`/user/create-account?next=${encodeURIComponent(next)}`);
    expect(await screen.findByRole('link', { name: 'I already have an account: sign in' })).toHaveAttribute('href', '/login');
  });
});
