// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import { jsonResponse, mockFetch, renderApp, sessionFixture, setScreenWidth, settingsFixture } from '../../test/utils.js';
import type { TeamItem, TeamMemberItem } from './api.js';

vi.mock('../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));

const teams: TeamItem[] = [
  { id: 1, name: 'Intake', description: 'First look at every application', assignment: 'round_robin', active: true, members: 3, openTasks: 4 },
  { id: 4, name: 'Supervisors', description: '', assignment: 'least_loaded', active: false, members: 0, openTasks: 0 },
];
const members: TeamMemberItem[] = [{ id: 7, teamId: 1, teamName: 'Intake', userId: 3, userName: 'Rafael Reviewer', userEmail: 'reviewer@demo.test', role: 'member', active: true }];

function serve() {
  return mockFetch((url, init) => {
    if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
    if (url === '/api/auth/session') return jsonResponse(sessionFixture);
    if (url.startsWith('/api/teams?')) return jsonResponse({ items: teams, total: teams.length });
    if (url === '/api/teams' && init?.method === 'POST') return jsonResponse({ ...teams[0], id: 9, ...JSON.parse(String(init.body)) }, 201);
    if (url === '/api/teams/1' && init?.method === 'DELETE') return jsonResponse({ error: { code: 'IN_USE', message: 'This record is in use and cannot be deleted.' } }, 409);
    if (url.startsWith('/api/team-members?')) return jsonResponse({ items: members, total: members.length });
    if (url.startsWith('/api/team-members/user-options')) return jsonResponse([{ id: 5, name: 'Ivan Intake', email: 'intake@demo.test' }]);
    if (url === '/api/team-members' && init?.method === 'POST') return jsonResponse({ ...members[0], id: 8 }, 201);
    return jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);
  });
}

describe('/equipos', () => {
  test('lists teams with their strategy, members and open tasks; a new team goes to the server', async () => {
    setScreenWidth(1366);
    const fetchMock = serve();
    renderApp('/equipos');
    const table = await screen.findByRole('table', { name: 'Teams' });
    const intake = (await within(table).findByText('Intake')).closest('tr') as HTMLElement;
    expect(within(intake).getByText('Round-robin')).toBeInTheDocument();
    expect(within(intake).getAllByRole('cell').map((c) => c.textContent)).toContain('4');
    expect(within(table).getByText('Inactive')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'New team' }));
    const dialog = await screen.findByRole('dialog', { name: 'New team' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('This field is required')).toBeInTheDocument();
    fireEvent.change(within(dialog).getByRole('textbox', { name: /^Name/ }), { target: { value: 'Appeals' } });
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: /Assignment/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'Least loaded' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const call = fetchMock.mock.calls.find(([url, init]) => url === '/api/teams' && init?.method === 'POST');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ name: 'Appeals', description: '', assignment: 'least_loaded', active: true });
  });

  test('delete asks first, and a team still in use says why it stays', async () => {
    setScreenWidth(1366);
    serve();
    renderApp('/equipos');
    fireEvent.click(await screen.findByRole('button', { name: 'Delete: Intake' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete team' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('This record is in use and cannot be deleted.')).toBeInTheDocument();
  });
});

describe('/integrantes-equipos', () => {
  test('adds a member: team, user picked by search, role and active', async () => {
    setScreenWidth(1366);
    const fetchMock = serve();
    renderApp('/integrantes-equipos?team=1');
    await screen.findByText('reviewer@demo.test');
    expect(fetchMock.mock.calls.some(([url]) => String(url).startsWith('/api/team-members?') && String(url).includes('teamId=1'))).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Add member' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add member' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('You must choose an option')).toBeInTheDocument();
    const user = within(dialog).getByRole('combobox', { name: /User/ });
    fireEvent.change(user, { target: { value: 'ivan' } });
    fireEvent.click(await screen.findByRole('option', { name: 'Ivan Intake (intake@demo.test)' }));
    fireEvent.click(within(dialog).getByRole('radio', { name: 'Leader' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const call = fetchMock.mock.calls.find(([url, init]) => url === '/api/team-members' && init?.method === 'POST');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ teamId: 1, userId: 5, role: 'leader', active: true });
  });
});
