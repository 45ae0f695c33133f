// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import { jsonResponse, mockFetch, mockSettingsFetch, renderApp, sessionFixture, setScreenWidth, settingsFixture } from '../../test/utils.js';
import i18n from '../../i18n/index.js';
import type { NotificationList } from './api.js';

vi.mock('../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));

const notifications: NotificationList = {
  unread: 1,
  items: [
    { id: 8, kind: 'task_overdue', caseId: 43, caseNumber: '000043', taskId: 91, taskName: 'Eligibility review', detail: null, commentId: null, importId: null, count: null, byName: null, createdAt: '2026-11-20T16:00:00.000Z', readAt: '2026-11-20T17:00:00.000Z' },
    { id: 7, kind: 'mention', caseId: 42, caseNumber: '000042', taskId: null, taskName: null, detail: null, commentId: 3, importId: null, count: null, byName: 'Ana Pérez', createdAt: '2026-11-20T15:00:00.000Z', readAt: null },
    { id: 6, kind: 'case_returned', caseId: 40, caseNumber: '000040', taskId: 90, taskName: 'Correct the application', detail: 'The lease is unsigned', commentId: null, importId: null, count: null, byName: 'Demo Reviewer', createdAt: '2026-11-19T15:00:00.000Z', readAt: '2026-11-19T16:00:00.000Z' },
    // Returned by staff (issue 18), not by a protocol task: to the correction page. And the staff member's answer.
    { id: 5, kind: 'case_returned', caseId: 39, caseNumber: '000039', taskId: null, taskName: null, detail: 'Upload the lease', commentId: null, importId: null, count: null, byName: 'Demo Coordinator', createdAt: '2026-11-18T15:00:00.000Z', readAt: '2026-11-18T16:00:00.000Z' },
    { id: 4, kind: 'case_resubmitted', caseId: 38, caseNumber: '000038', taskId: null, taskName: null, detail: null, commentId: null, importId: null, count: null, byName: 'Ana Applicant', createdAt: '2026-11-18T14:00:00.000Z', readAt: '2026-11-18T16:00:00.000Z' },
  ],
};

describe('the notifications bell', () => {
  test('counts the unread; each kind says what happened and links to its task or case; opened, it is marked read', async () => {
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
    expect(items[0]).toHaveTextContent('Overdue: Eligibility review (000043)');
    expect(items[0]).toHaveAttribute('href', '/tasks/91');
    expect(items[1]).toHaveTextContent('Ana Pérez mentioned you on case 000042');
    expect(items[1]).toHaveAttribute('href', '/cases/42');
    expect(items[2]).toHaveTextContent('Your application 000040 was returned for correction');
    expect(items[2]).toHaveTextContent('The lease is unsigned');
    expect(items[2]).toHaveAttribute('href', '/tasks/90');
    expect(items[3]).toHaveTextContent('Your application 000039 was returned for correction');
    expect(items[3]).toHaveAttribute('href', '/cases/39/correct');
    expect(items[4]).toHaveTextContent('Ana Applicant corrected application 000038 and sent it back');
    expect(items[4]).toHaveAttribute('href', '/cases/38');
    expect(within(menu).getByRole('menuitem', { name: 'Mark all as read' })).toBeInTheDocument();
    expect(within(menu).getByRole('menuitem', { name: 'Notification settings' })).toHaveAttribute('href', '/profile#notifications');
    fireEvent.click(items[1] as HTMLElement);
    await waitFor(() => expect(fetchMock).toHaveBeenCalledWith('/api/notifications/7/read', expect.objectContaining({ method: 'POST' })));
  });

  test('an import tells its tasks (to the pending tasks) and its end (to the imports), counted, in English and Spanish', async () => {
    setScreenWidth(1366);
    const imported: NotificationList = {
      unread: 3,
      items: [
        { id: 12, kind: 'import_done', caseId: null, caseNumber: null, taskId: null, taskName: null, detail: 'applicants.xlsx', commentId: null, importId: 31, count: 1250, byName: null, createdAt: '2026-11-20T16:00:00.000Z', readAt: null },
        { id: 11, kind: 'tasks_imported', caseId: null, caseNumber: null, taskId: null, taskName: null, detail: null, commentId: null, importId: 31, count: 40, byName: null, createdAt: '2026-11-20T15:59:00.000Z', readAt: null },
        { id: 10, kind: 'tasks_imported', caseId: null, caseNumber: null, taskId: null, taskName: null, detail: null, commentId: null, importId: 30, count: 1, byName: null, createdAt: '2026-11-19T15:59:00.000Z', readAt: null },
      ],
    };
    mockFetch((url) => {
      if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
      if (url === '/api/auth/session') return jsonResponse(sessionFixture);
      if (url === '/api/notifications') return jsonResponse(imported);
      return jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);
    });
    renderApp('/home');
    fireEvent.click(await screen.findByRole('button', { name: 'Notifications, 3 unread' }));
    let items = within(await screen.findByRole('menu')).getAllByRole('menuitem');
    expect(items[0]).toHaveTextContent('The import of applicants.xlsx finished: 1,250 applications created');
    expect(items[0]).toHaveAttribute('href', '/cases/imports');
    expect(items[1]).toHaveTextContent('An import assigned you 40 tasks');
    expect(items[1]).toHaveAttribute('href', '/pendings');
    expect(items[2]).toHaveTextContent('An import assigned you 1 task');
    expect(items[2]).not.toHaveTextContent('tasks');

    fireEvent.keyDown(screen.getByRole('menu'), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
    await i18n.changeLanguage('es');
    fireEvent.click(await screen.findByRole('button', { name: 'Notificaciones, 3 sin leer' }));
    items = within(await screen.findByRole('menu')).getAllByRole('menuitem');
    expect(items[0]).toHaveTextContent('La importación de applicants.xlsx terminó: 1250 radicaciones creadas');
    expect(items[1]).toHaveTextContent('Una importación le asignó 40 tareas');
    expect(items[2]).toHaveTextContent('Una importación le asignó 1 tarea');
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
