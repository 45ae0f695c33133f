// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import { jsonResponse, mockFetch, renderApp, sessionFixture, setScreenWidth, settingsFixture } from '../../test/utils.js';
import { pendingItem } from './fixtures.js';

vi.mock('../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));

const rows = [
  pendingItem(),
  pendingItem({ id: 6, name: 'Intake review', caseNumber: '2026-11-000004', possibleDuplicated: false, requireIncome: true, section8: false, thirdParty: true, actions: [], overdue: true, dueAt: '2026-11-19T07:31:20.000Z' }),
];

function serve(accept: () => Response = () => jsonResponse({ ok: true, created: [] })) {
  return mockFetch((url, init) => {
    if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
    if (url === '/api/auth/session') return jsonResponse(sessionFixture);
    if (url.startsWith('/api/tasks/pending?')) return jsonResponse({ items: rows, total: rows.length });
    if (url === '/api/tasks/5/accept' && init?.method === 'POST') return accept();
    return jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);
  });
}

describe('/pendings', () => {
  test("has exactly the spec's columns, the flags in words, and an accept quick-link only where the server allows it", async () => {
    setScreenWidth(1366);
    serve();
    renderApp('/pendings');
    const table = await screen.findByRole('table', { name: 'My pending tasks' });
    await within(table).findByText('2026-11-000004');
    const headers = within(table).getAllByRole('columnheader').map((th) => th.textContent?.replace(/sorted (ascending|descending)$/, ''));
    expect(headers).toEqual([
      'Application number',
      'Task',
      'Responsible',
      'Expiration date',
      'Possible duplicated',
      'Require income',
      'Section 8 assistance',
      'Third party',
      'Actions',
    ]);
    const [first, second] = within(table).getAllByRole('row').slice(1) as [HTMLElement, HTMLElement];
    expect(within(first).getAllByRole('cell').map((td) => td.textContent).slice(0, 8)).toEqual([
      '2026-11-000003',
      'Document verification',
      'Rafael ReviewerTeam Document review',
      '11/24/2026',
      'Yes',
      'No',
      'Yes',
      'No',
    ]);
    expect(within(second).getByText('(overdue)')).toBeInTheDocument();
    expect(within(first).getByRole('link', { name: 'Open: Document verification 2026-11-000003' })).toHaveAttribute('href', '/tasks/5');
    expect(within(first).getByRole('link', { name: 'Tasks of application 2026-11-000003' })).toHaveAttribute('href', '/tasks/case/3');
    expect(within(first).getByRole('button', { name: 'Accept: Document verification 2026-11-000003' })).toBeInTheDocument();
    expect(within(second).queryByRole('button', { name: /^Accept/ })).not.toBeInTheDocument();
  });

  test('the quick accept asks first; a form that is not complete sends the user to the task page', async () => {
    setScreenWidth(1366);
    const fetchMock = serve(() => jsonResponse({ error: { code: 'VALIDATION', message: 'Some values are not valid', details: [{ path: 'complete', message: 'You must choose an option' }] } }, 400));
    const { router } = renderApp('/pendings');
    fireEvent.click(await screen.findByRole('button', { name: 'Accept: Document verification 2026-11-000003' }));
    const confirm = await screen.findByRole('dialog', { name: 'Accept the task?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Accept' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/tasks/5'));
    expect(fetchMock).toHaveBeenCalledWith('/api/tasks/5/accept', expect.objectContaining({ method: 'POST' }));
    expect(await screen.findByText('The task form is not complete: fill it in here first.')).toBeInTheDocument();
  });

  test('on a phone the rows are cards with the same labels', async () => {
    setScreenWidth(390);
    serve();
    renderApp('/pendings');
    const list = await screen.findByRole('list', { name: 'My pending tasks' });
    await within(list).findByText('2026-11-000004');
    const card = within(list).getAllByRole('listitem')[0] as HTMLElement;
    for (const label of ['Application number', 'Task', 'Expiration date', 'Possible duplicated', 'Require income', 'Section 8 assistance', 'Third party']) {
      expect(within(card).getByText(label)).toBeInTheDocument();
    }
  });
  test("due dates are days of the user's time zone, not the browser's", async () => {
    setScreenWidth(1366);
    // A business-day due date: 17:00 in New York on Friday 27 November 2026 is already Saturday in Tokyo.
    const due = [pendingItem({ dueAt: '2026-11-27T22:00:00.000Z', overdue: false })];
    const dateIn = async (timeZone: string) => {
      mockFetch((url) => {
        if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
        if (url === '/api/auth/session') return jsonResponse({ ...sessionFixture, user: { ...sessionFixture.user, timeZone } });
        if (url.startsWith('/api/tasks/pending?')) return jsonResponse({ items: due, total: 1 });
        return jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);
      });
      const { unmount } = renderApp('/pendings');
      const table = await screen.findByRole('table', { name: 'My pending tasks' });
      const row = (await within(table).findByText('2026-11-000003')).closest('tr') as HTMLElement;
      const text = within(row).getAllByRole('cell')[3]?.textContent;
      unmount();
      return text;
    };
    expect(await dateIn('America/Bogota')).toBe('11/27/2026');
    expect(await dateIn('Asia/Tokyo')).toBe('11/28/2026');
  });
});
