// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, test, vi } from 'vitest';
import { RoutePatternsContext } from '../../app/menu/implementedRoutes.js';
import { ProjectSettingsContext } from '../../app/project/projectSettings.js';
import type { SessionUser } from '../../app/session/session.js';
import { createQueryClient } from '../../app/queryClient.js';
import { fixtureUser, jsonResponse, mockSettingsFetch, mockFetch, settingsFixture } from '../../test/utils.js';
import { HomePage } from './HomePage.js';

const session = vi.hoisted(() => ({ user: null as SessionUser | null }));
vi.mock('../../app/session/session.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../app/session/session.js')>();
  // The dashboard's figures have tests of their own (HomeDashboard.test.tsx): here the user holds no task target.
  return { ...original, useSessionUser: () => session.user ?? { name: 'Demo Coordinator', targets: [] }, useCan: () => () => false };
});

function renderHome(patterns: readonly string[]) {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter>
        <ProjectSettingsContext value={settingsFixture}>
          <RoutePatternsContext value={patterns}>
            <HomePage />
          </RoutePatternsContext>
        </ProjectSettingsContext>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('HomePage', () => {
  test('greets the user and lists their modules, linking only those with a page', () => {
    // Not a party of any application: no card for "My tenants' applications".
    mockSettingsFetch();
    session.user = fixtureUser;
    renderHome(['/home', '/tasks']);
    expect(screen.getByRole('heading', { level: 1, name: 'Welcome, Demo Coordinator' })).toBeInTheDocument();
    const items = within(screen.getByRole('list')).getAllByRole('listitem');
    // Every link of the full menu (14 entries and 16 in groups: the business calendar, the outbox, print templates, the gallery, service accounts, webhooks and the ACH settings among them), groups flattened.
    expect(items).toHaveLength(30);
    expect(screen.getByRole('link', { name: 'Tasks' })).toHaveAttribute('href', '/tasks');
    expect(screen.getAllByRole('link')).toHaveLength(1);
    const cases = items.find((item) => item.textContent?.startsWith('Applications'));
    expect(cases).toHaveTextContent('Not available yet');
  });

  test('shows the group of a grouped module', () => {
    session.user = fixtureUser;
    renderHome([]);
    const users = screen.getAllByRole('listitem').find((item) => item.textContent?.includes('Users'));
    expect(users).toHaveTextContent('Permissions');
  });

  test("a landlord (a party of some application) gets a card to \"My tenants' applications\"", async () => {
    mockFetch((url) => (url.startsWith('/api/parties/mine') ? jsonResponse({ items: [], total: 3 }) : jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404)));
    session.user = { name: 'Rosa', targets: [] };
    renderHome(['/partes']);
    expect(await screen.findByRole('link', { name: /My tenants' applications/ })).toHaveAttribute('href', '/partes');
    expect(screen.getByText('3 applications name you as landlord or another party')).toBeInTheDocument();
  });

  test('says so when the user has no module', () => {
    session.user = { name: 'Guest', targets: [] };
    renderHome([]);
    expect(screen.getByRole('heading', { name: 'Welcome, Guest' })).toBeInTheDocument();
    expect(screen.getByText(/You do not have access to any module yet/)).toBeInTheDocument();
    expect(screen.queryByRole('list')).not.toBeInTheDocument();
  });
});
