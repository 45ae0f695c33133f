// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import { jsonResponse, mockFetch, renderApp, sessionFixture, sessionWith, setScreenWidth, settingsFixture } from '../../test/utils.js';
import type { DeliveryItem, WebhookItem } from './api.js';

vi.mock('../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));

const ALL = ['edit', 'delete', 'test', 'rotate', 'revealSecret'] as const;
const SECRET = `whsec_${'A'.repeat(43)}=`;
const finance: WebhookItem = {
  id: 3, url: 'https://finance.example.org/hooks', description: 'Payments', events: ['task.accepted', 'case.state_changed'],
  protocols: [{ id: 9, code: 'RENT', name: 'Rental assistance' }], enabled: true, disabledReason: null, disabledAt: null, failingSince: null,
  secretHint: 'whsec_AAAA…', previousSecretUntil: null, lastDelivery: { state: 'delivered', status: 200, at: '2026-11-20T10:00:05Z' },
  createdAt: '2026-11-01T10:00:00Z', updatedAt: '2026-11-01T10:00:00Z', version: 2, actions: [...ALL],
};
const bi: WebhookItem = {
  ...finance, id: 4, url: 'https://bi.example.org/in', description: '', events: ['case.created'], protocols: [], enabled: false, disabledReason: 'failing',
  disabledAt: '2026-11-19T08:00:00Z', failingSince: '2026-11-18T08:00:00Z', lastDelivery: { state: 'failed', status: 503, at: '2026-11-19T08:00:00Z' },
};
const delivered: DeliveryItem = {
  id: 71, messageId: 'msg_2f1c', eventType: 'task.accepted', caseId: 42, caseNumber: '2026-11-0042', state: 'delivered', attempts: 1, lastStatus: 200,
  lastResponse: '{"ok":true}', lastError: null, lastAttemptAt: '2026-11-20T10:00:05Z', nextAttemptAt: null, deliveredAt: '2026-11-20T10:00:05Z',
  createdAt: '2026-11-20T10:00:04Z', payload: { type: 'task.accepted', data: { task: { id: 5, name: 'Review', state: 'ACCEPTED' } } }, actions: ['redeliver'],
};
const failed: DeliveryItem = {
  ...delivered, id: 70, messageId: 'msg_1a0b', eventType: 'case.state_changed', state: 'pending', attempts: 3, lastStatus: null, lastResponse: null,
  lastError: 'could not connect: ECONNREFUSED', nextAttemptAt: '2026-11-20T10:05:00Z', deliveredAt: null, createdAt: '2026-11-20T09:00:00Z',
};

function serve(options: { webhooks?: WebhookItem[]; session?: typeof sessionFixture; notifications?: unknown } = {}) {
  let webhooks = options.webhooks ?? [finance, bi];
  const bodies: Array<{ url: string; method: string; body: unknown }> = [];
  const fetchMock = mockFetch((url, init) => {
    const method = init?.method ?? 'GET';
    if (init?.body) bodies.push({ url, method, body: JSON.parse(String(init.body)) });
    else if (method !== 'GET') bodies.push({ url, method, body: null });
    if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
    if (url === '/api/auth/session') return jsonResponse(options.session ?? sessionFixture);
    if (url === '/api/notifications' && options.notifications) return jsonResponse(options.notifications);
    if (url.startsWith('/api/webhooks?')) return jsonResponse({ items: webhooks, total: webhooks.length });
    if (url === '/api/webhooks/protocol-options') return jsonResponse([{ id: 9, code: 'RENT', name: 'Rental assistance' }, { id: 10, code: 'FOOD', name: 'Food aid' }]);
    if (url.startsWith('/api/webhooks/3/deliveries?')) return jsonResponse({ items: [delivered, failed], total: 2 });
    if (url.startsWith('/api/webhooks/4/deliveries?')) return jsonResponse({ items: [], total: 0 });
    if (url === '/api/webhooks' && method === 'POST') {
      const body = JSON.parse(String(init?.body));
      if (body.url.includes('10.0.0.5')) {
        return jsonResponse(
          { error: { code: 'VALIDATION', message: 'Some values are not valid', details: [{ path: 'url', message: '10.0.0.5 is a private, loopback or link-local address: webhooks go only to public addresses, or to hosts the server\'s operator allowed.' }] } },
          400,
        );
      }
      const made = { ...finance, id: 5, url: body.url, description: body.description, events: body.events, protocols: [], lastDelivery: null, secret: SECRET };
      webhooks = [made, ...webhooks];
      return jsonResponse(made, 201);
    }
    if (url === '/api/webhooks/3/test' && method === 'POST') return jsonResponse({ ...delivered, id: 72, eventType: 'webhook.test', state: 'pending', attempts: 0 }, 202);
    if (url === '/api/webhooks/3/deliveries/70/redeliver' && method === 'POST') return jsonResponse({ ...failed, nextAttemptAt: '2026-11-20T10:00:00Z' }, 202);
    if (url === '/api/webhooks/3/secret' && method === 'GET') return jsonResponse({ secret: SECRET });
    if (url === '/api/webhooks/3/secret' && method === 'POST') return jsonResponse({ ...finance, secret: `whsec_${'B'.repeat(43)}=`, previousSecretUntil: '2026-11-21T10:00:00Z' });
    if (url === '/api/webhooks/4' && method === 'DELETE') {
      webhooks = webhooks.filter((w) => w.id !== 4);
      return new Response(null, { status: 204 });
    }
    return jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);
  });
  return { fetchMock, bodies };
}

const calls = (fetchMock: ReturnType<typeof mockFetch>, url: string, method = 'POST') => fetchMock.mock.calls.filter(([u, init]) => u === url && (init?.method ?? 'GET') === method);

describe('/configuracion/webhooks', () => {
  test('lists the subscriptions with their events, protocols, state and last delivery, and the deliveries of the first with their answers', async () => {
    setScreenWidth(1366);
    serve();
    renderApp('/configuracion/webhooks');
    const table = await screen.findByRole('table', { name: 'Webhook subscriptions' });
    const row = (await within(table).findByText('https://finance.example.org/hooks')).closest('tr') as HTMLElement;
    expect(within(row).getByText('Payments')).toBeInTheDocument();
    expect(within(row).getByText('Task accepted, Application state changed')).toBeInTheDocument();
    expect(within(row).getByText('Rental assistance')).toBeInTheDocument();
    expect(within(row).getByText('On')).toBeInTheDocument();
    expect(within(row).getByText('Delivered · 200')).toBeInTheDocument();
    const off = within(table).getByText('https://bi.example.org/in').closest('tr') as HTMLElement;
    expect(within(off).getByText('Turned off: failing')).toBeInTheDocument();
    expect(within(off).getByText('All protocols')).toBeInTheDocument();
    // The failing one is called out above the list.
    expect(screen.getByText(/after a day of failed deliveries/)).toBeInTheDocument();

    const deliveries = await screen.findByRole('region', { name: 'Deliveries to https://finance.example.org/hooks' });
    const list = await within(deliveries).findByRole('table', { name: 'Deliveries' });
    const ok = (await within(list).findByText('Task accepted')).closest('tr') as HTMLElement;
    expect(within(ok).getByText('Delivered')).toBeInTheDocument();
    expect(within(ok).getByText('200')).toBeInTheDocument();
    expect(within(ok).getByText(/2026-11-0042/)).toBeInTheDocument();
    const waiting = within(list).getByText('Application state changed').closest('tr') as HTMLElement;
    expect(within(waiting).getByText('Pending')).toBeInTheDocument();
    expect(within(waiting).getByText('could not connect: ECONNREFUSED')).toBeInTheDocument();
    expect(within(waiting).getByText(/Next try/)).toBeInTheDocument();

    // One delivery's answer and body.
    fireEvent.click(within(ok).getByRole('button', { name: 'View: Task accepted 71' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delivery of Task accepted' });
    expect(within(dialog).getByText('msg_2f1c')).toBeInTheDocument();
    expect(within(dialog).getByText('{"ok":true}')).toBeInTheDocument();
    expect(within(dialog).getByText(/"name": "Review"/)).toBeInTheDocument();

    // Another subscription's deliveries: its empty state.
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    fireEvent.click(within(off).getByRole('button', { name: 'Show deliveries: https://bi.example.org/in' }));
    const empty = await screen.findByRole('region', { name: 'Deliveries to https://bi.example.org/in' });
    expect(await within(empty).findByText('No deliveries yet. Send a test event to try the receiver.')).toBeInTheDocument();
  });

  test('without subscriptions it says so; a reader sees no buttons that change anything', async () => {
    setScreenWidth(1366);
    serve({ webhooks: [], session: sessionWith(['menu_configuracion'], { rules: { menu_configuracion: ['show'] } }) });
    renderApp('/configuracion/webhooks');
    expect(await screen.findByText(/No webhook subscriptions yet/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New subscription' })).not.toBeInTheDocument();
  });

  test('a new subscription: checked as the server checks it, sent, then its secret is shown', async () => {
    setScreenWidth(1366);
    const { fetchMock, bodies } = serve();
    renderApp('/configuracion/webhooks');
    fireEvent.click(await screen.findByRole('button', { name: 'New subscription' }));
    const dialog = await screen.findByRole('dialog', { name: 'New webhook subscription' });
    const url = within(dialog).getByRole('textbox', { name: /Receiver URL/ });

    // Credentials in the URL and no event: said under the fields, nothing sent.
    fireEvent.change(url, { target: { value: 'https://user:pass@hooks.example.org/x' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('The address cannot hold a user name or password: the receiver checks the signature instead.')).toBeInTheDocument();
    expect(within(dialog).getByText('Choose at least one event.')).toBeInTheDocument();
    expect(calls(fetchMock, '/api/webhooks')).toHaveLength(0);

    // A private address passes the browser's check; the server's refusal lands under the field.
    fireEvent.change(url, { target: { value: 'http://10.0.0.5/hook' } });
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Task accepted' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(/10\.0\.0\.5 is a private, loopback or link-local address/)).toBeInTheDocument();

    fireEvent.change(url, { target: { value: 'https://erp.example.org/casebook' } });
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Comment added' }));
    fireEvent.change(within(dialog).getByRole('textbox', { name: /Description/ }), { target: { value: 'ERP' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    const shown = await screen.findByRole('dialog', { name: 'Secret for https://erp.example.org/casebook' });
    expect(within(shown).getByDisplayValue(SECRET)).toBeInTheDocument();
    const posted = bodies.filter((b) => b.url === '/api/webhooks' && b.method === 'POST').map((b) => b.body);
    expect(posted.at(-1)).toEqual({ url: 'https://erp.example.org/casebook', description: 'ERP', events: ['task.accepted', 'comment.added'], protocolIds: [], enabled: true });
    fireEvent.click(within(shown).getByRole('button', { name: 'Done' }));
    const table = screen.getByRole('table', { name: 'Webhook subscriptions' });
    expect(await within(table).findByText('https://erp.example.org/casebook')).toBeInTheDocument();
  });

  test('send a test event; redeliver and delete ask first; the secret is shown and rotated on demand', async () => {
    setScreenWidth(1366);
    const { fetchMock } = serve();
    renderApp('/configuracion/webhooks');
    fireEvent.click(await screen.findByRole('button', { name: 'Send a test event: https://finance.example.org/hooks' }));
    expect(await screen.findByText('Test event queued: it is sent in a few seconds.')).toBeInTheDocument();
    expect(calls(fetchMock, '/api/webhooks/3/test')).toHaveLength(1);

    const deliveries = await screen.findByRole('region', { name: 'Deliveries to https://finance.example.org/hooks' });
    fireEvent.click(await within(deliveries).findByRole('button', { name: 'Redeliver: Application state changed 70' }));
    const confirm = await screen.findByRole('dialog', { name: 'Send this delivery again?' });
    expect(within(confirm).getByText('The Application state changed event will be sent to https://finance.example.org/hooks again, with the same webhook-id.')).toBeInTheDocument();
    expect(calls(fetchMock, '/api/webhooks/3/deliveries/70/redeliver')).toHaveLength(0);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Redeliver' }));
    expect(await screen.findByText('The delivery is queued to be sent again.')).toBeInTheDocument();
    expect(calls(fetchMock, '/api/webhooks/3/deliveries/70/redeliver')).toHaveLength(1);

    // Delete: Cancel keeps it, Delete removes it.
    fireEvent.click(screen.getByRole('button', { name: 'Delete: https://bi.example.org/in' }));
    let ask = await screen.findByRole('dialog', { name: 'Delete this subscription?' });
    fireEvent.click(within(ask).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Delete this subscription?' })).not.toBeInTheDocument());
    expect(calls(fetchMock, '/api/webhooks/4', 'DELETE')).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Delete: https://bi.example.org/in' }));
    ask = await screen.findByRole('dialog', { name: 'Delete this subscription?' });
    fireEvent.click(within(ask).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Subscription deleted.')).toBeInTheDocument();
    expect(calls(fetchMock, '/api/webhooks/4', 'DELETE')).toHaveLength(1);
    await waitFor(() => expect(screen.queryByText('https://bi.example.org/in')).not.toBeInTheDocument());

    fireEvent.click(screen.getByRole('button', { name: 'Show secret: https://finance.example.org/hooks' }));
    let secret = await screen.findByRole('dialog', { name: 'Secret for https://finance.example.org/hooks' });
    expect(within(secret).getByDisplayValue(SECRET)).toBeInTheDocument();
    fireEvent.click(within(secret).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Secret for https://finance.example.org/hooks' })).not.toBeInTheDocument());

    fireEvent.click(screen.getByRole('button', { name: 'Rotate secret: https://finance.example.org/hooks' }));
    const rotate = await screen.findByRole('dialog', { name: 'Rotate the secret?' });
    fireEvent.click(within(rotate).getByRole('button', { name: 'Rotate secret' }));
    secret = await screen.findByRole('dialog', { name: 'Secret for https://finance.example.org/hooks' });
    expect(within(secret).getByDisplayValue(`whsec_${'B'.repeat(43)}=`)).toBeInTheDocument();
    expect(within(secret).getByText(/The previous secret also signs until/)).toBeInTheDocument();
    expect(calls(fetchMock, '/api/webhooks/3/secret')).toHaveLength(1);
  });

  test('on a phone the subscriptions and deliveries are cards, and the form is a full-screen dialog', async () => {
    setScreenWidth(375);
    serve();
    renderApp('/configuracion/webhooks');
    const cards = await screen.findByRole('list', { name: 'Webhook subscriptions' });
    expect(await within(cards).findAllByRole('listitem')).toHaveLength(2);
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    const deliveries = await screen.findByRole('list', { name: 'Deliveries' });
    expect(await within(deliveries).findByText('Task accepted')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'New subscription' }));
    const dialog = await screen.findByRole('dialog', { name: 'New webhook subscription' });
    expect(dialog.className).toMatch(/FullScreen/);
  });

  test("the administrators' notice of a subscription turned off says so in the bell and opens this page", async () => {
    setScreenWidth(1366);
    serve({
      notifications: {
        unread: 1,
        items: [{ id: 30, kind: 'webhook_disabled', caseId: null, caseNumber: null, taskId: null, taskName: null, detail: 'https://bi.example.org/in', commentId: null, importId: null, count: null, byName: null, createdAt: '2026-11-19T08:00:00.000Z', readAt: null }],
      },
    });
    renderApp('/home');
    fireEvent.click(await screen.findByRole('button', { name: 'Notifications, 1 unread' }));
    const [item] = within(await screen.findByRole('menu')).getAllByRole('menuitem');
    expect(item).toHaveTextContent('A webhook subscription was turned off after a day of failed deliveries');
    expect(item).toHaveTextContent('https://bi.example.org/in');
    expect(item).toHaveAttribute('href', '/configuracion/webhooks');
  });
});
