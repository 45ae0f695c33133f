// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import { jsonResponse, mockFetch, renderApp, sessionFixture, setScreenWidth, settingsFixture } from '../../test/utils.js';
import type { Comment } from './api.js';

vi.mock('../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));

const comment = (over: Partial<Comment> = {}): Comment => ({
  id: 1,
  caseId: 42,
  caseNumber: '000042',
  taskId: null,
  taskName: null,
  number: 3,
  body: 'Lease received, thanks',
  visibleToApplicant: false,
  caseState: 'PENDING',
  authorId: 2,
  authorName: 'Demo Coordinator',
  documents: [],
  mentions: [],
  createdAt: '2026-11-20T15:00:00.000Z',
  editedAt: null,
  version: 4,
  actions: ['edit', 'delete'],
  ...over,
});

function serve(items: Comment[]) {
  return mockFetch((url, init) => {
    if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
    if (url === '/api/auth/session') return jsonResponse(sessionFixture);
    if (url.startsWith('/api/comments?')) return jsonResponse({ items, total: items.length });
    if (url === '/api/comments/1' && init?.method === 'DELETE') return new Response(null, { status: 204 });
    if (url === '/api/comments/1' && init?.method === 'PATCH') return jsonResponse(comment({ ...JSON.parse(String(init.body)), version: 5 }));
    if (url.startsWith('/api/comments/mentionable')) return jsonResponse({ items: [{ id: 2, name: 'Demo Coordinator', email: 'coordinator@demo.test' }] });
    if (url === '/api/notifications') return jsonResponse({ items: [], unread: 0 });
    return jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);
  });
}

const listCallCount = (fetchMock: ReturnType<typeof mockFetch>) => fetchMock.mock.calls.filter(([url]) => String(url).startsWith('/api/comments?')).length;

const listCalls = (fetchMock: ReturnType<typeof mockFetch>) =>
  fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.startsWith('/api/comments?')).map((url) => new URLSearchParams(url.split('?')[1]));

describe('/dashboard/comments', () => {
  test('lists the tenant comments newest first with links to their cases; delete asks first and Cancel deletes nothing', async () => {
    setScreenWidth(1366);
    const fetchMock = serve([comment(), comment({ id: 2, number: 1, body: 'Only mine to read', actions: [] })]);
    renderApp('/dashboard/comments');
    const table = await screen.findByRole('table', { name: 'Comments' });
    await within(table).findByText('Lease received, thanks');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(within(rows[0] as HTMLElement).getByRole('link', { name: '000042' })).toHaveAttribute('href', '/cases/42');
    // The second comment's actions are none.
    expect(within(rows[1] as HTMLElement).queryByRole('button', { name: /^Delete/ })).not.toBeInTheDocument();
    const first = listCalls(fetchMock)[0];
    expect(first?.get('sortBy')).toBe('created_at');
    expect(first?.get('descending')).toBe('true');

    const remove = within(rows[0] as HTMLElement).getByRole('button', { name: 'Delete: comment #3 of case 000042' });
    fireEvent.click(remove);
    let confirm = await screen.findByRole('dialog', { name: 'Delete comment #3?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(false);

    fireEvent.click(remove);
    confirm = await screen.findByRole('dialog', { name: 'Delete comment #3?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledWith('/api/comments/1', expect.objectContaining({ method: 'DELETE' })));
    expect(await screen.findByText('Comment deleted')).toBeInTheDocument();
  });

  test('edits a comment with its version; the filters go to the server', async () => {
    setScreenWidth(1366);
    const fetchMock = serve([comment()]);
    renderApp('/dashboard/comments');
    const table = await screen.findByRole('table', { name: 'Comments' });
    await within(table).findByText('Lease received, thanks');
    fireEvent.click(within(table).getByRole('button', { name: 'Edit: comment #3 of case 000042' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit comment #3' });
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Comment' }), { target: { value: 'Lease and stubs received' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const patch = fetchMock.mock.calls.find(([url, init]) => url === '/api/comments/1' && init?.method === 'PATCH');
    expect(JSON.parse(String(patch?.[1]?.body))).toEqual({ version: 4, body: 'Lease and stubs received', visibleToApplicant: false });

    const filters = screen.getByRole('search', { name: 'Comment filters' });
    fireEvent.change(within(filters).getByLabelText('From'), { target: { value: '2026-11-01' } });
    fireEvent.change(within(filters).getByRole('textbox', { name: 'Case number' }), { target: { value: '000042' } });
    await waitFor(() => {
      const last = listCalls(fetchMock).at(-1);
      expect(last?.get('from')).toBe('2026-11-01');
      expect(last?.get('caseNumber')).toBe('000042');
      expect(last?.get('page')).toBe('1');
    });
  });

  test('on a phone each comment is a card with its buttons, and the filters fold behind one button', async () => {
    setScreenWidth(390);
    const fetchMock = serve([comment()]);
    renderApp('/dashboard/comments');
    const list = await screen.findByRole('list', { name: 'Comments' });
    const card = (await within(list).findAllByRole('listitem'))[0] as HTMLElement;
    expect(within(card).getByText('Lease received, thanks')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    // The filters fold behind one button.
    const toggle = screen.getByRole('button', { name: 'Filters' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    fireEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('textbox', { name: 'Case number' })).toBeInTheDocument();
    fireEvent.click(within(card).getByRole('button', { name: 'Delete: comment #3 of case 000042' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Delete comment #3?' })).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledWith('/api/comments/1', expect.objectContaining({ method: 'DELETE' })));
  });

  test('an edit that meets a newer version keeps the typed text, and saving again sends the version just loaded', async () => {
    setScreenWidth(1366);
    let version = 4;
    const fetchMock = mockFetch((url, init) => {
      if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
      if (url === '/api/auth/session') return jsonResponse(sessionFixture);
      if (url.startsWith('/api/comments?')) return jsonResponse({ items: [comment({ version })], total: 1 });
      if (url === '/api/comments/1' && init?.method === 'PATCH') {
        const sent = JSON.parse(String(init.body)) as { version: number };
        if (sent.version !== version) return jsonResponse({ error: { code: 'CONFLICT', message: 'Changed by someone else' } }, 409);
        return jsonResponse(comment({ version: version + 1 }));
      }
      return jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);
    });
    renderApp('/dashboard/comments');
    const table = await screen.findByRole('table', { name: 'Comments' });
    fireEvent.click(await within(table).findByRole('button', { name: 'Edit: comment #3 of case 000042' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit comment #3' });
    // Meanwhile someone else saved it.
    version = 5;
    const field = within(dialog).getByRole('textbox', { name: 'Comment' });
    fireEvent.change(field, { target: { value: 'My careful wording' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(/Someone changed this comment meanwhile/)).toBeInTheDocument();
    expect(field).toHaveValue('My careful wording');
    await waitFor(() => expect(listCallCount(fetchMock)).toBeGreaterThan(1));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const patches = fetchMock.mock.calls.filter(([url, init]) => url === '/api/comments/1' && init?.method === 'PATCH').map(([, init]) => JSON.parse(String(init?.body)));
    expect(patches.map((p) => [p.version, p.body])).toEqual([
      [4, 'My careful wording'],
      [5, 'My careful wording'],
    ]);
  });
});
