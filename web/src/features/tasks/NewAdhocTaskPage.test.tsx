// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import i18n from '../../i18n/index.js';
import { jsonResponse, mockFetch, renderApp, sessionFixture, sessionWith, setScreenWidth, settingsFixture } from '../../test/utils.js';
import { taskDetail } from './fixtures.js';

vi.mock('../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));

type Handler = (url: string, init?: RequestInit) => Response | undefined;

const openCase = { id: 3, number: '2026-11-000003', applicant: 'María Pérez', protocolName: 'Rental assistance', state: 'PENDING' };

/** The session, open applications, users, teams and forms; `create` answers POST /api/tasks. */
function serve(create: Handler, session = sessionFixture) {
  return mockFetch((url, init) => {
    if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
    if (url === '/api/auth/session') return jsonResponse(session);
    if (url.startsWith('/api/cases?')) return jsonResponse({ items: [openCase], total: 1 });
    if (url === '/api/cases/3') return jsonResponse(openCase);
    if (url === '/api/cases/4') return jsonResponse({ ...openCase, id: 4, number: '2026-11-000004', state: 'SUCCESS' });
    if (url.startsWith('/api/team-members/user-options')) return jsonResponse([{ id: 7, name: 'Rafael Reviewer', email: 'reviewer@demo.test' }]);
    if (url.startsWith('/api/teams?')) return jsonResponse({ items: [{ id: 2, name: 'Intake', description: '', assignment: 'round_robin', active: true, members: 3, openTasks: 4 }], total: 1 });
    if (url.startsWith('/api/forms?')) return jsonResponse({ items: [{ id: 9, code: 'intake-review', name: 'Intake review' }], total: 1 });
    if (url === '/api/tasks' && init?.method === 'POST') return create(url, init) ?? jsonResponse({ error: { code: 'INTERNAL', message: 'Unexpected' } }, 500);
    if (url === '/api/tasks/77') return jsonResponse(taskDetail({ id: 77, code: 'adhoc', name: 'Call the landlord', next: [], onReject: null, instructions: 'Confirm the rent amount' }));
    return jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);
  });
}

const posted = (fetchMock: ReturnType<typeof serve>) =>
  fetchMock.mock.calls.filter(([url, init]) => url === '/api/tasks' && init?.method === 'POST').map(([, init]) => JSON.parse(String(init?.body)));

async function pickCase(name: RegExp | string) {
  const field = await screen.findByRole('combobox', { name });
  fireEvent.change(field, { target: { value: '000003' } });
  fireEvent.click(await screen.findByRole('option', { name: /2026-11-000003 · María Pérez/ }));
}

describe('/tareas/nuevo', () => {
  test('from an application page (?case=) the open application is chosen; a closed one is not', async () => {
    setScreenWidth(1366);
    serve(() => undefined);
    const { unmount } = renderApp('/tareas/nuevo?case=3');
    await waitFor(() => expect(screen.getByRole('combobox', { name: /Application/ })).toHaveValue('2026-11-000003 · María Pérez'));
    unmount();
    renderApp('/tareas/nuevo?case=4');
    expect(await screen.findByRole('heading', { level: 1, name: 'New ad-hoc task' })).toBeInTheDocument();
    await new Promise((r) => setTimeout(r, 200));
    expect(screen.getByRole('combobox', { name: /Application/ })).toHaveValue('');
  });

  test('says under each field what is missing or wrong, and sends nothing', async () => {
    setScreenWidth(1366);
    const fetchMock = serve(() => undefined);
    renderApp('/tareas/nuevo');
    expect(await screen.findByRole('heading', { level: 1, name: 'New ad-hoc task' })).toBeInTheDocument();
    fireEvent.change(screen.getByRole('spinbutton', { name: 'Expiration days' }), { target: { value: '1.5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create task' }));
    await waitFor(() => expect(screen.getByRole('combobox', { name: /Application/ })).toHaveAccessibleDescription('You must choose an option'));
    expect(screen.getByRole('textbox', { name: /Task name/ })).toHaveAccessibleDescription('This field is required');
    expect(screen.getByRole('combobox', { name: /User/ })).toHaveAccessibleDescription('You must choose an option');
    expect(screen.getByRole('spinbutton', { name: 'Expiration days' })).toHaveAccessibleDescription('Enter a whole number of days from 0 to 3650');
    // The first field with a message takes the focus.
    expect(screen.getByRole('combobox', { name: /Application/ })).toHaveFocus();
    expect(posted(fetchMock)).toEqual([]);
    // Fixing a field clears its message as the user types.
    fireEvent.change(screen.getByRole('textbox', { name: /Task name/ }), { target: { value: 'Call' } });
    await waitFor(() => expect(screen.getByRole('textbox', { name: /Task name/ })).not.toHaveAccessibleDescription());
    fireEvent.change(screen.getByRole('spinbutton', { name: 'Expiration days' }), { target: { value: '3' } });
    await waitFor(() => expect(screen.getByRole('spinbutton', { name: 'Expiration days' })).toHaveAccessibleDescription(/^Due on .+ if assigned today$/));
  });

  test('sends exactly the fields of the API and opens the new task', async () => {
    setScreenWidth(1366);
    const fetchMock = serve(() => jsonResponse({ id: 77 }, 201));
    const { router } = renderApp('/tareas/nuevo');
    await pickCase(/Application/);
    // Only open applications, searched by what was typed.
    await waitFor(() =>
      expect(fetchMock.mock.calls.map(([url]) => String(url)).some((url) => url.startsWith('/api/cases?') && url.includes('state=PENDING') && url.includes('search=000003'))).toBe(true),
    );
    fireEvent.change(screen.getByRole('textbox', { name: /Task name/ }), { target: { value: '  Call the landlord ' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Instructions' }), { target: { value: 'Confirm the rent amount' } });
    fireEvent.change(screen.getByRole('combobox', { name: /User/ }), { target: { value: 'rafa' } });
    fireEvent.click(await screen.findByRole('option', { name: 'Rafael Reviewer (reviewer@demo.test)' }));
    fireEvent.change(screen.getByRole('spinbutton', { name: 'Expiration days' }), { target: { value: '3' } });
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Form' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Intake review' }));
    fireEvent.click(screen.getByRole('button', { name: 'Create task' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/tasks/77'));
    expect(posted(fetchMock)).toEqual([{ caseId: 3, name: 'Call the landlord', userId: 7, expirationDays: 3, formId: 9, instructions: 'Confirm the rent amount' }]);
    expect(await screen.findByText('Task Call the landlord created')).toBeInTheDocument();
    // The task page tells an ad-hoc task for what it is.
    expect(await screen.findByRole('heading', { level: 1, name: 'Call the landlord' })).toBeInTheDocument();
    expect(screen.getByText('Instructions:')).toBeInTheDocument();
    expect(screen.getByText('An ad-hoc task, outside the protocol: accepting or rejecting it moves nothing else.')).toBeInTheDocument();
    expect(screen.queryByText('Returned with this reason:')).not.toBeInTheDocument();
  });

  test('in Spanish: a team as responsible, and the server refusing a closed application under its field', async () => {
    setScreenWidth(1366);
    await i18n.changeLanguage('es');
    const fetchMock = serve(() => jsonResponse({ error: { code: 'CASE_NOT_OPEN', message: 'La radicación de esta tarea no está abierta.' } }, 409));
    const { router } = renderApp('/tareas/nuevo');
    expect(await screen.findByRole('heading', { level: 1, name: 'Nueva tarea ad hoc' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('radio', { name: 'Un equipo' }));
    fireEvent.click(screen.getByRole('button', { name: 'Crear tarea' }));
    await waitFor(() => expect(screen.getByRole('combobox', { name: /Equipo/ })).toHaveAccessibleDescription('Debe elegir una opción'));
    expect(screen.getByRole('textbox', { name: /Nombre de la tarea/ })).toHaveAccessibleDescription('Este campo es obligatorio');
    expect(screen.queryByRole('combobox', { name: /Usuario/ })).not.toBeInTheDocument();
    await pickCase(/Radicación/);
    fireEvent.change(screen.getByRole('textbox', { name: /Nombre de la tarea/ }), { target: { value: 'Revisar el contrato' } });
    fireEvent.mouseDown(screen.getByRole('combobox', { name: /Equipo/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'Intake' }));
    fireEvent.click(screen.getByRole('button', { name: 'Crear tarea' }));
    await waitFor(() => expect(screen.getByRole('combobox', { name: /Radicación/ })).toHaveAccessibleDescription('La radicación de esta tarea no está abierta.'));
    expect(posted(fetchMock)).toEqual([{ caseId: 3, name: 'Revisar el contrato', teamId: 2, expirationDays: null, formId: null, instructions: null }]);
    expect(router.state.location.pathname).toBe('/tareas/nuevo');
  });

  test('someone who may see tasks but not create them is sent home with the permission message', async () => {
    setScreenWidth(1366);
    const fetchMock = serve(() => undefined, sessionWith(['wf_tareas'], { rules: { wf_tareas: ['show', 'accept'] } }));
    const { router } = renderApp('/tareas/nuevo');
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
    expect(await screen.findByText('The user does not have permission to the page')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => String(url).startsWith('/api/cases?'))).toBe(false);
  });
});
