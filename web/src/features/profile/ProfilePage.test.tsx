// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import { jsonResponse, mockFetch, renderApp, sessionFixture, settingsFixture } from '../../test/utils.js';

vi.mock('../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));

describe('/profile', () => {
  test('a profile that cannot be read says why in its section, and Retry loads it into the form', async () => {
    let calls = 0;
    mockFetch((url) => {
      if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
      if (url === '/api/auth/session') return jsonResponse(sessionFixture);
      if (url === '/api/profile') {
        calls += 1;
        if (calls === 1) return jsonResponse({ error: { code: 'FORBIDDEN', message: 'You cannot read this profile now' } }, 403);
        return jsonResponse({ name: 'Demo Coordinator', language: 'en', timeZone: 'America/New_York', email: 'coordinator@demo.test', docnumber: null });
      }
      return jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);
    });
    renderApp('/profile');
    const details = await screen.findByRole('region', { name: 'Your details' });
    expect(await within(details).findByRole('alert')).toHaveTextContent('You cannot read this profile now');
    // The password form does not wait for the profile.
    expect(screen.getByRole('region', { name: 'Change password' })).toBeInTheDocument();
    fireEvent.click(within(details).getByRole('button', { name: 'Retry' }));
    expect(await within(details).findByDisplayValue('Demo Coordinator')).toBeInTheDocument();
    expect(within(details).queryByRole('alert')).not.toBeInTheDocument();
    expect(calls).toBe(2);
  });
});
