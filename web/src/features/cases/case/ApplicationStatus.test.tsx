// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { act, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, test, vi } from 'vitest';
import i18n from '../../../i18n/index.js';
import { jsonResponse, renderApp, setScreenWidth } from '../../../test/utils.js';
import type { CaseDetail, PublicTimeline } from '../api.js';
import { applicantSession, caseDetail, fakeCases, serveCases } from './testServer.js';

vi.mock('../../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));

const returnedTimeline: PublicTimeline = {
  status: 'returned',
  submittedAt: '2026-11-20T14:00:00.000Z',
  updatedAt: '2026-11-22T10:00:00.000Z',
  events: [
    { kind: 'submitted', at: '2026-11-20T14:00:00.000Z', documents: [] },
    { kind: 'in_review', at: '2026-11-21T09:00:00.000Z', documents: [] },
    { kind: 'documents_requested', at: '2026-11-21T12:00:00.000Z', documents: ['Check stubs'] },
    { kind: 'returned', at: '2026-11-22T10:00:00.000Z', documents: ['Lease (all pages)'] },
  ],
  requestedDocuments: [
    { code: 'lease', name: 'Lease (all pages)', source: 'correction' },
    { code: 'check_stubs', name: 'Check stubs', source: 'checklist' },
  ],
};

/** The applicant's case 42 and its public timeline; the other sections of the page answer nothing. */
function serve(detail: CaseDetail, timeline: PublicTimeline, session = applicantSession) {
  const state = fakeCases();
  state.cases.set(detail.id, detail);
  return serveCases(state, session, (url) => {
    if (url === `/api/cases/${detail.id}/public-timeline`) return jsonResponse(timeline);
    if (url.startsWith(`/api/cases/${detail.id}/comments`)) return jsonResponse({ items: [], tools: { internal: false, checklist: false, mentions: false } });
    if (url === `/api/cases/${detail.id}/checklist`) return jsonResponse({ items: [] });
    return undefined;
  });
}

afterEach(async () => {
  setScreenWidth(1280);
  await act(async () => {
    await i18n.changeLanguage('en');
  });
});

describe("the applicant's view of their application", () => {
  test('shows the status in plain words, its dates, the documents asked and the public steps (English)', async () => {
    serve(caseDetail({ actions: ['resubmit'] }), returnedTimeline);
    renderApp('/cases/42');
    const panel = await screen.findByRole('region', { name: 'Your application' });
    expect(await within(panel).findByText('Your application was returned to you: correct what was asked and send it again.')).toBeInTheDocument();
    // The header's chip speaks the public word, not the internal state.
    expect(screen.getAllByText('Returned for correction').length).toBeGreaterThan(0);
    expect(screen.queryByText('Pending')).not.toBeInTheDocument();
    expect(within(panel).getByRole('link', { name: 'Correct your application' })).toHaveAttribute('href', '/cases/42/correct');
    const docs = within(panel).getByRole('region', { name: 'Documents we need' });
    expect(docs).toHaveTextContent('Lease (all pages) (asked in the correction request)');
    expect(docs).toHaveTextContent('Check stubs (asked in a message)');
    const steps = within(within(panel).getByRole('region', { name: 'Progress' })).getAllByRole('listitem');
    expect(steps.map((s) => s.querySelector('p')?.textContent)).toEqual(['Submitted', 'Review started', 'Documents requested', 'Returned for correction']);
    expect(steps[2]).toHaveTextContent('Check stubs');
  });

  test('in Spanish, on a 320 px phone: the same view first on the page', async () => {
    setScreenWidth(320);
    await act(async () => {
      await i18n.loadLanguages('es');
      await i18n.changeLanguage('es');
    });
    serve(caseDetail(), { ...returnedTimeline, status: 'in_review', events: returnedTimeline.events.slice(0, 2), requestedDocuments: [] });
    renderApp('/cases/42');
    const panel = await screen.findByRole('region', { name: 'Su radicación' });
    expect(await within(panel).findByText('El personal está revisando su radicación. Por ahora no necesita hacer nada.')).toBeInTheDocument();
    expect(within(panel).getByText('No se solicitan documentos por ahora.')).toBeInTheDocument();
    const steps = within(within(panel).getByRole('region', { name: 'Avance' })).getAllByRole('listitem');
    expect(steps.map((s) => s.querySelector('p')?.textContent)).toEqual(['Enviada', 'Comenzó la revisión']);
    expect(within(panel).queryByRole('link', { name: 'Corregir su radicación' })).not.toBeInTheDocument();
    // On a phone the applicant's view comes before the form's data.
    const data = screen.getByRole('region', { name: 'Datos de la radicación' });
    expect(panel.compareDocumentPosition(data) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  test("staff (and someone else's case) see the case as before, without the applicant's view or its request", async () => {
    const fetchMock = serve(caseDetail({ ownerId: 99 }), returnedTimeline);
    renderApp('/cases/42');
    expect(await screen.findByRole('heading', { level: 1, name: 'Application 2026-11-000042' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Your application' })).not.toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => String(url).endsWith('/public-timeline'))).toBe(false);
  });
});
