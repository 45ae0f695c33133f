// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import i18n from '../../../i18n/index.js';
import { jsonResponse, renderApp, sessionFixture } from '../../../test/utils.js';
import type { CaseDetail, Correction } from '../api.js';
import { applicantSession, body, caseDetail, fakeCases, serveCases } from './testServer.js';

vi.mock('../../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));
// Uploads go to the files module by XHR, which jsdom does not serve: the stored file comes back at once.
vi.mock('../../forms/api.js', async (original) => ({
  ...(await original<typeof import('../../forms/api.js')>()),
  uploadFile: vi.fn(async (file: File) => ({ id: '0b6a2c1e-8d1f-4c53-9a55-2f9b4c3d1e01', name: file.name, size: file.size })),
}));

const correction: Correction = {
  id: 5,
  state: 'open',
  reason: 'The lease is missing its signature page.',
  fields: ['payRent'],
  documents: [{ code: 'lease', name: 'Lease (all pages)' }],
  requestedBy: 'Carla Coordinator',
  requestedAt: '2026-11-21T16:00:00.000Z',
  resubmittedAt: null,
};
const returned = () => caseDetail({ actions: ['resubmit'], correction });

/** The applicant's case; the resubmission answers `answer` (by default as the server would: the request ends). */
function serve(detail: CaseDetail, answer?: () => Response) {
  const state = fakeCases();
  state.cases.set(detail.id, detail);
  const posted: Array<Record<string, unknown>> = [];
  serveCases(state, applicantSession, (url, init) => {
    if (url === `/api/cases/${detail.id}/correction/resubmit` && init?.method === 'POST') {
      posted.push(body(init));
      const refused = answer?.();
      if (refused) return refused;
      state.cases.set(detail.id, { ...detail, correction: null, actions: [], version: detail.version + 1 });
      return jsonResponse({ version: detail.version + 1 });
    }
    return undefined;
  });
  return posted;
}

const chooseFile = (name: string) => {
  const input = document.querySelector('input[type="file"]') as HTMLInputElement;
  fireEvent.change(input, { target: { files: [new File(['%PDF-1.4'], name, { type: 'application/pdf' })] } });
};

describe('/cases/:id/correct', () => {
  test('shows the reason, only the asked field and document editable, the rest read-only; refuses a missing document with a summary; sends the correction and confirms it', async () => {
    const posted = serve(returned());
    renderApp('/cases/42/correct');
    expect(await screen.findByRole('heading', { level: 1, name: 'Correct application 2026-11-000042' })).toBeInTheDocument();
    expect(screen.getByText('The lease is missing its signature page.')).toBeInTheDocument();
    expect(screen.getByText('By Carla Coordinator on 11/21/2026 11:00')).toBeInTheDocument();

    const edit = screen.getByRole('region', { name: 'What to correct' });
    expect(within(edit).getByLabelText(/Monthly rent/)).toHaveValue('1200');
    // Only what was asked: the names are not editable here.
    expect(within(edit).queryByLabelText(/First name/)).not.toBeInTheDocument();
    expect(within(edit).getByRole('group', { name: /Lease \(all pages\)/ })).toBeInTheDocument();
    const asSent = screen.getByRole('region', { name: 'Your application as it was sent' });
    expect(within(asSent).getByText('Ortega')).toBeInTheDocument();
    expect(within(asSent).queryByRole('textbox')).not.toBeInTheDocument();

    fireEvent.click(within(edit).getByRole('button', { name: 'Send corrected application' }));
    const summary = await screen.findByRole('alert');
    expect(within(summary).getByRole('heading', { name: 'There is a problem' })).toBeInTheDocument();
    expect(within(summary).getAllByRole('button').map((b) => b.textContent)).toEqual(['Lease (all pages): This field is required']);
    expect(posted).toEqual([]);

    fireEvent.change(within(edit).getByLabelText(/Monthly rent/), { target: { value: '950' } });
    chooseFile('lease-signed.pdf');
    expect(await within(edit).findByRole('button', { name: 'Download lease-signed.pdf' })).toBeInTheDocument();
    fireEvent.click(within(edit).getByRole('button', { name: 'Send corrected application' }));

    const done = await screen.findByRole('heading', { level: 2, name: 'Your corrected application was sent' });
    await waitFor(() => expect(done).toHaveFocus());
    expect(screen.getByRole('link', { name: 'Back to your application' })).toHaveAttribute('href', '/cases/42');
    expect(posted).toEqual([
      {
        data: { payRent: 950 },
        documents: [{ code: 'lease', files: [{ id: '0b6a2c1e-8d1f-4c53-9a55-2f9b4c3d1e01', name: 'lease-signed.pdf', size: 8 }] }],
        version: 3,
      },
    ]);
  });

  test("the server's refusal shows beside the field and in the summary; nothing is lost", async () => {
    const refusal = () =>
      jsonResponse({ error: { code: 'VALIDATION', message: 'x', details: [{ path: 'payRent', message: 'The value must be at most 5000' }, { path: 'documents.lease', message: 'Upload a file for “Lease (all pages)”' }] } }, 400);
    serve(returned(), refusal);
    renderApp('/cases/42/correct');
    const edit = await screen.findByRole('region', { name: 'What to correct' });
    fireEvent.change(within(edit).getByLabelText(/Monthly rent/), { target: { value: '9000' } });
    chooseFile('lease.pdf');
    await within(edit).findByRole('button', { name: 'Download lease.pdf' });
    fireEvent.click(within(edit).getByRole('button', { name: 'Send corrected application' }));
    const summary = await screen.findByRole('alert');
    expect(within(summary).getAllByRole('button').map((b) => b.textContent)).toEqual([
      'Monthly rent: The value must be at most 5000',
      'Lease (all pages): Upload a file for “Lease (all pages)”',
    ]);
    expect(within(edit).getByText('The value must be at most 5000')).toBeInTheDocument();
    expect(within(edit).getByLabelText(/Monthly rent/)).toHaveValue('9000');
    fireEvent.click(within(summary).getByRole('button', { name: 'Monthly rent: The value must be at most 5000' }));
    await waitFor(() => expect(within(edit).getByLabelText(/Monthly rent/)).toHaveFocus());
  });

  test('in Spanish', async () => {
    const posted = serve(returned());
    await act(async () => {
      await i18n.loadLanguages('es');
      await i18n.changeLanguage('es');
    });
    renderApp('/cases/42/correct');
    expect(await screen.findByRole('heading', { level: 1, name: 'Corregir la solicitud 2026-11-000042' })).toBeInTheDocument();
    expect(screen.getByText('Por Carla Coordinator el 11/21/2026 11:00')).toBeInTheDocument();
    const edit = screen.getByRole('region', { name: 'Qué corregir' });
    expect(within(edit).getByLabelText(/Renta mensual/)).toHaveValue('1200');
    fireEvent.click(within(edit).getByRole('button', { name: 'Enviar la solicitud corregida' }));
    const summary = await screen.findByRole('alert');
    expect(within(summary).getByRole('heading', { name: 'Hay un problema' })).toBeInTheDocument();
    expect(within(summary).getAllByRole('button').map((b) => b.textContent)).toEqual(['Lease (all pages): Este campo es obligatorio']);
    chooseFile('contrato.pdf');
    await within(edit).findByText('contrato.pdf');
    fireEvent.click(within(edit).getByRole('button', { name: 'Enviar la solicitud corregida' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Su solicitud corregida fue enviada' })).toBeInTheDocument();
    expect(posted[0]?.data).toEqual({ payRent: 1200 });
  });

  test('an application with no open request says so and leads back', async () => {
    serve(caseDetail());
    renderApp('/cases/42/correct');
    expect(await screen.findByText('This application has no open request for correction.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the application' })).toHaveAttribute('href', '/cases/42');
    expect(screen.queryByRole('button', { name: 'Send corrected application' })).not.toBeInTheDocument();
  });

  test('staff who open it are told that only the applicant corrects it', async () => {
    const state = fakeCases();
    state.cases.set(42, caseDetail({ actions: ['cancelCorrection'], correction }));
    serveCases(state, sessionFixture);
    renderApp('/cases/42/correct');
    expect(await screen.findByText('Only the applicant can correct this application and send it back.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send corrected application' })).not.toBeInTheDocument();
  });
});
