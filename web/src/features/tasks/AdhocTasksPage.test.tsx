// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import i18n from '../../i18n/index.js';
import { jsonResponse, mockFetch, renderApp, sessionFixture, sessionWith, setScreenWidth, settingsFixture } from '../../test/utils.js';
import { taskItem } from './fixtures.js';
import type { TaskItem } from './api.js';

vi.mock('../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));

const adhoc = [
  taskItem({ id: 41, code: 'adhoc', name: 'Call the landlord', caseNumber: '2026-11-000004', responsibleName: 'Rafael Reviewer', teamId: null, teamName: null }),
  taskItem({ id: 42, code: 'adhoc', name: 'Check the lease', state: 'UNASSIGNED', caseNumber: '2026-11-000005', responsibleId: null, responsibleName: null, teamName: 'Intake' }),
];

function serve(session = sessionFixture, items: TaskItem[] = adhoc) {
  return mockFetch((url) => {
    if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
    if (url === '/api/auth/session') return jsonResponse(session);
    if (url.startsWith('/api/tasks?')) return jsonResponse({ items, total: 31 });
    if (url.startsWith('/api/protocols?')) return jsonResponse({ items: [{ id: 1, name: 'Rental assistance' }], total: 1 });
    if (url.startsWith('/api/teams?')) return jsonResponse({ items: [], total: 0 });
    return jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);
  });
}

const listCalls = (fetchMock: ReturnType<typeof serve>) =>
  fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.startsWith('/api/tasks?')).map((url) => new URLSearchParams(url.split('?')[1]));

describe('/tareas', () => {
  test('lists only the ad-hoc tasks, with links to each task and its case, and a "New task" button', async () => {
    setScreenWidth(1366);
    const fetchMock = serve();
    renderApp('/tareas');
    expect(await screen.findByRole('heading', { level: 1, name: 'Ad-hoc tasks' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Ad-hoc tasks' });
    expect(await within(table).findByRole('link', { name: 'Call the landlord' })).toHaveAttribute('href', '/tasks/41');
    expect(within(table).getByRole('link', { name: 'Tasks of application 2026-11-000005' })).toHaveAttribute('href', '/tasks/case/3');
    // Nobody holds the team's task yet: its state and its responsible say so, with the team under it.
    const unassigned = within(table).getByRole('link', { name: 'Check the lease' }).closest('tr') as HTMLElement;
    expect(within(unassigned).getAllByText('Unassigned')).toHaveLength(2);
    expect(within(unassigned).getByText('Team Intake')).toBeInTheDocument();
    expect(screen.getByText(/1–10 of 31/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'New task' })).toHaveAttribute('href', '/tareas/nuevo');
    const first = listCalls(fetchMock)[0];
    expect(first.get('adhoc')).toBe('true');
    expect(first.get('sortBy')).toBe('created_at');
  });

  test('the filters and paging of /tasks keep the ad-hoc filter', async () => {
    setScreenWidth(1366);
    const fetchMock = serve();
    renderApp('/tareas');
    await screen.findByRole('link', { name: 'Call the landlord' });
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'State' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Pending' }));
    await waitFor(() => expect(listCalls(fetchMock).some((q) => q.get('state') === 'PENDING')).toBe(true));
    expect(listCalls(fetchMock).find((q) => q.get('state') === 'PENDING')?.get('adhoc')).toBe('true');
    fireEvent.keyDown(screen.getByRole('listbox'), { key: 'Escape' });
    fireEvent.click(screen.getByRole('button', { name: /next page/i }));
    await waitFor(() => expect(listCalls(fetchMock).some((q) => q.get('page') === '2')).toBe(true));
    const second = listCalls(fetchMock).find((q) => q.get('page') === '2');
    expect([second?.get('adhoc'), second?.get('state')]).toEqual(['true', 'PENDING']);
  });

  test('says when there is none yet, in Spanish, and hides "New task" from someone who may not create tasks', async () => {
    setScreenWidth(1366);
    await i18n.changeLanguage('es');
    serve(sessionWith(['wf_tareas'], { rules: { wf_tareas: ['show'] } }), []);
    renderApp('/tareas');
    expect(await screen.findByRole('heading', { level: 1, name: 'Tareas ad hoc' })).toBeInTheDocument();
    expect(await screen.findByText('Aún no hay tareas ad hoc')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Nueva tarea' })).not.toBeInTheDocument();
  });
});
