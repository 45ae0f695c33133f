// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import { jsonResponse, mockFetch, renderApp, sessionWith, setScreenWidth, settingsFixture } from '../../test/utils.js';
import type { PartyPage } from './api.js';

vi.mock('../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));

const page: PartyPage = {
  id: 7,
  role: 'landlord',
  state: 'joined',
  name: 'Rosa Díaz',
  email: 'rosa@example.org',
  phone: null,
  deadlineAt: '2026-12-05T17:00:00.000Z',
  submittedAt: null,
  case: {
    number: '2026-11-000042',
    state: 'PENDING',
    programme: { en: 'Rental assistance', es: 'Ayuda para el arriendo' },
    entity: { name: 'Demo Housing Agency' },
    applicantFirstName: 'Ana',
  },
  timeline: { status: 'in_review', submittedAt: '2026-11-20T15:00:00.000Z', updatedAt: '2026-11-21T15:00:00.000Z', events: [{ kind: 'submitted', at: '2026-11-20T15:00:00.000Z', documents: [] }], requestedDocuments: [] },
  form: {
    versionId: 3,
    definition: { name: 'Landlord', fields: [{ name: 'monthlyRent', type: 'currency', label: 'Renta mensual', label_en: 'Monthly rent', required: true }] },
  },
  values: { monthlyRent: 950 },
  attestation: { en: 'I certify that the tenancy and the arrears are true.', es: 'Certifico que el arriendo y la deuda son ciertos.' },
  paymentRequired: true,
  payment: null,
  signature: null,
  actions: ['save', 'submit'],
};

function serve() {
  const sent: unknown[] = [];
  mockFetch((url, init) => {
    const method = init?.method ?? 'GET';
    if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
    if (url === '/api/auth/session') return jsonResponse(sessionWith(['borradores']));
    if (url === '/api/parties/7' && method === 'GET') return jsonResponse(page);
    if (url === '/api/parties/7/submit' && method === 'POST') {
      const body = JSON.parse(String(init?.body));
      sent.push(body);
      return jsonResponse({
        ...page,
        state: 'submitted',
        submittedAt: '2026-11-22T15:00:00.000Z',
        values: body.values,
        payment: { method: 'ach', account: '••••6789' },
        signature: { name: 'Rosa Díaz', date: body.attestation.date, text: page.attestation.en, at: '2026-11-22T15:00:00.000Z' },
        actions: [],
      });
    }
    return jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);
  });
  return sent;
}

const fill = (name: RegExp, value: string) => {
  const input = screen.getByRole('textbox', { name });
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
};

describe('/partes/:id', () => {
  test('checks the routing number as it is typed; Submit asks first, then sends the form, the attestation and the payment, and reads back', async () => {
    setScreenWidth(1366);
    const sent = serve();
    renderApp('/partes/7');
    expect(await screen.findByRole('heading', { level: 1, name: 'Application 2026-11-000042' })).toBeInTheDocument();
    expect(screen.getByText('I certify that the tenancy and the arrears are true.')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /Monthly rent/ })).toHaveValue('950');

    fireEvent.click(screen.getByRole('radio', { name: 'Direct deposit' }));
    const routing = await screen.findByRole('textbox', { name: /Routing number/ });
    fireEvent.change(routing, { target: { value: '123456789' } });
    expect(screen.getByText('This routing number is not valid (9 digits with the ABA check digit)')).toBeInTheDocument();
    fireEvent.change(routing, { target: { value: '011000015' } });
    expect(screen.getByText('Valid routing number')).toBeInTheDocument();

    fill(/^Account number$/, '123456789');
    fill(/Account number again/, '123456780');
    fireEvent.click(screen.getByRole('radio', { name: 'Checking' }));
    fill(/Your full name/, 'Rosa Díaz');
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findAllByText('The two account numbers do not match')).not.toHaveLength(0);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    fill(/Account number again/, '123456789');
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Submit your part?' });
    expect(sent).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Submit my part' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({
      values: { monthlyRent: 950 },
      attestation: { name: 'Rosa Díaz', date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) },
      payment: { name: 'Rosa Díaz', email: 'rosa@example.org', method: 'ach', routingNumber: '011000015', accountNumber: '123456789', accountType: 'checking', address: null },
    });
    expect(await screen.findByText(/Submitted on 11\/22\/2026/)).toBeInTheDocument();
    expect(screen.getByText('••••6789')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Submit' })).not.toBeInTheDocument();
  });
});
