// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import { jsonResponse, mockFetch, renderApp, sessionFixture, setScreenWidth, settingsFixture } from '../../test/utils.js';
import { BulkResultDialog } from './BulkResultDialog.js';
import { taskItem } from './fixtures.js';

vi.mock('../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));

const tasks = [
  taskItem({ id: 11, name: 'Notify applicant and landlord', state: 'ACCEPTED', caseNumber: '2026-11-000007' }),
  taskItem({ id: 12, name: 'Payment approval', state: 'ACCEPTED', caseNumber: '2026-11-000007' }),
  taskItem({ id: 13, name: 'Notify applicant and landlord', state: 'ACCEPTED', caseNumber: '2026-11-000008' }),
];

function serve() {
  return mockFetch((url, init) => {
    if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
    if (url === '/api/auth/session') return jsonResponse(sessionFixture);
    if (url.startsWith('/api/tasks?')) return jsonResponse({ items: tasks, total: tasks.length });
    if (url.startsWith('/api/protocols?')) return jsonResponse({ items: [{ id: 1, name: 'Rental assistance' }], total: 1 });
    if (url.startsWith('/api/teams?')) return jsonResponse({ items: [], total: 0 });
    if (url === '/api/tasks/bulk/restart' && init?.method === 'POST') {
      return jsonResponse({ done: [11, 12], failed: [{ id: 13, message: 'The application of this task is not open.' }] });
    }
    return jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);
  });
}

describe('/admin-tasks', () => {
  test('restarts the selected tasks after a confirmation and reports each one that did not move', async () => {
    setScreenWidth(1366);
    const fetchMock = serve();
    renderApp('/admin-tasks');
    const table = await screen.findByRole('table', { name: 'Task administration' });
    const restart = screen.getByRole('button', { name: 'Restart' });
    expect(restart).toBeDisabled();
    fireEvent.click(await within(table).findByRole('checkbox', { name: 'Select Notify applicant and landlord of 2026-11-000007' }));
    fireEvent.click(within(table).getByRole('checkbox', { name: 'Select Payment approval of 2026-11-000007' }));
    fireEvent.click(within(table).getByRole('checkbox', { name: 'Select Notify applicant and landlord of 2026-11-000008' }));
    expect(screen.getByText('Selected: 3')).toBeInTheDocument();
    fireEvent.click(restart);
    const confirm = await screen.findByRole('dialog', { name: 'Restart tasks' });
    expect(within(confirm).getByText(/the 3 selected task/)).toBeInTheDocument();
    fireEvent.click(within(confirm).getByRole('button', { name: 'Restart' }));
    const report = await screen.findByRole('dialog', { name: 'Restart tasks' });
    await waitFor(() => expect(within(report).getByText('Done for 2 task(s).')).toBeInTheDocument());
    expect(within(report).getByText('Not done for 1 task(s):')).toBeInTheDocument();
    const failures = within(report).getByRole('list', { name: 'Tasks that did not move' });
    expect(within(failures).getByText('Notify applicant and landlord · 2026-11-000008')).toBeInTheDocument();
    expect(within(failures).getByText('The application of this task is not open.')).toBeInTheDocument();
    const call = fetchMock.mock.calls.find(([url]) => url === '/api/tasks/bulk/restart');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ ids: [11, 12, 13] });
    fireEvent.click(within(report).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.getByText('Selected: 0')).toBeInTheDocument());
  });

  test('"Select this page" selects and clears every row shown', async () => {
    setScreenWidth(1366);
    serve();
    renderApp('/admin-tasks');
    const table = await screen.findByRole('table', { name: 'Task administration' });
    await within(table).findByRole('checkbox', { name: 'Select Payment approval of 2026-11-000007' });
    const page = screen.getByRole('checkbox', { name: 'Select this page' });
    fireEvent.click(page);
    expect(screen.getByText('Selected: 3')).toBeInTheDocument();
    fireEvent.click(page);
    expect(screen.getByText('Selected: 0')).toBeInTheDocument();
  });
});

describe('BulkResultDialog', () => {
  test('with no failure it only says how many moved', async () => {
    const { render } = await import('@testing-library/react');
    render(<BulkResultDialog title="Reassign tasks" result={{ done: [1, 2], failed: [] }} describe={(id) => `#${id}`} onClose={() => {}} />);
    expect(screen.getByText('Done for 2 task(s).')).toBeInTheDocument();
    expect(screen.queryByRole('list')).not.toBeInTheDocument();
  });
});
