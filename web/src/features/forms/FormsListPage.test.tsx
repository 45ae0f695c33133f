// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import { jsonResponse, mockFetch, renderApp, sessionFixture, setScreenWidth, settingsFixture } from '../../test/utils.js';
import type { FormSummary } from './api.js';

vi.mock('../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));

const form = (over: Partial<FormSummary>): FormSummary => ({
  id: 1,
  code: 'rental-application',
  name: 'Rental assistance application',
  description: 'Application for emergency rental assistance',
  version: 2,
  fields: 31,
  updatedAt: '2026-02-01T12:00:00Z',
  ...over,
});
const forms = [form({}), form({ id: 2, code: 'eligibility', name: 'Eligibility', version: 1, fields: 3 })];

function serve() {
  return mockFetch((url, init) => {
    if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
    if (url === '/api/auth/session') return jsonResponse(sessionFixture);
    if (url.startsWith('/api/forms?')) return jsonResponse({ items: forms, total: forms.length });
    if (url === '/api/forms/1') return jsonResponse({ ...forms[0], definition: { name: 'x', fields: [] }, inUse: true });
    if (url === '/api/forms/2' && init?.method === 'DELETE') return new Response(null, { status: 204 });
    if (url === '/api/forms/2') return jsonResponse({ ...forms[1], definition: { name: 'x', fields: [] }, inUse: false });
    return jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);
  });
}

describe('/formularios', () => {
  test('lists the forms with a link to the builder and a New form button', async () => {
    setScreenWidth(1366);
    serve();
    renderApp('/formularios');
    const table = await screen.findByRole('table', { name: 'Forms' });
    expect(await within(table).findByRole('link', { name: 'Rental assistance application' })).toHaveAttribute('href', '/formularios/1');
    expect(screen.getByRole('link', { name: 'New form' })).toHaveAttribute('href', '/formularios/nuevo');
  });

  test('a form in use cannot be deleted and says so; another is deleted after a confirmation naming it', async () => {
    setScreenWidth(1366);
    const fetchMock = serve();
    renderApp('/formularios');
    fireEvent.click(await screen.findByRole('button', { name: 'Delete: Rental assistance application' }));
    const warning = await screen.findByRole('dialog');
    expect(warning).toHaveTextContent('The form “Rental assistance application” is in use by tasks or applications and cannot be deleted.');
    fireEvent.click(within(warning).getByRole('button'));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    fireEvent.click(screen.getByRole('button', { name: 'Delete: Eligibility' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete the form?' });
    expect(confirm).toHaveTextContent('The form “Eligibility” (eligibility) will be deleted.');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledWith('/api/forms/2', expect.objectContaining({ method: 'DELETE' })));
    expect(fetchMock).not.toHaveBeenCalledWith('/api/forms/1', expect.objectContaining({ method: 'DELETE' }));
  });
});
