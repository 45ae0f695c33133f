// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import { jsonResponse, mockFetch, renderApp, sessionFixture, setScreenWidth, settingsFixture } from '../../test/utils.js';
import { taskItem } from './fixtures.js';

vi.mock('../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));

const items = [taskItem({ id: 41, code: 'intake', name: 'Intake', state: 'ACCEPTED', responsibleId: 12, responsibleName: 'Beto Reviewer' })];

function serve() {
  return mockFetch((url) => {
    if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
    if (url === '/api/auth/session') return jsonResponse(sessionFixture);
    if (url.startsWith('/api/tasks?')) return jsonResponse({ items, total: 1 });
    if (url.startsWith('/api/protocols?')) return jsonResponse({ items: [{ id: 1, name: 'Rental assistance' }], total: 1 });
    if (url.startsWith('/api/teams?')) return jsonResponse({ items: [{ id: 3, name: 'Document review', active: true }], total: 1 });
    return jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);
  });
}

const listCalls = (fetchMock: ReturnType<typeof serve>) =>
  fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.startsWith('/api/tasks?')).map((url) => new URLSearchParams(url.split('?')[1]));

describe('/tasks opened from a report', () => {
  test('reads the drill-down from its address into its filters and its request, and names what the bar cannot show', async () => {
    setScreenWidth(1366);
    const fetchMock = serve();
    const { router } = renderApp('/tasks?protocolId=1&code=intake&state=ACCEPTED&teamId=3&handledBy=12&from=2026-03-01&to=2026-03-31&overdue=false');
    await screen.findByRole('link', { name: 'Intake' });
    const first = listCalls(fetchMock)[0];
    expect(first?.getAll('state')).toEqual(['ACCEPTED']);
    for (const [name, value] of Object.entries({ protocolId: '1', code: 'intake', teamId: '3', handledBy: '12', from: '2026-03-01', to: '2026-03-31', overdue: 'false' })) {
      expect(first?.get(name), name).toBe(value);
    }
    // The bar shows the filters it has...
    expect(screen.getByRole('combobox', { name: 'State' })).toHaveTextContent('Accepted');
    expect(await screen.findByRole('combobox', { name: 'Protocol' })).toHaveTextContent('Rental assistance');
    expect(await screen.findByRole('combobox', { name: 'Team' })).toHaveTextContent('Document review');
    // ...and the others are named, each removable.
    expect(screen.getByText('From a report:')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Remove the condition “Task: Intake”' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Remove the condition “Decided or held by Beto Reviewer”' })).toBeInTheDocument();
    const period = screen.getByRole('button', { name: 'Remove the condition “Created 03/01/2026 to 03/31/2026”' });
    fireEvent.keyUp(period, { key: 'Backspace' });
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).has('from')).toBe(false));
    expect(new URLSearchParams(router.state.location.search).has('to')).toBe(false);
    await waitFor(() => expect(listCalls(fetchMock).at(-1)?.has('from')).toBe(false));
    expect(listCalls(fetchMock).at(-1)?.get('code')).toBe('intake');

    // A filter of the bar changes the address too.
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Overdue' }));
    fireEvent.click(await screen.findByRole('option', { name: /^Overdue only/ }));
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('overdue')).toBe('true'));
    await waitFor(() => expect(listCalls(fetchMock).at(-1)?.get('overdue')).toBe('true'));
    expect(within(screen.getByRole('table', { name: 'Tasks' })).getByRole('link', { name: 'Intake' })).toBeInTheDocument();
  });
});
