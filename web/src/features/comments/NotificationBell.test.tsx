// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import { jsonResponse, mockFetch, mockSettingsFetch, renderApp, sessionFixture, setScreenWidth, settingsFixture } from '../../test/utils.js';
import type { NotificationList } from './api.js';

vi.mock('../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));

const notifications: NotificationList = {
  unread: 1,
  items: [
    { id: 7, kind: 'mention', caseId: 42, caseNumber: '000042', commentId: 3, byName: 'Ana Pérez', createdAt: '2026-11-20T15:00:00.000Z', readAt: null },
    { id: 6, kind: 'mention', caseId: 40, caseNumber: '000040', commentId: 1, byName: 'Demo Reviewer', createdAt: '2026-11-19T15:00:00.000Z', readAt: '2026-11-19T16:00:00.000Z' },
  ],
};

describe('the notifications bell', () => {
  test('counts the unread; a mention links to its case and is marked read when opened', async () => {
    setScreenWidth(1366);
    const fetchMock = mockFetch((url, init) => {
      if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
      if (url === '/api/auth/session') return jsonResponse(sessionFixture);
      if (url === '/api/notifications') return jsonResponse(notifications);
      if (url === '/api/notifications/7/read' && init?.method === 'POST') return new Response(null, { status: 204 });
      return jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);
    });
    renderApp('/home');
    fireEvent.click(await screen.findByRole('button', { name: 'Notifications, 1 unread' }));
    const menu = await screen.findByRole('menu');
    const items = within(menu).getAllByRole('menuitem');
    expect(items[0]).toHaveTextContent('Ana Pérez mentioned you on case 000042');
    expect(items[0]).toHaveAttribute('href', '/cases/42');
    expect(items[1]).toHaveTextContent('Demo Reviewer mentioned you on case 000040');
    expect(within(menu).getByRole('menuitem', { name: 'Mark all as read' })).toBeInTheDocument();
    fireEvent.click(items[0] as HTMLElement);
    await waitFor(() => expect(fetchMock).toHaveBeenCalledWith('/api/notifications/7/read', expect.objectContaining({ method: 'POST' })));
  });

  test('is not shown when the notifications cannot be read', async () => {
    setScreenWidth(1366);
    mockSettingsFetch();
    renderApp('/home');
    expect(await screen.findByRole('button', { name: 'Account' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Notifications/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
