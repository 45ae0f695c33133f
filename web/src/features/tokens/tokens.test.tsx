// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import { jsonResponse, mockFetch, renderApp, sessionFixture, settingsFixture } from '../../test/utils.js';

vi.mock('../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));

const TOKEN = `cbk_${'x'.repeat(43)}`;
const listed = { id: 7, name: 'Nightly export', prefix: 'cbk_abcdef', readOnly: true, expiresAt: '2027-02-25T10:00:00.000Z', lastUsedAt: null, createdAt: '2026-11-27T10:00:00.000Z', expired: false };

describe('API tokens on /profile', () => {
  test('a new token is shown once with how to use it, and revoking asks first, then the list refetches', async () => {
    let items = [listed];
    const posted: unknown[] = [];
    const deleted: string[] = [];
    mockFetch(async (url, init) => {
      if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
      if (url === '/api/auth/session') return jsonResponse(sessionFixture);
      if (url === '/api/profile') return jsonResponse({ name: 'Demo Coordinator', language: 'en', timeZone: 'America/New_York', email: 'c@demo.test', docnumber: null });
      if (url === '/api/notifications/preferences') return jsonResponse({ emailEvents: [], digest: false, events: [] });
      if (url === '/api/profile/tokens' && init?.method === 'POST') {
        posted.push(JSON.parse(String(init.body)));
        const made = { ...listed, id: 8, name: 'CI', readOnly: false, prefix: TOKEN.slice(0, 10), token: TOKEN };
        items = [made, ...items];
        return jsonResponse(made, 201);
      }
      if (url === '/api/profile/tokens') return jsonResponse({ items });
      if (url.startsWith('/api/profile/tokens/') && init?.method === 'DELETE') {
        deleted.push(url);
        items = items.filter((i) => `/api/profile/tokens/${i.id}` !== url);
        return new Response(null, { status: 204 });
      }
      return jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);
    });
    renderApp('/profile');
    const section = await screen.findByRole('region', { name: 'API tokens' });
    const list = await within(section).findByRole('list', { name: 'API tokens' });
    expect(within(list).getByText('Nightly export')).toBeInTheDocument();
    expect(within(list).getByText('Read only')).toBeInTheDocument();
    expect(within(list).getByText(/never used/)).toBeInTheDocument();

    fireEvent.click(within(section).getByRole('button', { name: 'New token' }));
    const dialog = await screen.findByRole('dialog', { name: 'New API token' });
    // A person's token cannot be "never".
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: 'Expires after' }));
    const options = await screen.findAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['7 days', '30 days', '90 days', '180 days', '365 days']);
    fireEvent.click(screen.getByRole('option', { name: '30 days' }));
    // No name: said under the field, nothing sent.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create token' }));
    expect(await within(dialog).findByText('This field is required')).toBeInTheDocument();
    expect(posted).toEqual([]);
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Name' }), { target: { value: 'CI' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create token' }));
    const shown = await screen.findByRole('dialog', { name: 'Token “CI” created' });
    expect(posted).toEqual([{ name: 'CI', expiresInDays: 30, readOnly: false }]);
    expect(within(shown).getByDisplayValue(TOKEN)).toBeInTheDocument();
    expect(within(shown).getByText(/shown only this once/)).toBeInTheDocument();
    expect(within(shown).getByText(new RegExp(`Authorization: Bearer ${TOKEN}`))).toBeInTheDocument();
    fireEvent.click(within(shown).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByDisplayValue(TOKEN)).not.toBeInTheDocument());

    fireEvent.click(await within(section).findByRole('button', { name: 'Revoke Nightly export' }));
    const ask = await screen.findByRole('dialog', { name: 'Revoke this token?' });
    fireEvent.click(within(ask).getByRole('button', { name: 'Cancel' }));
    expect(deleted).toEqual([]);
    fireEvent.click(within(section).getByRole('button', { name: 'Revoke Nightly export' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Revoke this token?' })).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(within(section).queryByText('Nightly export')).not.toBeInTheDocument());
    expect(deleted).toEqual(['/api/profile/tokens/7']);
  });
});
