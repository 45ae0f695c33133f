// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import { clearToasts } from '../../../components/feedback/toastStore.js';
import i18n from '../../../i18n/index.js';
import { jsonResponse, renderApp, sessionFixture } from '../../../test/utils.js';
import type { CaseDetail, Correction } from '../api.js';
import { body, caseDetail, fakeCases, serveCases } from './testServer.js';

vi.mock('../../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));

const CHECKLIST = {
  items: [
    { code: 'lease', name: 'Lease (all pages)', mark: null, commentNumber: null, fileId: null, byName: null, at: null },
    { code: 'check_stubs', name: 'Check stubs', mark: null, commentNumber: null, fileId: null, byName: null, at: null },
  ],
};
const correction = (over: Partial<Correction> = {}): Correction => ({
  id: 5,
  state: 'open',
  reason: 'The lease is unsigned.',
  fields: ['payRent'],
  documents: [{ code: 'lease', name: 'Lease (all pages)' }],
  requestedBy: 'Demo Coordinator',
  requestedAt: '2026-11-21T16:00:00.000Z',
  resubmittedAt: null,
  ...over,
});

/** Staff's view of an open case: the return posts as the server would take it, or answers `refuse` once. */
function serve(detail: CaseDetail, refuse?: () => Response) {
  const state = fakeCases();
  state.cases.set(detail.id, detail);
  const posted: Array<{ url: string; body: Record<string, unknown> }> = [];
  serveCases(state, sessionFixture, (url, init) => {
    if (url === `/api/cases/${detail.id}/checklist`) return jsonResponse(CHECKLIST);
    if (url === `/api/cases/${detail.id}/correction` && init?.method === 'POST') {
      posted.push({ url, body: body(init) });
      const answer = refuse?.();
      if (answer) return answer;
      const sent = body(init) as { reason: string; fields: string[]; documents: string[] };
      const current = state.cases.get(detail.id) as CaseDetail;
      const documents = sent.documents.map((code) => ({ code, name: CHECKLIST.items.find((i) => i.code === code)?.name ?? code }));
      state.cases.set(detail.id, {
        ...current,
        version: current.version + 1,
        correction: correction({ reason: sent.reason, fields: sent.fields, documents }),
        actions: current.actions.filter((a) => a !== 'returnForCorrection').concat('cancelCorrection'),
      });
      return jsonResponse({ version: current.version + 1 }, 201);
    }
    if (url === `/api/cases/${detail.id}/correction/cancel` && init?.method === 'POST') {
      posted.push({ url, body: body(init) });
      const current = state.cases.get(detail.id) as CaseDetail;
      state.cases.set(detail.id, { ...current, correction: null, actions: current.actions.filter((a) => a !== 'cancelCorrection').concat('returnForCorrection') });
      return jsonResponse({ version: current.version + 1 });
    }
    return undefined;
  });
  return { posted, state };
}

const toolbar = () => screen.getByRole('toolbar', { name: 'Application actions' });
const openCase = () => caseDetail({ actions: ['complete', 'close', 'editData', 'returnForCorrection'] });

describe('Return for correction (staff)', () => {
  test('asks for a reason and something to fix, with a summary linking to each problem; then sends what was chosen and shows the request', async () => {
    const { posted } = serve(openCase());
    renderApp('/cases/42');
    fireEvent.click(await within(await waitFor(toolbar)).findByRole('button', { name: 'Return for correction' }));
    const dialog = await screen.findByRole('dialog', { name: 'Return application 2026-11-000042 for correction' });
    // The form's fields (a text block would not be offered) and the checklist's documents.
    for (const name of ['First name', 'Last name', 'Monthly rent', 'Documents']) expect(within(dialog).getByRole('checkbox', { name })).not.toBeChecked();
    expect(await within(dialog).findByRole('checkbox', { name: 'Lease (all pages)' })).toBeInTheDocument();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Return to the applicant' }));
    const summary = await within(dialog).findByRole('alert');
    expect(within(summary).getByRole('heading', { name: 'There is a problem' })).toBeInTheDocument();
    expect(summary).toHaveFocus();
    const problems = within(summary).getAllByRole('button').map((b) => b.textContent);
    expect(problems).toEqual(['Reason: This field is required', 'Fields to correct: Choose at least one field or document to correct']);
    // Each problem is also beside its field, and its link takes the focus there.
    expect(within(dialog).getByText('Choose at least one field or document to correct', { selector: 'p' })).toBeInTheDocument();
    fireEvent.click(within(summary).getByRole('button', { name: 'Reason: This field is required' }));
    expect(within(dialog).getByRole('textbox', { name: 'Reason' })).toHaveFocus();
    expect(posted).toEqual([]);

    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Reason' }), { target: { value: '  The lease is unsigned.  ' } });
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Monthly rent' }));
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Lease (all pages)' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Return to the applicant' }));
    expect(await screen.findByText('The application was returned to its applicant')).toBeInTheDocument();
    expect(posted).toEqual([{ url: '/api/cases/42/correction', body: { reason: 'The lease is unsigned.', fields: ['payRent'], documents: ['lease'], version: 3 } }]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    // The case now says it waits for the applicant: what was asked, when and by whom; staff may cancel it.
    const notice = await screen.findByRole('region', { name: 'Returned for correction' });
    expect(within(notice).getByText('The lease is unsigned.')).toBeInTheDocument();
    expect(within(notice).getByText('Monthly rent')).toBeInTheDocument();
    expect(within(notice).getByText('Lease (all pages)')).toBeInTheDocument();
    expect(within(notice).getByText('By Demo Coordinator on 11/21/2026 11:00')).toBeInTheDocument();
    expect(within(notice).getByText(/The tasks stay where they are/)).toBeInTheDocument();
    expect(within(toolbar()).queryByRole('button', { name: 'Return for correction' })).not.toBeInTheDocument();

    // Toasts show one at a time: the first one goes before the next is looked for.
    act(() => clearToasts());
    fireEvent.click(within(notice).getByRole('button', { name: 'Cancel correction' }));
    const confirm = await screen.findByRole('dialog', { name: 'Cancel the request for correction?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel correction' }));
    expect(await screen.findByText('The request for correction was cancelled')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Returned for correction' })).not.toBeInTheDocument());
    expect(posted.map((p) => p.url)).toEqual(['/api/cases/42/correction', '/api/cases/42/correction/cancel']);
  });

  test("the server's refusal of a document stays in the dialog, beside the documents and in the summary", async () => {
    const refusal = () => jsonResponse({ error: { code: 'VALIDATION', message: 'x', details: [{ path: 'documents', message: '“lease” is not a document of the checklist' }] } }, 400);
    serve(openCase(), refusal);
    renderApp('/cases/42');
    fireEvent.click(await within(await waitFor(toolbar)).findByRole('button', { name: 'Return for correction' }));
    const dialog = await screen.findByRole('dialog', { name: 'Return application 2026-11-000042 for correction' });
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Reason' }), { target: { value: 'Sign it' } });
    fireEvent.click(await within(dialog).findByRole('checkbox', { name: 'Lease (all pages)' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Return to the applicant' }));
    const summary = await within(dialog).findByRole('alert');
    expect(within(summary).getByRole('button', { name: 'Documents to upload: “lease” is not a document of the checklist' })).toBeInTheDocument();
    expect(within(dialog).getByText('“lease” is not a document of the checklist', { selector: 'p' })).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Return application 2026-11-000042 for correction' })).toBeInTheDocument();
  });

  test('in Spanish', async () => {
    const { posted } = serve(openCase());
    await act(async () => {
      await i18n.loadLanguages('es');
      await i18n.changeLanguage('es');
    });
    renderApp('/cases/42');
    const bar = await screen.findByRole('toolbar', { name: 'Acciones de la radicación' });
    fireEvent.click(within(bar).getByRole('button', { name: 'Devolver para corrección' }));
    const dialog = await screen.findByRole('dialog', { name: 'Devolver la radicación 2026-11-000042 para corrección' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Devolver al solicitante' }));
    const summary = await within(dialog).findByRole('alert');
    expect(within(summary).getByRole('heading', { name: 'Hay un problema' })).toBeInTheDocument();
    expect(within(summary).getAllByRole('button').map((b) => b.textContent)).toEqual(['Motivo: Este campo es obligatorio', 'Campos por corregir: Elija al menos un campo o documento por corregir']);
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Motivo' }), { target: { value: 'Falta la firma' } });
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Renta mensual' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Devolver al solicitante' }));
    expect(await screen.findByText('La radicación fue devuelta a su solicitante')).toBeInTheDocument();
    expect(posted[0]?.body).toEqual({ reason: 'Falta la firma', fields: ['payRent'], documents: [], version: 3 });
    const notice = await screen.findByRole('region', { name: 'Devuelta para corrección' });
    expect(within(notice).getByText('Renta mensual')).toBeInTheDocument();
  });

  test('the applicant sees the request and the way to the correction page, without staff buttons', async () => {
    const detail = caseDetail({ actions: ['resubmit'], correction: correction() });
    const state = fakeCases();
    state.cases.set(detail.id, detail);
    serveCases(state);
    renderApp('/cases/42');
    const notice = await screen.findByRole('region', { name: 'Returned for correction' });
    expect(within(notice).getByText(/Please correct what is asked below/)).toBeInTheDocument();
    expect(within(notice).getByRole('link', { name: 'Correct your application' })).toHaveAttribute('href', '/cases/42/correct');
    expect(within(notice).queryByRole('button', { name: 'Cancel correction' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Return for correction' })).not.toBeInTheDocument();
  });
});
