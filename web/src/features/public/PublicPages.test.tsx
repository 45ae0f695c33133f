// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, test } from 'vitest';
import type { SessionInfo } from '../../../../core/auth.js';
import { setLanguage } from '../../i18n/index.js';
import { jsonResponse, mockFetch, renderApp, sessionWith, setScreenWidth, settingsFixture, unauthorized } from '../../test/utils.js';
import type { PublicEntity, PublicEntityList, PublicProgrammeDetail } from './api.js';

const demo = { slug: 'demo-housing-agency', docnumber: '900100200', name: 'Demo Housing Agency', logo: null };
const rental = {
  code: 'rental-assistance',
  name: 'Rental assistance',
  title: { en: 'Emergency Rental Assistance', es: 'Asistencia de emergencia para el alquiler' },
  description: { en: 'Help with past-due rent.\nPayments go to the landlord.', es: 'Ayuda con el alquiler atrasado.\nLos pagos van al arrendador.' },
  eligibility: { en: 'Renters of the area.', es: 'Arrendatarios de la zona.' },
};
// Written only in Spanish, and without a title: the page shows the Spanish text (marked as such) and the name.
const clearance = {
  code: 'title-clearance',
  name: 'Saneamiento',
  title: { en: '', es: '' },
  description: { en: '', es: 'Ayuda para sanear el título.' },
  eligibility: { en: '', es: '' },
};

const list: PublicEntityList = {
  items: [
    { ...demo, programmes: 2 },
    { slug: 'other-agency', docnumber: '900300400', name: 'Other Agency', logo: 'https://cdn.example.org/other.png', programmes: 1 },
  ],
  total: 2,
};
const entity = (applications: PublicEntity['applications'] = 'open'): PublicEntity => ({ ...demo, project: 'applications', applications, programmes: [rental, clearance] });
const programme = (applications: PublicEntity['applications'] = 'open'): PublicProgrammeDetail => ({ ...rental, id: 7, entity: { ...demo, project: 'applications', applications } });

const NOT_FOUND = { error: { code: 'NOT_FOUND', message: 'The requested record was not found.' } };
const applicant = sessionWith(['borradores', 'wf_casos'], {
  rules: { borradores: ['show', 'create', 'create_drafts'], wf_casos: ['show'] },
  user: { ...sessionWith([]).user, entity: { docnumber: '900100200', name: 'Demo Housing Agency' } },
});

/** The public API as the server answers it; `session` null is signed out. */
function serve(options: { session?: SessionInfo | null; entityPage?: PublicEntity | null; programmePage?: PublicProgrammeDetail | null; status?: number } = {}) {
  const { session = null, entityPage = entity(), programmePage = programme(), status = 404 } = options;
  return mockFetch((url) => {
    if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
    if (url === '/api/auth/session') return session ? jsonResponse(session) : unauthorized();
    if (url === '/api/auth/logout') return new Response(null, { status: 204 });
    if (url.startsWith('/api/public/entities?')) return jsonResponse(list);
    if (url === '/api/public/entities/demo-housing-agency') return entityPage ? jsonResponse(entityPage) : jsonResponse(NOT_FOUND, status);
    if (url === '/api/public/entities/demo-housing-agency/protocols/rental-assistance') return programmePage ? jsonResponse(programmePage) : jsonResponse(NOT_FOUND, status);
    return jsonResponse(NOT_FOUND, 404);
  });
}

describe('/publico', () => {
  test.each([
    ['en', 'Public programmes', '2 programmes', '1 programme', '2 organisations'],
    ['es', 'Programas públicos', '2 programas', '1 programa', '2 entidades'],
  ] as const)('lists the organisations with public programmes, each a link to its page (%s)', async (language, heading, two, one, found) => {
    await setLanguage(language);
    const fetchMock = serve();
    renderApp('/publico');
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
    expect(document.documentElement.lang).toBe(language);
    expect(await screen.findByRole('status')).toHaveTextContent(found);
    const links = screen.getAllByRole('link').filter((a) => a.getAttribute('href')?.startsWith('/publico/'));
    expect(links.map((a) => a.getAttribute('href'))).toEqual(['/publico/demo-housing-agency', '/publico/other-agency']);
    expect(links[0]).toHaveTextContent('Demo Housing Agency');
    expect(links[0]).toHaveTextContent(two);
    expect(links[1]).toHaveTextContent(one);
    // No logo: a placeholder; a logo that does not load: the placeholder too, never a broken image.
    expect(within(links[0] as HTMLElement).getByTestId('entity-logo-placeholder')).toBeInTheDocument();
    const logo = within(links[1] as HTMLElement).getByTestId('entity-logo');
    expect(logo).toHaveAttribute('alt', '');
    fireEvent.error(logo);
    expect(within(links[1] as HTMLElement).getByTestId('entity-logo-placeholder')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/public/entities?page=1&limit=24&sortBy=name')).toBe(true);
  });

  test('searches as the visitor types', async () => {
    const fetchMock = serve();
    renderApp('/publico');
    fireEvent.change(await screen.findByRole('searchbox', { name: 'Search organisations' }), { target: { value: 'títulos' } });
    await waitFor(() => expect(fetchMock.mock.calls.some(([url]) => String(url).includes('search=t%C3%ADtulos'))).toBe(true));
  });
});

describe('/publico/{entity}', () => {
  test('shows its programmes with title, description and who may apply, each a link to its page', async () => {
    serve();
    renderApp('/publico/demo-housing-agency');
    expect(await screen.findByRole('heading', { level: 1, name: 'Demo Housing Agency' })).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Breadcrumb' })).toHaveTextContent('Public programmes');
    const card = screen.getByRole('listitem', { name: 'Emergency Rental Assistance' });
    expect(within(card).getByRole('heading', { level: 3, name: 'Emergency Rental Assistance' })).toBeInTheDocument();
    expect(within(card).getByText(/Help with past-due rent/)).toBeInTheDocument();
    expect(within(card).getByRole('heading', { level: 4, name: 'Who may apply' })).toBeInTheDocument();
    expect(within(card).getByText('Renters of the area.')).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'See the programme Emergency Rental Assistance' })).toHaveAttribute('href', '/publico/demo-housing-agency/rental-assistance');
    // Written in Spanish only: shown, and marked as Spanish for screen readers; no title: the protocol's name.
    const other = screen.getByRole('listitem', { name: 'Saneamiento' });
    expect(within(other).getByText('Ayuda para sanear el título.')).toHaveAttribute('lang', 'es');
    expect(within(other).queryByRole('heading', { name: 'Who may apply' })).not.toBeInTheDocument();
  });

  test('in Spanish, the Spanish texts', async () => {
    await setLanguage('es');
    serve();
    renderApp('/publico/demo-housing-agency');
    const card = await screen.findByRole('listitem', { name: 'Asistencia de emergencia para el alquiler' });
    expect(within(card).getByText(/Ayuda con el alquiler atrasado/)).not.toHaveAttribute('lang');
    expect(within(card).getByRole('heading', { name: 'Quién puede solicitarlo' })).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'Ver el programa Asistencia de emergencia para el alquiler' })).toBeInTheDocument();
  });

  test.each([404, 400])('a %s is the friendly 404 page, which leads back to the public list', async (status) => {
    serve({ entityPage: null, status });
    renderApp('/publico/demo-housing-agency');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See the public programmes' })).toHaveAttribute('href', '/publico');
  });
});

describe('/publico/{entity}/{protocol}', () => {
  test.each([
    ['en', 'Sign in', 'Create an account', 'About the programme', 'Who may apply'],
    ['es', 'Iniciar sesión', 'Crear una cuenta', 'Sobre el programa', 'Quién puede solicitarlo'],
  ] as const)('signed out: sign in or create an account in the entity’s project, both coming back here (%s)', async (language, signIn, create, about, who) => {
    await setLanguage(language);
    serve();
    renderApp('/publico/demo-housing-agency/rental-assistance');
    expect(await screen.findByRole('heading', { level: 1, name: rental.title[language] })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: about })).toHaveTextContent(rental.description[language].split('\n')[0] as string);
    expect(screen.getByRole('region', { name: who })).toHaveTextContent(rental.eligibility[language]);
    const next = `?next=${encodeURIComponent('/publico/demo-housing-agency/rental-assistance')}`;
    expect(await screen.findByRole('link', { name: signIn })).toHaveAttribute('href', `/login/applications${next}`);
    expect(screen.getByRole('link', { name: create })).toHaveAttribute('href', `/user/create-account/applications${next}`);
    expect(screen.queryByRole('link', { name: /Apply|Solicitar/ })).not.toBeInTheDocument();
  });

  test('signed in to the entity with the right to apply: Apply goes straight to the form of this programme', async () => {
    serve({ session: applicant });
    const { router } = renderApp('/publico/demo-housing-agency/rental-assistance');
    const apply = await screen.findByRole('link', { name: 'Apply to Emergency Rental Assistance' });
    expect(apply).toHaveAttribute('href', '/cases/new?protocol=7');
    expect(screen.queryByRole('link', { name: 'Sign in' })).not.toBeInTheDocument();
    fireEvent.click(apply);
    await waitFor(() => expect(router.state.location.pathname + router.state.location.search).toBe('/cases/new?protocol=7'));
  });

  test('signed in to another entity: says so, and offers to sign out', async () => {
    const fetchMock = serve({ session: { ...applicant, user: { ...applicant.user, entity: { docnumber: '900300400', name: 'Other Agency' } } } });
    renderApp('/publico/demo-housing-agency/rental-assistance');
    expect(await screen.findByText(/You are signed in with an account of Other Agency/)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Apply/ })).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    expect(await screen.findByRole('link', { name: 'Sign in' })).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/auth/logout')).toBe(true);
  });

  test('signed in to the entity without the right to start applications: says so, no Apply', async () => {
    serve({ session: sessionWith(['wf_tareas'], { user: applicant.user }) });
    renderApp('/publico/demo-housing-agency/rental-assistance');
    expect(await screen.findByText('Your account cannot start applications. Contact Demo Housing Agency if you need to apply.')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Apply/ })).not.toBeInTheDocument();
  });

  test.each([
    ['en', 'The creation of new applications has been disabled.'],
    ['es', 'La creación de nuevas radicaciones ha sido deshabilitada.'],
  ] as const)('past the deadline without the allow flag: the message, and neither Apply nor sign-in (%s)', async (language, message) => {
    await setLanguage(language);
    serve({ session: applicant, programmePage: programme('closed') });
    renderApp('/publico/demo-housing-agency/rental-assistance');
    expect(await screen.findByTestId('applications-closed')).toHaveTextContent(message);
    expect(screen.queryByRole('link', { name: /Apply|Solicitar|Sign in|Iniciar/ })).not.toBeInTheDocument();
  });

  test.each([
    ['en', 'The application form is under maintenance. Please come back later.'],
    ['es', 'El formulario de solicitud está en mantenimiento. Vuelva más tarde.'],
  ] as const)('under maintenance: a maintenance notice instead of Apply (%s)', async (language, message) => {
    await setLanguage(language);
    serve({ session: applicant, programmePage: programme('maintenance') });
    renderApp('/publico/demo-housing-agency/rental-assistance');
    expect(await screen.findByTestId('applications-maintenance')).toHaveTextContent(message);
    expect(screen.queryByRole('link', { name: /Apply|Solicitar/ })).not.toBeInTheDocument();
  });

  test('a programme that is not public is the friendly 404 page, in Spanish too', async () => {
    await setLanguage('es');
    serve({ programmePage: null });
    renderApp('/publico/demo-housing-agency/rental-assistance');
    expect(await screen.findByRole('heading', { level: 1, name: 'Página no encontrada' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Ver los programas públicos' })).toHaveAttribute('href', '/publico');
  });

  test('at phone width (320 px): the title, the texts and the way to apply, in reading order', async () => {
    setScreenWidth(320);
    serve();
    renderApp('/publico/demo-housing-agency/rental-assistance');
    const heading = await screen.findByRole('heading', { level: 1, name: 'Emergency Rental Assistance' });
    const signIn = await screen.findByRole('link', { name: 'Sign in' });
    const about = screen.getByRole('region', { name: 'About the programme' });
    const apply = screen.getByRole('region', { name: 'Apply' });
    // Document order is reading order: title, what it is, then how to apply.
    expect(heading.compareDocumentPosition(about) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(about.compareDocumentPosition(apply) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(apply).toContainElement(signIn);
    // Landmarks: the page is the main region, the way back a navigation.
    expect(screen.getByRole('main')).toContainElement(heading);
    expect(screen.getByRole('navigation', { name: 'Breadcrumb' })).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toBeInTheDocument();
  });
});
