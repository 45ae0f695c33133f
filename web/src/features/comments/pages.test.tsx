// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import { jsonResponse, mockFetch, renderApp, sessionFixture, setScreenWidth, settingsFixture } from '../../test/utils.js';
import { caseDetail } from '../cases/case/testServer.js';
import { taskDetail } from '../tasks/fixtures.js';

vi.mock('../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));

const comment = {
  id: 1,
  caseId: 42,
  caseNumber: '2026-11-000042',
  taskId: null,
  taskName: null,
  number: 1,
  body: 'Waiting for the lease',
  visibleToApplicant: false,
  caseState: 'PENDING',
  authorId: 2,
  authorName: 'Demo Coordinator',
  documents: [],
  mentions: [],
  createdAt: '2026-11-20T15:00:00.000Z',
  editedAt: null,
  version: 1,
  actions: [],
};

describe('the comments on the case page', () => {
  test("shows the case's thread with its composer, the document checklist, and the comments' edits and deletes in the history", async () => {
    setScreenWidth(1366);
    mockFetch((url) => {
      if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
      if (url === '/api/auth/session') return jsonResponse(sessionFixture);
      if (url === '/api/cases/42') return jsonResponse(caseDetail());
      if (url === '/api/cases/42/comments') return jsonResponse({ items: [comment], canComment: true, canUseStaffTools: true });
      if (url === '/api/cases/42/history')
        return jsonResponse([
          { id: 1, action: 'comment_added', type: 'comment', userName: 'Demo Coordinator', taskName: null, detail: { number: 1, body: 'Waiting for the lease' }, at: '2026-11-20T15:00:00.000Z' },
          {
            id: 2,
            action: 'comment_edited',
            type: 'comment',
            userName: 'Demo Coordinator',
            taskName: null,
            detail: { number: 1, from: { body: 'Waiting for the leese', visibleToApplicant: false }, to: { body: 'Waiting for the lease', visibleToApplicant: false } },
            at: '2026-11-20T15:05:00.000Z',
          },
          { id: 3, action: 'comment_deleted', type: 'comment', userName: 'Demo Reviewer', taskName: null, detail: { number: 2, from: { body: 'Oops' }, to: null }, at: '2026-11-20T15:06:00.000Z' },
        ]);
      if (url === '/api/cases/42/checklist')
        return jsonResponse({ items: [{ code: 'lease', name: 'Lease', mark: 'missing', commentNumber: 1, fileId: null, byName: 'Demo Coordinator', at: '2026-11-20T15:00:00.000Z' }] });
      return jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);
    });
    renderApp('/cases/42');
    const thread = await screen.findByRole('region', { name: 'Comments' });
    expect(await within(thread).findByText('Waiting for the lease')).toBeInTheDocument();
    expect(within(thread).getByRole('form', { name: 'New comment' })).toBeInTheDocument();
    const checklist = await screen.findByRole('region', { name: 'Document checklist' });
    expect(await within(checklist).findByText('Lease')).toBeInTheDocument();
    expect(within(checklist).getByText('Missing')).toBeInTheDocument();
    const history = await screen.findByRole('list', { name: 'Events of the application, oldest first' });
    const events = await within(history).findAllByRole('listitem');
    expect(events[0]).toHaveTextContent('Comment #1 added');
    expect(events[1]).toHaveTextContent('Comment #1 edited');
    expect(events[1]).toHaveTextContent('From Waiting for the leese to Waiting for the lease');
    expect(events[2]).toHaveTextContent('Comment #2 deleted');
    expect(events[2]).toHaveTextContent('Oops');
  });
});

describe('the comments on the task page', () => {
  test("shows the task's own thread, and a new comment goes on the task", async () => {
    setScreenWidth(1366);
    const task = taskDetail();
    const fetchMock = mockFetch((url, init) => {
      if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
      if (url === '/api/auth/session') return jsonResponse(sessionFixture);
      if (url === '/api/tasks/5' && !init?.method) return jsonResponse(task);
      if (url === `/api/cases/${task.case.id}/comments` && init?.method === 'POST') return jsonResponse({ ...comment, id: 2, number: 2, taskId: 5 }, 201);
      if (url === `/api/cases/${task.case.id}/comments?taskId=5`)
        return jsonResponse({ items: [{ ...comment, caseId: task.case.id, taskId: 5, taskName: task.name }], canComment: true, canUseStaffTools: false });
      return jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);
    });
    renderApp('/tasks/5');
    const thread = await screen.findByRole('region', { name: 'Comments' });
    expect(await within(thread).findByText('Waiting for the lease')).toBeInTheDocument();
    const form = within(thread).getByRole('form', { name: 'New comment' });
    fireEvent.change(within(form).getByRole('textbox', { name: 'Comment' }), { target: { value: 'Checked the stubs' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add comment' }));
    await waitFor(() =>
      expect(fetchMock.mock.calls.some(([url, init]) => url === `/api/cases/${task.case.id}/comments` && init?.method === 'POST')).toBe(true),
    );
    const post = fetchMock.mock.calls.find(([url, init]) => url === `/api/cases/${task.case.id}/comments` && init?.method === 'POST');
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({ body: 'Checked the stubs', taskId: 5 });
    expect(await screen.findByText('Comment added!')).toBeInTheDocument();
  });
});
