// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import { setLanguage } from '../../i18n/index.js';
import { jsonResponse, mockFetch, renderApp, sessionFixture, sessionWith, settingsFixture } from '../../test/utils.js';

vi.mock('../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));

// What the server sends an administrator of the catalogue: a system row keeps its code and stays.
const actions = {
  items: [
    { id: 1, code: 'accept', name: 'Accept', description: '', system: true, createdAt: '2026-01-01T00:00:00Z', actions: ['edit'] },
    { id: 20, code: 'archive', name: 'Archive', description: 'Move to the archive', system: false, createdAt: '2026-02-01T00:00:00Z', actions: ['edit', 'changeCode', 'delete'] },
  ],
  total: 2,
};
const withoutActions = { ...actions, items: actions.items.map((item) => ({ ...item, actions: [] })) };

function serve(session = sessionFixture, list = actions) {
  return mockFetch((url, init) => {
    if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
    if (url === '/api/auth/session') return jsonResponse(session);
    if (url.startsWith('/api/acl/actions?')) return jsonResponse(list);
    if (url === '/api/acl/actions' && init?.method === 'POST') {
      return jsonResponse({ error: { code: 'DUPLICATE', message: 'A record with this code already exists.' } }, 409);
    }
    if (url === '/api/acl/actions/20' && init?.method === 'DELETE') return new Response(null, { status: 204 });
    return jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);
  });
}

describe('a catalogue screen (actions)', () => {
  test('system rows are marked and have no delete; the confirmation names the record', async () => {
    const fetchMock = serve();
    renderApp('/main/acl_acciones/');
    const table = await screen.findByRole('table', { name: 'Actions' });
    await within(table).findByText('Archive');
    const [systemRow, ownRow] = within(table).getAllByRole('row').slice(1) as [HTMLElement, HTMLElement];
    expect(within(systemRow).getByText('System')).toBeInTheDocument();
    expect(within(systemRow).getByRole('button', { name: 'Edit: Accept' })).toBeEnabled();
    expect(within(systemRow).queryByRole('button', { name: /^Delete/ })).not.toBeInTheDocument();
    expect(within(ownRow).queryByText('System')).not.toBeInTheDocument();

    fireEvent.click(within(ownRow).getByRole('button', { name: 'Delete: Archive' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete the action?' });
    expect(dialog).toHaveTextContent('“Archive” (archive)');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledWith('/api/acl/actions/20', expect.objectContaining({ method: 'DELETE' })));
    expect(await screen.findByText('Successful operation')).toBeInTheDocument();
  });

  test('seeded names show in Spanish', async () => {
    await setLanguage('es');
    serve();
    renderApp('/main/acl_acciones/');
    const table = await screen.findByRole('table', { name: 'Acciones' });
    expect(await within(table).findByText('Aceptar')).toBeInTheDocument();
    expect(within(table).getByText('Sistema')).toBeInTheDocument();
    // A name an administrator wrote stays as written.
    expect(within(table).getByText('Archive')).toBeInTheDocument();
  });

  test('create: a wrong code is refused before the server, a duplicate code by the server, under the field', async () => {
    serve();
    renderApp('/main/acl_acciones/');
    fireEvent.click(await screen.findByRole('button', { name: 'New action' }));
    const dialog = await screen.findByRole('dialog', { name: 'New action' });
    fireEvent.change(within(dialog).getByLabelText(/Code/), { target: { value: '9 bad' } });
    fireEvent.change(within(dialog).getByLabelText(/Name/), { target: { value: 'Archive' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    // The rule is the field's hint already; refused, the field turns invalid and the hint becomes its error.
    await waitFor(() => expect(within(dialog).getByLabelText(/Code/)).toHaveAttribute('aria-invalid', 'true'));
    expect(within(dialog).getByText('Use letters, numbers, _ and -, starting with a letter')).toHaveClass('Mui-error');

    fireEvent.change(within(dialog).getByLabelText(/Code/), { target: { value: 'archive' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('A record with this code already exists.')).toBeInTheDocument();
  });

  test("each row's buttons are the actions the server sent with it, whatever the session's rules", async () => {
    // The session may do everything; the first row comes without actions, the second with edit and delete.
    serve(sessionFixture, { ...actions, items: [withoutActions.items[0]!, actions.items[1]!] });
    renderApp('/main/acl_acciones/');
    const table = await screen.findByRole('table', { name: 'Actions' });
    await within(table).findByText('Archive');
    const [none, own] = within(table).getAllByRole('row').slice(1) as [HTMLElement, HTMLElement];
    expect(within(table).getByRole('columnheader', { name: 'Actions' })).toBeInTheDocument();
    expect(within(none).queryAllByRole('button')).toHaveLength(0);
    expect(within(own).getByRole('button', { name: 'Edit: Archive' })).toBeEnabled();
    expect(within(own).getByRole('button', { name: 'Delete: Archive' })).toBeEnabled();
  });

  test('the code can be changed only with the changeCode action', async () => {
    serve();
    renderApp('/main/acl_acciones/');
    const table = await screen.findByRole('table', { name: 'Actions' });
    fireEvent.click(await within(table).findByRole('button', { name: 'Edit: Accept' }));
    const system = await screen.findByRole('dialog', { name: 'Edit action' });
    expect(within(system).getByLabelText(/Code/)).toBeDisabled();
    expect(within(system).getByText('The code of a system record cannot change.')).toBeInTheDocument();
    fireEvent.click(within(system).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    fireEvent.click(within(table).getByRole('button', { name: 'Edit: Archive' }));
    const own = await screen.findByRole('dialog', { name: 'Edit action' });
    expect(within(own).getByLabelText(/Code/)).toBeEnabled();
  });

  test('show only: no create, and rows without actions have no buttons and no actions column', async () => {
    serve({ ...sessionWith(['acl_acciones']), rules: { acl_acciones: ['show'] } }, withoutActions);
    renderApp('/main/acl_acciones/');
    const table = await screen.findByRole('table', { name: 'Actions' });
    await within(table).findByText('Archive');
    expect(screen.queryByRole('button', { name: 'New action' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Edit/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Delete/ })).not.toBeInTheDocument();
    expect(within(table).queryByRole('columnheader', { name: 'Actions' })).not.toBeInTheDocument();
  });
});
