// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import { setLanguage } from '../../i18n/index.js';
import { jsonResponse, mockFetch, renderApp, sessionFixture, sessionWith, settingsFixture } from '../../test/utils.js';

vi.mock('../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));

const actions = {
  items: [
    { id: 1, code: 'accept', name: 'Accept', description: '', system: true, createdAt: '2026-01-01T00:00:00Z' },
    { id: 20, code: 'archive', name: 'Archive', description: 'Move to the archive', system: false, createdAt: '2026-02-01T00:00:00Z' },
  ],
  total: 2,
};

function serve(session = sessionFixture) {
  return mockFetch((url, init) => {
    if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
    if (url === '/api/auth/session') return jsonResponse(session);
    if (url.startsWith('/api/acl/actions?')) return jsonResponse(actions);
    if (url === '/api/acl/actions' && init?.method === 'POST') {
      return jsonResponse({ error: { code: 'DUPLICATE', message: 'A record with this code already exists.' } }, 409);
    }
    if (url === '/api/acl/actions/20' && init?.method === 'DELETE') return new Response(null, { status: 204 });
    return jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);
  });
}

describe('a catalogue screen (actions)', () => {
  test('system rows are marked, translated and cannot be deleted; the confirmation names the record', async () => {
    const fetchMock = serve();
    renderApp('/main/acl_acciones/');
    const table = await screen.findByRole('table', { name: 'Actions' });
    await within(table).findByText('Archive');
    const [systemRow, ownRow] = within(table).getAllByRole('row').slice(1) as [HTMLElement, HTMLElement];
    expect(within(systemRow).getByText('System')).toBeInTheDocument();
    expect(within(systemRow).getByRole('button', { name: 'Delete: Accept' })).toBeDisabled();
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

  test('buttons follow the rules: show only, no create, edit or delete', async () => {
    serve({ ...sessionWith(['acl_acciones']), rules: { acl_acciones: ['show'] } });
    renderApp('/main/acl_acciones/');
    await screen.findByRole('table', { name: 'Actions' });
    expect(screen.queryByRole('button', { name: 'New action' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Edit/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Delete/ })).not.toBeInTheDocument();
  });
});
