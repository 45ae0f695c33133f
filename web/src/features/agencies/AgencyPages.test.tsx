// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import type { SessionInfo } from '../../../../core/auth.js';
import { setLanguage } from '../../i18n/index.js';
import { jsonResponse, mockFetch, renderApp, sessionFixture, sessionWith, setScreenWidth, settingsFixture, unauthorized } from '../../test/utils.js';
import type { Agency } from './api.js';

// The proof-of-work widget needs a real browser (as in SignUpPage.test): what it does once verified is dispatched by hand.
vi.mock('../auth/altcha.js', () => ({ loadAltcha: () => Promise.resolve() }));

const solveCaptcha = () =>
  document.querySelector('altcha-widget')?.dispatchEvent(new CustomEvent('statechange', { detail: { state: 'verified', payload: 'cGF5bG9hZA==' } }));

const EN = { name: /^Agency name/, docnumber: /^Agency document number/, admin: /^Your full name/, email: /^Your email/, password: /^Password/, confirm: /^Confirm the password/ };
const ES = { name: /^Nombre de la entidad/, docnumber: /^Número de documento de la entidad/, admin: /^Su nombre completo/, email: /^Su correo electrónico/, password: /^Contraseña/, confirm: /^Confirme la contraseña/ };

async function fill(labels: typeof EN, confirm = 'Secret123') {
  fireEvent.change(await screen.findByLabelText(labels.name), { target: { value: 'Lakeside Relief' } });
  fireEvent.change(screen.getByLabelText(labels.docnumber), { target: { value: '800-123' } });
  fireEvent.change(screen.getByLabelText(labels.admin), { target: { value: 'Rita Registrant' } });
  fireEvent.change(screen.getByLabelText(labels.email), { target: { value: 'rita@example.test' } });
  fireEvent.change(screen.getByLabelText(labels.password), { target: { value: 'Secret123' } });
  fireEvent.change(screen.getByLabelText(labels.confirm), { target: { value: confirm } });
}

describe('/registro-entidad', () => {
  test.each([
    ['en', EN, 'Register the agency', 'Please complete captcha', 'Passwords do not match', 'Plan: Standard (50 accounts and 1,024 MB of storage)'],
    ['es', ES, 'Registrar la entidad', 'Por favor complete el captcha', 'Las contraseñas no coinciden', 'Plan: Estándar (50 cuentas y 1024 MB de almacenamiento)'],
  ] as const)('(%s) says what is missing before sending anything: the captcha, matching passwords', async (language, labels, submit, captcha, mismatch, plan) => {
    await setLanguage(language);
    const fetchMock = mockFetch((url) => (url.endsWith('/settings') ? jsonResponse(settingsFixture) : unauthorized()));
    renderApp('/registro-entidad');
    await fill(labels, 'Secret124');
    expect(screen.getByTestId('plan')).toHaveTextContent(plan);
    fireEvent.click(screen.getByRole('button', { name: submit }));
    expect(await screen.findByText(captcha)).toBeInTheDocument();
    expect(screen.getByText(mismatch)).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/agencies/registrations')).toBe(false);
  });

  test('premium: sends the premium plan and the chosen language, then says to check the email', async () => {
    setScreenWidth(320);
    const fetchMock = mockFetch((url) => {
      if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
      if (url === '/api/agencies/registrations') return jsonResponse({ message: 'We have sent a link to rita@example.test. Open it within 48 hours to create your agency.' }, 201);
      return unauthorized();
    });
    renderApp('/registro-entidad-premium');
    expect(await screen.findByRole('heading', { name: 'Register your agency: premium plan' })).toBeInTheDocument();
    expect(screen.getByTestId('plan')).toHaveTextContent('Plan: Premium (500 accounts and 20,480 MB of storage)');
    await fill(EN);
    fireEvent.mouseDown(screen.getByRole('combobox', { name: /Language of your emails/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'Español' }));
    solveCaptcha();
    fireEvent.click(screen.getByRole('button', { name: 'Register the agency' }));
    expect(await screen.findByRole('heading', { name: 'Check your email' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('We have sent a link to rita@example.test.');
    const call = fetchMock.mock.calls.find(([url]) => url === '/api/agencies/registrations');
    expect(JSON.parse(String(call?.[1]?.body))).toMatchObject({ plan: 'premium', language: 'es', docnumber: '800-123', name: 'Lakeside Relief', adminName: 'Rita Registrant', captcha: 'cGF5bG9hZA==' });
  });

  test('a docnumber already taken shows the server message under the docnumber, and a new captcha', async () => {
    const fetchMock = mockFetch((url) => {
      if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
      if (url === '/api/agencies/registrations') return jsonResponse({ error: { code: 'AGENCY_DOCNUMBER_TAKEN', message: 'An agency with the document number 800-123 already exists.' } }, 409);
      return unauthorized();
    });
    renderApp('/registro-entidad');
    await fill(EN);
    const widget = document.querySelector('altcha-widget');
    solveCaptcha();
    fireEvent.click(screen.getByRole('button', { name: 'Register the agency' }));
    expect(await screen.findByText('An agency with the document number 800-123 already exists.')).toBeInTheDocument();
    expect(screen.getByLabelText(EN.docnumber)).toHaveAttribute('aria-invalid', 'true');
    await waitFor(() => expect(document.querySelector('altcha-widget')).not.toBe(widget));
    // The spent solution is not sent again: the captcha must be solved anew.
    fireEvent.click(screen.getByRole('button', { name: 'Register the agency' }));
    expect(await screen.findByText('Please complete captcha')).toBeInTheDocument();
    expect(fetchMock.mock.calls.filter(([url]) => url === '/api/agencies/registrations')).toHaveLength(1);
  });
});

describe('/registro-entidad/confirmar/{token}', () => {
  const token = 'A'.repeat(43);
  const admin: SessionInfo = { ...sessionWith(['acl_roles']), user: { ...sessionFixture.user, name: 'Rita Registrant', role: 'super-admin', entity: { docnumber: '800-123', name: 'Lakeside Relief' } } };

  test('one button makes the agency and lands its administrator in the new home', async () => {
    let signedIn = false;
    const fetchMock = mockFetch((url) => {
      if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
      if (url === '/api/agencies/registrations/confirm') {
        signedIn = true;
        return jsonResponse({ entity: { docnumber: '800-123', name: 'Lakeside Relief' }, project: 'lakeside-relief' });
      }
      if (url === '/api/auth/session') return signedIn ? jsonResponse(admin) : unauthorized();
      return jsonResponse({ items: [], total: 0 });
    });
    const { router } = renderApp(`/registro-entidad/confirmar/${token}`);
    expect(await screen.findByText('One step left: create the agency and enter it as its administrator.')).toBeInTheDocument();
    // Opening the link alone makes nothing.
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/agencies/registrations/confirm')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Create my agency' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
    expect(await screen.findByText('Lakeside Relief is ready. Welcome!')).toBeInTheDocument();
    const call = fetchMock.mock.calls.find(([url]) => url === '/api/agencies/registrations/confirm');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ token });
  });

  test.each([
    ['en', 'REGISTRATION_USED', 410, 'This link was already used: the agency exists. Sign in to enter it.', 'Go to sign in', '/login'],
    ['en', 'REGISTRATION_EXPIRED', 410, 'This link has expired. Register the agency again to get a new one.', 'Register again', '/registro-entidad'],
    ['es', 'REGISTRATION_EXPIRED', 410, 'Este enlace venció. Registre la entidad de nuevo para recibir otro.', 'Registrarse de nuevo', '/registro-entidad'],
  ] as const)('(%s) %s: says so and offers the way on', async (language, code, status, message, way, href) => {
    await setLanguage(language);
    mockFetch((url) => {
      if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
      if (url === '/api/agencies/registrations/confirm') return jsonResponse({ error: { code, message } }, status);
      return unauthorized();
    });
    renderApp(`/registro-entidad/confirmar/${token}`);
    fireEvent.click(await screen.findByRole('button', { name: language === 'en' ? 'Create my agency' : 'Crear mi entidad' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(screen.getByRole('link', { name: way })).toHaveAttribute('href', href);
    expect(screen.queryByRole('button', { name: language === 'en' ? 'Create my agency' : 'Crear mi entidad' })).not.toBeInTheDocument();
  });
});

describe('the platform operator: /crear-entidad', () => {
  const operatorSession: SessionInfo = { ...sessionWith([]), user: { ...sessionFixture.user, name: 'Olga Operator', role: 'invitado', operator: true } };
  const agencies: Agency[] = [
    { id: 1, docnumber: '900100200', name: 'Demo Housing Agency', slug: 'demo-housing-agency', active: true, plan: 'standard', accountLimit: 50, diskQuotaMb: 1024, accountsUsed: 12, createdAt: '2026-01-02T15:00:00Z' },
    { id: 2, docnumber: '900300400', name: 'Other Agency', slug: 'other-agency', active: false, plan: 'premium', accountLimit: 500, diskQuotaMb: 20480, accountsUsed: 3, createdAt: '2026-01-03T15:00:00Z' },
  ];

  function serve(session: SessionInfo = operatorSession) {
    return mockFetch((url, init) => {
      if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
      if (url === '/api/auth/session') return jsonResponse(session);
      if (url.startsWith('/api/agencies?')) {
        const q = new URL(url, 'http://x').searchParams;
        const shown = agencies.filter((a) => (!q.get('state') || a.active === (q.get('state') === 'active')) && (!q.get('plan') || a.plan === q.get('plan')));
        return jsonResponse({ items: shown, total: shown.length });
      }
      if (url === '/api/agencies/1' && !init?.method) return jsonResponse(agencies[0]);
      if (url === '/api/agencies/1' && init?.method === 'PUT') return jsonResponse({ ...agencies[0], ...JSON.parse(String(init.body)) });
      if (url === '/api/agencies' && init?.method === 'POST') return jsonResponse({ ...agencies[0], id: 7, ...JSON.parse(String(init.body)), accountsUsed: 0 }, 201);
      if (url === '/api/agencies/7') return jsonResponse({ ...agencies[0], id: 7, name: 'Valley Title Office' });
      return jsonResponse({ items: [], total: 0 });
    });
  }

  test.each([
    ['en', 'Agencies', 'Other Agency', '12 of 50', 'Inactive', 'Premium'],
    ['es', 'Entidades', 'Other Agency', '12 de 50', 'Inactiva', 'Premium'],
  ] as const)('(%s) lists agencies with state, plan and accounts used of the limit; the menu shows the page', async (language, title, name, accounts, inactive, premium) => {
    await setLanguage(language);
    setScreenWidth(1366);
    const fetchMock = serve();
    renderApp('/crear-entidad');
    const table = await screen.findByRole('table', { name: title });
    expect(await within(table).findByRole('link', { name })).toHaveAttribute('href', '/crear-entidad/2');
    expect(within(table).getByText(accounts)).toBeInTheDocument();
    expect(within(table).getByText(inactive)).toBeInTheDocument();
    expect(within(table).getByText(premium)).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: /menu|menú/i })).toBeTruthy();
    expect(screen.getAllByRole('link', { name: title }).some((a) => a.getAttribute('href') === '/crear-entidad')).toBe(true);
    // No link of any tenant page: the operator's guest role holds no target.
    expect(screen.queryByRole('link', { name: language === 'en' ? 'Applications' : 'Solicitudes' })).not.toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => String(url).startsWith('/api/agencies?'))).toBe(true);
  });

  test('a tenant super-admin is sent home: the page is not theirs', async () => {
    const fetchMock = serve(sessionFixture);
    const { router } = renderApp('/crear-entidad');
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
    expect(fetchMock.mock.calls.some(([url]) => String(url).startsWith('/api/agencies'))).toBe(false);
    expect(screen.queryByRole('link', { name: 'Agencies' })).not.toBeInTheDocument();
  });

  test('deactivating asks first, then saves; cancelling saves nothing', async () => {
    setScreenWidth(320);
    const fetchMock = serve();
    renderApp('/crear-entidad/1');
    expect(await screen.findByRole('heading', { name: 'Demo Housing Agency' })).toBeInTheDocument();
    expect(screen.getByLabelText(/Document number/)).toBeDisabled();
    fireEvent.click(screen.getByRole('switch', { name: 'Active' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Demo Housing Agency will be deactivated');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PUT')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Deactivate' }));
    expect(await screen.findByText('The agency was saved.')).toBeInTheDocument();
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(JSON.parse(String(put?.[1]?.body))).toEqual({ name: 'Demo Housing Agency', active: false, plan: 'standard', accountLimit: 50, diskQuotaMb: 1024 });
  });

  test('(es) creates an agency with its first administrator and the plan limits, and a wrong limit is said before sending', async () => {
    await setLanguage('es');
    const fetchMock = serve();
    const { router } = renderApp('/crear-entidad/nuevo');
    expect(await screen.findByRole('heading', { name: 'Nueva entidad' })).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText(/^Nombre\s*\*?$/), { target: { value: 'Valley Title Office' } });
    fireEvent.change(screen.getByLabelText(/^Número de documento/), { target: { value: 'VT-2042' } });
    fireEvent.change(screen.getByLabelText(/^Nombre del administrador/), { target: { value: 'Vera Valley' } });
    fireEvent.change(screen.getByLabelText(/^Correo del administrador/), { target: { value: 'vera@valley.example.org' } });
    fireEvent.mouseDown(screen.getByRole('combobox', { name: /Plan/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'Premium' }));
    fireEvent.change(screen.getByLabelText(/^Cuentas permitidas/), { target: { value: '0' } });
    fireEvent.click(screen.getByRole('button', { name: 'Crear la entidad' }));
    expect(await screen.findByText('Debe ser al menos 1')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Usar los límites del plan' }));
    fireEvent.click(screen.getByRole('button', { name: 'Crear la entidad' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/crear-entidad/7'));
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({
      name: 'Valley Title Office', docnumber: 'VT-2042', adminName: 'Vera Valley', adminEmail: 'vera@valley.example.org', active: true, plan: 'premium', accountLimit: 500, diskQuotaMb: 20480,
    });
  });
});
