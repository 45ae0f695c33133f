// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import { jsonResponse, mockFetch, renderApp, sessionFixture, settingsFixture } from '../../test/utils.js';
import type { RoleRules } from './api.js';

vi.mock('../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));

const roles = {
  items: [
    { id: 1, code: 'super-admin', name: 'Soporte', description: '', system: true, superAdmin: true, users: 1, createdAt: '2026-01-01T00:00:00Z', actions: ['edit'] },
    { id: 7, code: 'auditor', name: 'Auditor', description: '', system: false, superAdmin: false, users: 0, createdAt: '2026-01-01T00:00:00Z', actions: ['edit', 'changeCode', 'delete'] },
  ],
  total: 2,
};
const modules = [
  { id: 1, code: 'borradores', name: 'borradores' },
  { id: 2, code: 'wf_casos', name: 'wf_casos' },
];
const actions = [
  { id: 1, code: 'create', name: 'Create' },
  { id: 2, code: 'update', name: 'Update' },
  { id: 3, code: 'show', name: 'Show' },
];
const rulesOf = (id: number, granted: Record<string, string[]>): RoleRules => {
  const role = roles.items.find((r) => r.id === id) ?? roles.items[1];
  return { role: { id: role.id, code: role.code, name: role.name, superAdmin: role.superAdmin }, modules, actions, granted };
};

function serve() {
  return mockFetch((url, init) => {
    if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
    if (url === '/api/auth/session') return jsonResponse(sessionFixture);
    if (url === '/api/acl/rules/roles') return jsonResponse(roles.items.map(({ id, code, name }) => ({ id, code, name })));
    const match = /^\/api\/acl\/roles\/(\d+)\/rules$/.exec(url);
    if (match && init?.method === 'PUT') return jsonResponse(rulesOf(Number(match[1]), JSON.parse(String(init.body)).granted));
    if (match) return jsonResponse(rulesOf(Number(match[1]), Number(match[1]) === 7 ? { wf_casos: ['show'] } : {}));
    return jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);
  });
}

describe('the rules matrix', () => {
  test('saves exactly the ticked module x action pairs, in catalogue order', async () => {
    const fetchMock = serve();
    renderApp('/main/acl_reglas/?role=7');
    // The first lazy page of a run takes a while to compile.
    const show = await screen.findByRole('checkbox', { name: 'Applications: Show' }, { timeout: 10_000 });
    expect(show).toBeChecked();
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();

    fireEvent.click(show);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Applications: Update' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Applications: Create' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Drafts: Show' }));
    expect(screen.getByText('Unsaved changes')).toBeInTheDocument();
    fireEvent.click(save);

    await waitFor(() => expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PUT')).toBe(true));
    const [url, init] = fetchMock.mock.calls.find(([, i]) => i?.method === 'PUT') ?? [];
    expect(url).toBe('/api/acl/roles/7/rules');
    expect(JSON.parse(String(init?.body))).toEqual({ granted: { wf_casos: ['create', 'update'], borradores: ['show'] } });
    expect(await screen.findByText('Changes saved successfully')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled());
  });

  test('the row box grants or removes every action of a module', async () => {
    const fetchMock = serve();
    renderApp('/main/acl_reglas/?role=7');
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Every action on Drafts' }, { timeout: 10_000 }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Every action on Applications' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Every action on Applications' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PUT')).toBe(true));
    const init = fetchMock.mock.calls.find(([, i]) => i?.method === 'PUT')?.[1];
    expect(JSON.parse(String(init?.body))).toEqual({ granted: { borradores: ['create', 'update', 'show'] } });
  });

  test('a super-admin role shows every box ticked and read-only, with no Save', async () => {
    serve();
    renderApp('/main/acl_reglas/?role=1');
    expect(await screen.findByText(/This role has every permission/, {}, { timeout: 10_000 })).toBeInTheDocument();
    const boxes = screen.getAllByRole('checkbox');
    expect(boxes).toHaveLength(modules.length * actions.length);
    for (const box of boxes) {
      expect(box).toBeChecked();
      expect(box).toBeDisabled();
    }
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
  });

  test('without a role in the address it asks for one', async () => {
    serve();
    renderApp('/main/acl_reglas/');
    expect(await screen.findByText('Choose the role whose permissions you want to see or change.', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
  });
});
