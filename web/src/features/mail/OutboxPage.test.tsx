// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import { jsonResponse, mockFetch, renderApp, sessionFixture, setScreenWidth, settingsFixture } from '../../test/utils.js';
import type { OutboxItem, OutboxMessage } from './api.js';

vi.mock('../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));

const items: OutboxItem[] = [
  {
    id: 7, to: 'ana@example.test', subject: 'Your application arrived', state: 'failed', attempts: 3, lastError: 'connect ECONNREFUSED 10.0.0.1:25',
    event: 'application_submitted', caseId: 42, caseNumber: '2026-11-0042', createdAt: '2026-11-20T10:00:00Z', sentAt: null, actions: ['resend'],
  },
  {
    id: 6, to: 'bruno@example.test', subject: 'A task is yours', state: 'sent', attempts: 1, lastError: null,
    event: 'task_assigned', caseId: null, caseNumber: null, createdAt: '2026-11-19T10:00:00Z', sentAt: '2026-11-19T10:00:05Z', actions: [],
  },
];
const message: OutboxMessage = { ...items[0], bodyText: 'Hello Ana,\nwe received your application.' };

function serve() {
  return mockFetch((url, init) => {
    if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
    if (url === '/api/auth/session') return jsonResponse(sessionFixture);
    if (url.startsWith('/api/mail/outbox?')) {
      const q = new URL(url, 'http://x').searchParams;
      const shown = items.filter((i) => (!q.get('state') || i.state === q.get('state')) && (!q.get('recipient') || i.to.includes(q.get('recipient') as string)));
      return jsonResponse({ items: shown, total: shown.length });
    }
    if (url === '/api/mail/outbox/7' && !init?.method) return jsonResponse(message);
    if (url === '/api/mail/outbox/7/resend' && init?.method === 'POST') return jsonResponse({ ...items[0], state: 'queued', attempts: 0, lastError: null, actions: [] });
    return jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);
  });
}

const listCalls = (fetchMock: ReturnType<typeof serve>) => fetchMock.mock.calls.map(([url]) => String(url)).filter((u) => u.startsWith('/api/mail/outbox?'));

describe('/configuracion/correos', () => {
  test('lists messages newest first with their state; a failed one says why and offers Resend, a sent one does not', async () => {
    setScreenWidth(1366);
    const fetchMock = serve();
    renderApp('/configuracion/correos');
    const table = await screen.findByRole('table', { name: 'Sent email' });
    const failed = (await within(table).findByText('Your application arrived')).closest('tr') as HTMLElement;
    expect(within(failed).getByText('Failed')).toBeInTheDocument();
    expect(within(failed).getByText('Failed: connect ECONNREFUSED 10.0.0.1:25')).toBeInTheDocument();
    expect(within(failed).getByText(/2026-11-0042/)).toBeInTheDocument();
    const sent = within(table).getByText('A task is yours').closest('tr') as HTMLElement;
    expect(within(sent).getByText('Sent')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Resend: Your application arrived' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Resend: A task is yours' })).not.toBeInTheDocument();
    expect(listCalls(fetchMock)[0]).toContain('sortBy=created_at');
    expect(listCalls(fetchMock)[0]).toContain('descending=true');
  });

  test('filters by state and recipient', async () => {
    setScreenWidth(1366);
    const fetchMock = serve();
    renderApp('/configuracion/correos');
    const table = await screen.findByRole('table', { name: 'Sent email' });
    await within(table).findByText('A task is yours');
    fireEvent.mouseDown(screen.getByRole('combobox', { name: /State/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'Failed' }));
    await waitFor(() => expect(within(table).queryByText('A task is yours')).not.toBeInTheDocument());
    expect(listCalls(fetchMock).some((u) => u.includes('state=failed'))).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(await within(table).findByText('A task is yours')).toBeInTheDocument();
    fireEvent.change(screen.getByRole('searchbox', { name: 'Recipient' }), { target: { value: 'bruno' } });
    await waitFor(() => expect(within(table).queryByText('Your application arrived')).not.toBeInTheDocument());
    expect(listCalls(fetchMock).some((u) => u.includes('recipient=bruno'))).toBe(true);
  });

  test('Resend asks first, then queues the message and says so', async () => {
    setScreenWidth(1366);
    const fetchMock = serve();
    renderApp('/configuracion/correos');
    fireEvent.click(await screen.findByRole('button', { name: 'Resend: Your application arrived' }));
    const confirm = await screen.findByRole('dialog', { name: 'Resend this message?' });
    expect(within(confirm).getByText('The message "Your application arrived" will be sent again to ana@example.test.')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/mail/outbox/7/resend')).toBe(false);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Resend' }));
    expect(await screen.findByText('The message is queued to be sent again.')).toBeInTheDocument();
    expect(fetchMock.mock.calls.filter(([url, init]) => url === '/api/mail/outbox/7/resend' && init?.method === 'POST')).toHaveLength(1);
  });

  test('the detail shows the message: its facts, its text part (the API sends no HTML) and Resend', async () => {
    setScreenWidth(1366);
    serve();
    renderApp('/configuracion/correos');
    fireEvent.click(await screen.findByRole('button', { name: 'View: Your application arrived' }));
    const dialog = await screen.findByRole('dialog', { name: 'Your application arrived' });
    expect(await within(dialog).findByText(/we received your application\./)).toBeInTheDocument();
    expect(within(dialog).getByText('ana@example.test')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Resend' })).toBeInTheDocument();
  });

  test('asks again every 10 seconds while a message is queued', async () => {
    setScreenWidth(1366);
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      items.push({ ...items[1], id: 8, subject: 'On its way', state: 'queued', sentAt: null, attempts: 0 });
      const fetchMock = serve();
      renderApp('/configuracion/correos');
      expect(await screen.findByText('Queued')).toBeInTheDocument();
      const before = listCalls(fetchMock).length;
      await vi.advanceTimersByTimeAsync(10_500);
      await waitFor(() => expect(listCalls(fetchMock).length).toBeGreaterThan(before));
    } finally {
      items.pop();
      vi.useRealTimers();
    }
  });

  test('on a phone the filters fold behind the Filters button', async () => {
    setScreenWidth(375);
    serve();
    renderApp('/configuracion/correos');
    await screen.findByText('Your application arrived');
    const filters = screen.getByRole('button', { name: 'Filters' });
    expect(filters).toHaveAttribute('aria-expanded', 'false');
    fireEvent.click(filters);
    expect(filters).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('combobox', { name: /State/ })).toBeVisible();
  });
});
