// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import { jsonResponse, mockFetch, renderApp, sessionFixture, setScreenWidth, settingsFixture } from '../../../test/utils.js';
import { caseItem, rentalProtocol } from './fixtures.js';

vi.mock('../../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));

const cases = [
  caseItem({ id: 7, number: '2026-11-000007', applicant: 'Lucía Ortega' }),
  caseItem({ id: 8, number: '2026-11-000008', applicant: 'Mateo Rodríguez', state: 'CLOSED' }),
  caseItem({ id: 9, number: '2026-11-000009', applicant: 'Sofía Gómez' }),
];

function serve() {
  return mockFetch((url, init) => {
    if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
    if (url === '/api/auth/session') return jsonResponse(sessionFixture);
    // Case administration lists through its own path (target admin_cases), not /api/cases (wf_casos).
    if (url.startsWith('/api/admin-cases?')) return jsonResponse({ items: cases, total: cases.length, capped: false });
    if (url.startsWith('/api/admin-cases/count?')) return jsonResponse({ total: cases.length, capped: false });
    if (url === '/api/admin-cases/search-fields') return jsonResponse({ protocols: [rentalProtocol] });
    if (url.startsWith('/api/teams?')) return jsonResponse({ items: [], total: 0 });
    if (url.startsWith('/api/team-members/user-options')) return jsonResponse([{ id: 12, name: 'Rafael Reviewer', email: 'reviewer@demo.test' }]);
    if (url === '/api/admin-cases/close' && init?.method === 'POST') {
      return jsonResponse({ done: [7], failed: [{ id: 8, message: 'This action cannot be done in the state Closed' }] });
    }
    if (url === '/api/admin-cases/reassign' && init?.method === 'POST') return jsonResponse({ done: [7, 9], failed: [] });
    return jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);
  });
}

describe('/admin-cases', () => {
  test('closes the selected cases only after a confirmation that says it cannot be undone, and reports each one', async () => {
    setScreenWidth(1366);
    const fetchMock = serve();
    renderApp('/admin-cases');
    const table = await screen.findByRole('table', { name: 'Application administration' });
    const close = screen.getByRole('button', { name: 'Close applications' });
    expect(close).toBeDisabled();
    expect(fetchMock.mock.calls.some(([url]) => String(url).startsWith('/api/cases?'))).toBe(false);
    fireEvent.click(await within(table).findByRole('checkbox', { name: 'Select application 2026-11-000007' }));
    fireEvent.click(within(table).getByRole('checkbox', { name: 'Select application 2026-11-000008' }));
    expect(screen.getByText('Selected: 2')).toBeInTheDocument();

    // Cancel first: nothing is sent.
    fireEvent.click(close);
    let confirm = await screen.findByRole('dialog', { name: 'Close applications' });
    expect(within(confirm).getByText('Close the 2 selected application(s)? Their open tasks are closed too.')).toBeInTheDocument();
    expect(within(confirm).getByText("Once done it can't be changed: this cannot be undone.")).toBeInTheDocument();
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/admin-cases/close')).toBe(false);

    fireEvent.click(close);
    confirm = await screen.findByRole('dialog', { name: 'Close applications' });
    fireEvent.change(within(confirm).getByRole('textbox', { name: 'Reason (optional)' }), { target: { value: 'Programme ended' } });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Close applications' }));
    const report = (await screen.findByText('Done: 1')).closest<HTMLElement>('[role="dialog"]') as HTMLElement;
    expect(report).toHaveAccessibleName('Close applications');
    expect(within(report).getByText('Not done: 1')).toBeInTheDocument();
    const results = within(report).getByRole('list', { name: 'Result for each application' });
    expect(within(results).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      '2026-11-000008 · Mateo RodríguezThis action cannot be done in the state Closed',
      '2026-11-000007 · Lucía OrtegaDone',
    ]);
    const call = fetchMock.mock.calls.find(([url]) => url === '/api/admin-cases/close');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ ids: [7, 8], reason: 'Programme ended' });
    fireEvent.click(within(report).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.getByText('Selected: 0')).toBeInTheDocument());
  });

  test('reassigns the selected page to a user picked by name', async () => {
    setScreenWidth(1366);
    const fetchMock = serve();
    renderApp('/admin-cases');
    await screen.findByRole('table', { name: 'Application administration' });
    await screen.findByRole('checkbox', { name: 'Select application 2026-11-000009' });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select this page' }));
    fireEvent.click(within(screen.getByRole('table')).getByRole('checkbox', { name: 'Select application 2026-11-000008' }));
    expect(screen.getByText('Selected: 2')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Reassign' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reassign applications' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reassign' }));
    expect(await within(dialog).findByText('You must choose an option')).toBeInTheDocument();
    const picker = within(dialog).getByRole('combobox', { name: /New owner/ });
    picker.focus();
    fireEvent.change(picker, { target: { value: 'Rafa' } });
    fireEvent.click(await screen.findByRole('option', { name: 'Rafael Reviewer (reviewer@demo.test)' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reassign' }));
    const report = (await screen.findByText('Done: 2')).closest<HTMLElement>('[role="dialog"]') as HTMLElement;
    expect(report).toHaveAccessibleName('Reassign applications');
    const call = fetchMock.mock.calls.find(([url]) => url === '/api/admin-cases/reassign');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ ids: [7, 9], userId: 12 });
  });
});
