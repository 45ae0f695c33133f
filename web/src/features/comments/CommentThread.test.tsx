// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeAll, describe, expect, test, vi } from 'vitest';
import { createQueryClient } from '../../app/queryClient.js';
import { SessionContext } from '../../app/session/session.js';
import { FeedbackProvider } from '../../components/feedback/FeedbackProvider.js';
import i18n from '../../i18n/index.js';
import { jsonResponse, mockFetch, sessionFixture, setScreenWidth } from '../../test/utils.js';
import type { Comment, CommentThreadData } from './api.js';
import { splitLinks } from './CommentBody.js';
import { CommentThread } from './CommentThread.js';
import { DocumentChecklist } from './DocumentChecklist.js';

vi.mock('../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));

beforeAll(async () => {
  await i18n.changeLanguage('en');
});

const comment = (over: Partial<Comment> = {}): Comment => ({
  id: 1,
  caseId: 42,
  caseNumber: '000042',
  taskId: null,
  taskName: null,
  number: 1,
  body: 'First note',
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
  ...over,
});

const thread = (items: Comment[], over: Partial<CommentThreadData> = {}): CommentThreadData => ({ items, canComment: true, canUseStaffTools: true, ...over });

const notFound = () => jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);

function renderThread(ui: ReactNode) {
  const router = createMemoryRouter([{ path: '*', element: ui }]);
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <SessionContext value={sessionFixture}>
        <FeedbackProvider>
          <RouterProvider router={router} />
        </FeedbackProvider>
      </SessionContext>
    </QueryClientProvider>,
  );
}

const posts = (fetchMock: ReturnType<typeof mockFetch>) =>
  fetchMock.mock.calls.filter(([url, init]) => url === '/api/cases/42/comments' && init?.method === 'POST').map(([, init]) => JSON.parse(String(init?.body)));

describe('splitLinks', () => {
  test('cuts web addresses out of the text, leaving the sentence punctuation outside', () => {
    expect(splitLinks('see https://example.org/a?b=1. and http://x.test')).toEqual([
      { kind: 'text', text: 'see ' },
      { kind: 'link', href: 'https://example.org/a?b=1' },
      { kind: 'text', text: '. and ' },
      { kind: 'link', href: 'http://x.test' },
    ]);
    expect(splitLinks('javascript:alert(1) <a href="https://x.test">x</a>')).toEqual([
      { kind: 'text', text: 'javascript:alert(1) <a href="' },
      { kind: 'link', href: 'https://x.test' },
      { kind: 'text', text: '">x</a>' },
    ]);
  });
});

describe('CommentThread', () => {
  test('shows each comment as plain text: markup stays text, line breaks stay, addresses become safe links', async () => {
    setScreenWidth(1200);
    const body = '<img src=x onerror=alert(1)>\nSecond line https://example.org/lease.pdf.';
    mockFetch((url) => {
      if (url === '/api/cases/42/comments')
        return jsonResponse(
          thread([
            comment({ body, taskName: 'Review', visibleToApplicant: true, documents: [{ code: 'lease', name: 'Lease', mark: 'missing' }], actions: ['edit', 'delete'] }),
            comment({ id: 2, number: 2, body: 'Later', authorName: 'Demo Reviewer' }),
          ]),
        );
      return notFound();
    });
    const { container } = renderThread(<CommentThread caseId={42} />);
    const list = await screen.findByRole('list', { name: 'Comments' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.getAttribute('aria-label'))).toEqual(['Comment #1', 'Comment #2']);
    const first = items[0] as HTMLElement;
    expect(container.querySelector('img')).toBeNull();
    expect(first).toHaveTextContent('<img src=x onerror=alert(1)>');
    expect(first.textContent).toContain('<img src=x onerror=alert(1)>\nSecond line');
    const link = within(first).getByRole('link', { name: 'https://example.org/lease.pdf' });
    expect(link).toHaveAttribute('href', 'https://example.org/lease.pdf');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(within(first).getByText('Visible to the applicant')).toBeInTheDocument();
    expect(within(first).getByText('Task: Review')).toBeInTheDocument();
    expect(within(first).getByText('Lease: Missing')).toBeInTheDocument();
    expect(within(first).getByRole('button', { name: 'Edit: Comment #1' })).toBeInTheDocument();
    // The second comment's actions are none: no buttons.
    expect(within(items[1] as HTMLElement).queryByRole('button')).toBeNull();
    expect(within(items[1] as HTMLElement).getByText('Internal')).toBeInTheDocument();
  });

  test("says 'Error loading comments' when the thread cannot be read, and an empty thread says so", async () => {
    mockFetch((url) => (url === '/api/cases/42/comments' ? jsonResponse({ error: { code: 'INTERNAL', message: 'boom' } }, 500) : notFound()));
    renderThread(<CommentThread caseId={42} />);
    expect(await screen.findByText('Error loading comments')).toBeInTheDocument();

    mockFetch((url) => (url === '/api/cases/7/comments?taskId=3' ? jsonResponse(thread([], { canComment: false })) : notFound()));
    renderThread(<CommentThread caseId={7} taskId={3} />);
    expect(await screen.findByText('No comments yet.')).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'New comment' })).not.toBeInTheDocument();
  });

  test('a failed post keeps the text and says why; the next try posts it and clears the field', async () => {
    setScreenWidth(1200);
    let fail = true;
    const fetchMock = mockFetch((url, init) => {
      if (url === '/api/cases/42/comments' && init?.method === 'POST') {
        if (fail) return jsonResponse({ error: { code: 'INTERNAL', message: 'The server could not save it' } }, 500);
        return jsonResponse(comment({ id: 9, number: 2, body: 'Please send the lease' }), 201);
      }
      if (url === '/api/cases/42/comments') return jsonResponse(thread([], { canUseStaffTools: false }));
      return notFound();
    });
    renderThread(<CommentThread caseId={42} />);
    const form = await screen.findByRole('form', { name: 'New comment' });
    const field = within(form).getByRole('textbox', { name: 'Comment' });
    fireEvent.change(field, { target: { value: '  Please send the lease  ' } });
    expect(within(form).getByText('21/5000')).toBeInTheDocument();
    fireEvent.click(within(form).getByRole('button', { name: 'Add comment' }));
    expect(await within(form).findByText('The server could not save it')).toBeInTheDocument();
    expect(field).toHaveValue('  Please send the lease  ');
    // An applicant (no staff tools) sends only the text.
    expect(posts(fetchMock)).toEqual([{ body: 'Please send the lease' }]);

    fail = false;
    // Ctrl+Enter sends too.
    fireEvent.keyDown(field, { key: 'Enter', ctrlKey: true });
    expect(await screen.findByText('Comment added!')).toBeInTheDocument();
    await waitFor(() => expect(field).toHaveValue(''));
    expect(within(form).queryByText('The server could not save it')).not.toBeInTheDocument();
  });

  test('@ offers staff as one types; arrows and Enter insert the name, and the post carries the id', async () => {
    setScreenWidth(1200);
    const fetchMock = mockFetch((url, init) => {
      if (url === '/api/cases/42/comments' && init?.method === 'POST') return jsonResponse(comment({ id: 9 }), 201);
      if (url === '/api/cases/42/comments') return jsonResponse(thread([]));
      if (url === '/api/comments/quick') return jsonResponse({ items: [{ code: 'lease', text: 'Please upload the lease.' }] });
      if (url === '/api/cases/42/checklist')
        return jsonResponse({ items: [{ code: 'lease', name: 'Lease', mark: null, commentNumber: null, fileId: null, byName: null, at: null }] });
      if (url.startsWith('/api/comments/mentionable'))
        return jsonResponse({
          items: [
            { id: 5, name: 'Ana Pérez', email: 'ana@demo.test' },
            { id: 6, name: 'Andrés Gil', email: 'andres@demo.test' },
          ],
        });
      return notFound();
    });
    renderThread(<CommentThread caseId={42} />);
    const form = await screen.findByRole('form', { name: 'New comment' });
    const field = within(form).getByRole('textbox', { name: 'Comment' });

    // A quick comment goes in with one click.
    fireEvent.click(await within(form).findByRole('button', { name: 'Please upload the lease.' }));
    expect(field).toHaveValue('Please upload the lease.');
    // The caret goes after the inserted text on the next frame.
    await act(() => new Promise((resolve) => requestAnimationFrame(resolve)));
    expect(field).toHaveFocus();

    fireEvent.change(field, { target: { value: 'Please upload the lease. @an' } });
    const listbox = await screen.findByRole('listbox');
    await waitFor(() => expect(within(listbox).getAllByRole('option')).toHaveLength(2));
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/comments/mentionable?search=an')).toBe(true);
    expect(field).toHaveAttribute('aria-activedescendant', within(listbox).getAllByRole('option')[0]?.id);
    fireEvent.keyDown(field, { key: 'ArrowDown' });
    expect(within(listbox).getByRole('option', { name: /Andrés Gil/ })).toHaveAttribute('aria-selected', 'true');
    fireEvent.keyDown(field, { key: 'ArrowUp' });
    await act(async () => {
      fireEvent.keyDown(field, { key: 'Enter' });
    });
    expect(field).toHaveValue('Please upload the lease. @Ana Pérez ');
    await waitFor(() => expect(screen.queryByRole('listbox')).not.toBeInTheDocument());

    // Tick a document, make it visible, send.
    fireEvent.click(within(form).getByRole('button', { name: 'Document checklist (0 ticked)' }));
    fireEvent.click(within(within(form).getByRole('group', { name: 'Lease' })).getByRole('button', { name: 'Missing' }));
    fireEvent.click(within(form).getByRole('switch', { name: 'Visible to the applicant' }));
    fireEvent.click(within(form).getByRole('button', { name: 'Add comment' }));
    await waitFor(() => expect(posts(fetchMock)).toHaveLength(1));
    expect(posts(fetchMock)[0]).toEqual({
      body: 'Please upload the lease. @Ana Pérez',
      visibleToApplicant: true,
      documents: [{ code: 'lease', mark: 'missing' }],
      mentions: [5],
    });
  });
});

describe('DocumentChecklist', () => {
  test("shows each document's latest mark, by whom and when; nothing for someone refused the checklist", async () => {
    mockFetch((url) =>
      url === '/api/cases/42/checklist'
        ? jsonResponse({
            items: [
              { code: 'lease', name: 'Lease', mark: 'received', commentNumber: 3, fileId: null, byName: 'Demo Reviewer', at: '2026-11-20T15:00:00.000Z' },
              { code: 'bank', name: 'Bank statement', mark: null, commentNumber: null, fileId: null, byName: null, at: null },
            ],
          })
        : notFound(),
    );
    renderThread(<DocumentChecklist caseId={42} />);
    const region = await screen.findByRole('region', { name: 'Document checklist' });
    const items = await within(region).findAllByRole('listitem');
    expect(items[0]).toHaveTextContent('Lease');
    expect(items[0]).toHaveTextContent('Received');
    expect(items[0]).toHaveTextContent(/Demo Reviewer · .+ · comment #3/);
    expect(items[1]).toHaveTextContent('Bank statement');
    expect(items[1]).toHaveTextContent('Not marked');

    mockFetch(() => jsonResponse({ error: { code: 'NOT_FOUND', message: 'Not found' } }, 404));
    const { container } = renderThread(<DocumentChecklist caseId={7} />);
    await waitFor(() => expect(container).toBeEmptyDOMElement());
  });
});
