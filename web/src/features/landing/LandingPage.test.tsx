// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import i18n from '../../i18n/index.js';
import { jsonResponse, mockFetch, renderApp, sessionFixture, setScreenWidth, settingsFixture, unauthorized } from '../../test/utils.js';
import { caseDetail, fakeCases, serveCases } from '../cases/case/testServer.js';

vi.mock('../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));

const CODE = 'A'.repeat(42) + 'B';
const PATH = `/landing/900123456/demo-housing-agency/${CODE}`;
const landing = {
  entity: { name: 'Demo Housing Agency', docnumber: '900123456', logo: null },
  number: '2026-11-000042',
  programme: { en: 'Rental assistance', es: 'Ayuda de arriendo' },
  status: 'documents_requested',
  submittedAt: '2026-11-20T15:00:00.000Z',
  updatedAt: '2026-11-22T15:00:00.000Z',
  events: [
    { kind: 'submitted', at: '2026-11-20T15:00:00.000Z', documents: [] },
    { kind: 'documents_requested', at: '2026-11-22T15:00:00.000Z', documents: ['Lease'] },
  ],
  requestedDocuments: [{ name: 'Lease' }],
};

function servePublic(found = true) {
  return mockFetch((url) => {
    if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
    if (url === '/api/auth/session') return unauthorized();
    if (url === `/api${PATH}`) return found ? jsonResponse(landing) : jsonResponse({ error: { code: 'NOT_FOUND', message: 'The requested record was not found.' } }, 404);
    return jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);
  });
}

describe('/landing/{docnumber}/{name}/{code}', () => {
  test('shows the public view of the application without a session, printable, never indexed', async () => {
    setScreenWidth(1366);
    servePublic();
    renderApp(PATH);
    expect(await screen.findByRole('heading', { level: 1, name: 'Application 2026-11-000042' })).toBeInTheDocument();
    expect(screen.getByText('Rental assistance')).toBeInTheDocument();
    expect(screen.getAllByText('Documents requested').length).toBeGreaterThan(0);
    expect(screen.getByRole('heading', { name: 'Documents asked for' })).toBeInTheDocument();
    const steps = screen.getByRole('heading', { name: 'Steps' }).parentElement as HTMLElement;
    expect(within(steps).getAllByRole('listitem')).toHaveLength(2);
    expect(screen.getByRole('button', { name: 'Print' })).toBeInTheDocument();
    expect(document.querySelector('meta#landing-robots')).toHaveAttribute('content', 'noindex, nofollow');
  });

  test('a wrong or revoked code says the page does not exist; in Spanish the programme is the Spanish one', async () => {
    setScreenWidth(320);
    servePublic(false);
    const { unmount } = renderApp(PATH);
    expect(await screen.findByText('This page does not exist, or its link was revoked.')).toBeInTheDocument();
    unmount();
    servePublic();
    await i18n.changeLanguage('es');
    renderApp(PATH);
    expect(await screen.findByRole('heading', { level: 1, name: 'Radicación 2026-11-000042' })).toBeInTheDocument();
    expect(screen.getByText('Ayuda de arriendo')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Imprimir' })).toBeInTheDocument();
    await act(() => i18n.changeLanguage('en'));
  });
});

describe('the case page\'s public link', () => {
  test('staff make a link, open it in a new window (noopener), and revoke it after a confirmation', async () => {
    setScreenWidth(1366);
    const detail = caseDetail({ id: 42, number: '2026-11-000042', state: 'PENDING' });
    const state = fakeCases();
    state.cases.set(42, detail);
    let active = false;
    const calls: string[] = [];
    serveCases(state, sessionFixture, (url, init) => {
      if (url !== '/api/cases/42/landing-link') return undefined;
      calls.push(init?.method ?? 'GET');
      if (init?.method === 'POST') {
        active = true;
        return jsonResponse({ active: true, createdAt: '2026-11-24T12:00:00.000Z', path: PATH }, 201);
      }
      if (init?.method === 'DELETE') {
        active = false;
        return jsonResponse({ active: false, createdAt: null });
      }
      return jsonResponse({ active, createdAt: active ? '2026-11-24T12:00:00.000Z' : null });
    });
    renderApp('/cases/42');
    fireEvent.click(await screen.findByRole('button', { name: 'Public page' }));
    const dialog = await screen.findByRole('dialog', { name: 'Public page of this application' });
    expect(await within(dialog).findByText('There is no public link yet.')).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Make link' }));
    const open = await within(dialog).findByRole('link', { name: 'Open in a new window' });
    expect(open).toHaveAttribute('href', `${window.location.origin}${PATH}`);
    expect(open).toHaveAttribute('target', '_blank');
    expect(open.getAttribute('rel')).toContain('noopener');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Revoke link' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Revoke the public link?' })).getByRole('button', { name: 'Revoke link' }));
    await waitFor(() => expect(calls).toContain('DELETE'));
    expect(await within(dialog).findByText('There is no public link yet.')).toBeInTheDocument();
  });

  test('an applicant sees no public link button on their case', async () => {
    setScreenWidth(1366);
    const state = fakeCases();
    state.cases.set(42, caseDetail({ id: 42, state: 'PENDING' }));
    serveCases(state);
    renderApp('/cases/42');
    await screen.findByRole('heading', { level: 1 });
    await waitFor(() => expect(screen.queryByText('Loading…')).not.toBeInTheDocument());
    expect(screen.queryByRole('button', { name: 'Public page' })).not.toBeInTheDocument();
  });
});
