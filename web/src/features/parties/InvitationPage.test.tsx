// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import { jsonResponse, mockFetch, renderApp, sessionWith, setScreenWidth, settingsFixture, unauthorized } from '../../test/utils.js';
import type { PartyInvitation } from './api.js';

vi.mock('../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));

const TOKEN = 'A'.repeat(40) + 'b_-';
const PATH = `/partes/invitacion/${TOKEN}`;
const invitation: PartyInvitation = {
  entity: { name: 'Demo Housing Agency', docnumber: '900100200' },
  project: 'applications',
  programme: { en: 'Rental assistance', es: 'Ayuda para el arriendo' },
  role: 'landlord',
  caseNumber: '2026-11-000042',
  applicantFirstName: 'Ana',
  partyName: 'Rosa Díaz',
  email: 'rosa@example.org',
  expiresAt: '2026-12-05T17:00:00.000Z',
  valid: true,
};
const dead = (code: string) => jsonResponse({ error: { code, message: 'gone' } }, 410);

function serve(answer: () => Response, signedIn: boolean) {
  const posted: string[] = [];
  const fetchMock = mockFetch((url, init) => {
    const method = init?.method ?? 'GET';
    if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
    if (url === '/api/auth/session') return signedIn ? jsonResponse(sessionWith(['borradores'])) : unauthorized();
    if (url === `/api/parties/invitations/${TOKEN}`) return answer();
    if (url === '/api/public/entities/900100200') return jsonResponse({ error: { code: 'NOT_FOUND', message: 'Not found' } }, 404);
    if (url === `/api/parties/invitations/${TOKEN}/accept` && method === 'POST') {
      posted.push(url);
      return jsonResponse({ partyId: 7, caseId: 42 });
    }
    if (url === '/api/parties/7') return jsonResponse({ error: { code: 'NOT_FOUND', message: 'Not found' } }, 404);
    return jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);
  });
  return { fetchMock, posted };
}

describe('/partes/invitacion/:token', () => {
  test('signed out: who invites them, and sign-up (filled in) or sign-in, both coming back here', async () => {
    setScreenWidth(390);
    serve(() => jsonResponse(invitation), false);
    renderApp(PATH);
    expect(await screen.findByRole('heading', { level: 1, name: 'Ana asks you to complete your part' })).toBeInTheDocument();
    expect(screen.getByText(/Ana named you as landlord in their application to Rental assistance, run by Demo Housing Agency/)).toBeInTheDocument();
    expect(screen.getByText('2026-11-000042')).toBeInTheDocument();
    expect(screen.getByText('Landlord')).toBeInTheDocument();
    expect(screen.getByText('12/05/2026 12:00')).toBeInTheDocument();
    const signUp = await screen.findByRole('link', { name: 'Create an account' });
    const href = new URL(signUp.getAttribute('href') ?? '', 'http://x');
    // In the case's project, whatever project the browser last used.
    expect(href.pathname).toBe('/user/create-account/applications');
    expect(href.searchParams.get('next')).toBe(PATH);
    expect(href.searchParams.get('name')).toBe('Rosa Díaz');
    expect(href.searchParams.get('email')).toBe('rosa@example.org');
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', `/login/applications?next=${encodeURIComponent(PATH)}`);
  });

  test('signed in: Accept takes the link and opens their page', async () => {
    setScreenWidth(1366);
    const { posted } = serve(() => jsonResponse(invitation), true);
    const { router } = renderApp(PATH);
    fireEvent.click(await screen.findByRole('button', { name: 'Accept and continue' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/partes/7'));
    expect(posted).toHaveLength(1);
  });

  test.each([
    ['PARTY_LINK_USED', 'This invitation link was already used', /ask the applicant or the programme to send you a new link/],
    ['PARTY_LINK_EXPIRED', 'This invitation link has expired', /Ask the applicant or the programme to send you a new link/],
  ])('a dead link (%s) says so and what to do', async (code, title, what) => {
    setScreenWidth(1366);
    serve(() => dead(code), false);
    renderApp(PATH);
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
    expect(screen.getByText(what)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Accept and continue' })).not.toBeInTheDocument();
  });
});
