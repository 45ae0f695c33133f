// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import { jsonResponse, mockFetch, renderApp, sessionFixture, settingsFixture } from '../../test/utils.js';
import type { UserItem } from './api.js';

vi.mock('../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));

const user = (over: Partial<UserItem>): UserItem => ({
  id: 10,
  email: 'ana@demo.test',
  name: 'Ana Applicant',
  docnumber: null,
  roleId: 4,
  roleName: 'Applicant',
  active: true,
  locked: false,
  lockedAt: null,
  failedLogins: 0,
  language: 'en',
  timeZone: 'America/Bogota',
  createdAt: '2026-01-01T00:00:00Z',
  actions: ['edit', 'changeRole', 'deactivate', 'delete', 'resetLink', 'unlock'],
  ...over,
});
const users = [user({}), user({ id: 11, email: 'lou@demo.test', name: 'Lou Locked', locked: true, lockedAt: '2026-02-01T10:00:00Z', failedLogins: 5 })];

function serve(blocked = users.filter((u) => u.locked), list = users) {
  return mockFetch((url, init) => {
    if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
    if (url === '/api/auth/session') return jsonResponse(sessionFixture);
    if (url === '/api/entity/plan') return jsonResponse({ plan: 1, accountLimit: 50, accountsUsed: 7, diskQuotaMb: 1024 });
    if (url === '/api/users/role-options') return jsonResponse([{ id: 4, code: 'applicant', name: 'Applicant', superAdmin: false }]);
    if (url.startsWith('/api/users/blocked?')) return jsonResponse({ items: blocked, total: blocked.length });
    if (url.startsWith('/api/users?')) return jsonResponse({ items: list, total: list.length });
    if (url === '/api/users' && init?.method === 'POST') return jsonResponse(user({ id: 12, ...JSON.parse(String(init.body)) }), 201);
    if (url === '/api/users/11/unlock') return jsonResponse({ ...users[1], locked: false });
    return jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);
  });
}

describe('/acl/users', () => {
  test('shows the plan state, the state chips, and unlock only on a locked user', async () => {
    serve();
    renderApp('/acl/users');
    expect(await screen.findByText('7 of 50 accounts used')).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Users' });
    const [ana, lou] = within(table).getAllByRole('row').slice(1) as [HTMLElement, HTMLElement];
    expect(within(lou).getByText('Locked')).toBeInTheDocument();
    expect(within(ana).queryByText('Locked')).not.toBeInTheDocument();
    expect(within(ana).queryByRole('button', { name: /^Unlock/ })).not.toBeInTheDocument();
    expect(within(lou).getByRole('button', { name: 'Unlock: Lou Locked' })).toBeInTheDocument();
  });

  test("each user's buttons are the actions the server sent with it, whatever the session's rules", async () => {
    // The session may do everything on users; the server still answers per user (users/policy.ts).
    const list = [
      user({}),
      // A locked super-admin user seen by an administrator who is not one: no action, not even unlock.
      user({ id: 12, email: 'sam@demo.test', name: 'Sam Support', roleId: 1, roleName: 'Support', locked: true, actions: [] }),
      // The caller's own account: no delete, role change or deactivation.
      user({ id: 2, email: 'coordinator@demo.test', name: 'Demo Coordinator', actions: ['edit', 'resetLink'] }),
    ];
    serve([], list);
    renderApp('/acl/users');
    const table = await screen.findByRole('table', { name: 'Users' });
    await within(table).findByText('Sam Support');
    const [ana, sam, self] = within(table).getAllByRole('row').slice(1) as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(ana).getByRole('button', { name: 'Edit: Ana Applicant' })).toBeEnabled();
    expect(within(ana).getByRole('button', { name: 'Send a password-reset link: Ana Applicant' })).toBeEnabled();
    expect(within(ana).getByRole('button', { name: 'Delete: Ana Applicant' })).toBeEnabled();
    expect(within(sam).queryAllByRole('button')).toHaveLength(0);
    expect(within(self).getByRole('button', { name: 'Edit: Demo Coordinator' })).toBeEnabled();
    expect(within(self).getByRole('button', { name: 'Send a password-reset link: Demo Coordinator' })).toBeEnabled();
    expect(within(self).queryByRole('button', { name: /^Delete/ })).not.toBeInTheDocument();

    // Without changeRole and deactivate, the dialog keeps the role and the active switch as they are.
    fireEvent.click(within(self).getByRole('button', { name: 'Edit: Demo Coordinator' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit user' });
    expect(within(dialog).getByRole('combobox', { name: /Role/ })).toHaveAttribute('aria-disabled', 'true');
    expect(within(dialog).getByRole('switch', { name: 'Active' })).toBeDisabled();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    fireEvent.click(within(ana).getByRole('button', { name: 'Edit: Ana Applicant' }));
    const other = await screen.findByRole('dialog', { name: 'Edit user' });
    await waitFor(() => expect(within(other).getByRole('combobox', { name: /Role/ })).not.toHaveAttribute('aria-disabled'));
    expect(within(other).getByRole('switch', { name: 'Active' })).toBeEnabled();
  });

  test('a new user with "send a link" goes to the server without a password', async () => {
    const fetchMock = serve();
    renderApp('/acl/users');
    fireEvent.click(await screen.findByRole('button', { name: 'New user' }));
    const dialog = await screen.findByRole('dialog', { name: 'New user' });
    fireEvent.change(within(dialog).getByRole('textbox', { name: /^Name/ }), { target: { value: 'Nico New' } });
    fireEvent.change(within(dialog).getByRole('textbox', { name: /^Email/ }), { target: { value: 'nico@demo.test' } });
    const role = within(dialog).getByRole('combobox', { name: /Role/ });
    await waitFor(() => expect(role).not.toHaveAttribute('aria-disabled'));
    fireEvent.mouseDown(role);
    fireEvent.click(await screen.findByRole('option', { name: 'Applicant' }));
    expect(within(dialog).getByRole('radio', { name: 'Email a link to choose a password' })).toBeChecked();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('User created. A link to choose a password was sent to nico@demo.test.')).toBeInTheDocument();
    const call = fetchMock.mock.calls.find(([url, init]) => url === '/api/users' && init?.method === 'POST');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({
      email: 'nico@demo.test',
      name: 'Nico New',
      docnumber: null,
      roleId: 4,
      active: true,
      language: 'en',
      timeZone: 'America/Bogota',
    });
  });

  test('"set a password now" requires a valid one', async () => {
    serve();
    renderApp('/acl/users');
    fireEvent.click(await screen.findByRole('button', { name: 'New user' }));
    const dialog = await screen.findByRole('dialog', { name: 'New user' });
    fireEvent.click(within(dialog).getByRole('radio', { name: 'Set a password now' }));
    const password = dialog.querySelector('input[name="password"]');
    if (!password) throw new Error('no password field');
    fireEvent.change(password, { target: { value: 'short' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(/The password must have 8 to 16 characters/)).toBeInTheDocument();
    expect(within(dialog).getByText('You must choose an option')).toBeInTheDocument();
  });
});

describe('/dashboard/blocked-users', () => {
  test('lists locked accounts with an unlock button', async () => {
    const fetchMock = serve();
    renderApp('/dashboard/blocked-users');
    expect(await screen.findByRole('heading', { name: 'Unlock users' })).toBeInTheDocument();
    fireEvent.click(await screen.findByRole('button', { name: 'Unlock: Lou Locked' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledWith('/api/users/11/unlock', expect.objectContaining({ method: 'POST' })));
    expect(await screen.findByText('The account of Lou Locked is unlocked.')).toBeInTheDocument();
  });

  test("says 'No blocked users' when there are none", async () => {
    serve([]);
    renderApp('/dashboard/blocked-users');
    expect(await screen.findByText('No blocked users')).toBeInTheDocument();
  });
});
