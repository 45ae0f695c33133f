// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import { jsonResponse, mockFetch, renderApp, sessionFixture, sessionWith, setScreenWidth, settingsFixture } from '../../test/utils.js';
import type { BatchDetail } from './api.js';
import { batch } from './fixtures.js';

vi.mock('../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));

function serve(shown: BatchDetail, session = sessionFixture) {
  return mockFetch((url, init) => {
    if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
    if (url === '/api/auth/session') return jsonResponse(session);
    if (url === '/api/payment-batches/7' && !init?.method) return jsonResponse(shown);
    if (url === '/api/payment-batches/7/paid' && init?.method === 'POST') return jsonResponse({ ...shown, state: 'paid', version: 3, actions: ['export'] });
    if (url === '/api/payees/8/bank-details') {
      return jsonResponse({ payeeId: 8, name: 'Oak Street Rentals LLC', method: 'ach', routingNumber: '091000019', accountNumber: '000123456789', accountType: 'checking', taxId: '987654321', address: null });
    }
    return jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);
  });
}

const paidCalls = (fetchMock: ReturnType<typeof mockFetch>) => fetchMock.mock.calls.filter(([u]) => u === '/api/payment-batches/7/paid');

describe('/pagos/:id', () => {
  test('shows the payees and their payments, links the files, and marks the batch paid only after a confirmation naming the total', async () => {
    setScreenWidth(1366);
    const fetchMock = serve(batch());
    renderApp('/pagos/7');
    expect(await screen.findByRole('heading', { level: 1, name: 'Payment batch 3' })).toBeInTheDocument();
    // A body of rows per payee: their name and total, then their payments.
    const [, oak, rosa] = within(screen.getByRole('table', { name: 'Payments by payee' })).getAllByRole('rowgroup');
    expect(within(oak).getByRole('rowheader')).toHaveTextContent('Oak Street Rentals LLCDirect deposit · $3,600.00');
    expect(within(oak).getByRole('link', { name: '2026-11-000004' })).toHaveAttribute('href', '/cases/4');
    expect(within(oak).getAllByText('••••6789')).toHaveLength(2);
    expect(within(oak).getByText('$2,400.00')).toBeInTheDocument();
    expect(within(rosa).getByRole('rowheader')).toHaveTextContent('Rosa TenantCheck · $1,250.00');
    const actions = screen.getByRole('toolbar', { name: 'Batch actions' });
    expect(within(actions).getByRole('link', { name: 'NACHA file' })).toHaveAttribute('href', '/api/payment-batches/7/nacha');
    expect(within(actions).getByRole('link', { name: 'Check register' })).toHaveAttribute('href', '/api/payment-batches/7/checks');

    // Cancel first: nothing is sent.
    fireEvent.click(within(actions).getByRole('button', { name: 'Mark paid' }));
    let confirm = await screen.findByRole('dialog', { name: 'Mark batch 3 paid?' });
    expect(confirm).toHaveTextContent('This records 3 payments of $4,850.00 in all as paid');
    expect(confirm).toHaveTextContent('It cannot be undone.');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(paidCalls(fetchMock)).toHaveLength(0);

    fireEvent.click(within(actions).getByRole('button', { name: 'Mark paid' }));
    confirm = await screen.findByRole('dialog', { name: 'Mark batch 3 paid?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Mark paid' }));
    await waitFor(() => expect(paidCalls(fetchMock)).toHaveLength(1));
    expect(JSON.parse(String(paidCalls(fetchMock)[0]?.[1]?.body))).toEqual({ version: 2 });
    expect(await screen.findByText('Batch 3 is marked paid.')).toBeInTheDocument();

    // The full bank details: warned first, read on "Show".
    fireEvent.click(screen.getByRole('button', { name: 'Show full details of Oak Street Rentals LLC' }));
    const details = await screen.findByRole('dialog', { name: 'Bank details of Oak Street Rentals LLC' });
    expect(details).toHaveTextContent('is recorded in the history');
    expect(fetchMock.mock.calls.some(([u]) => u === '/api/payees/8/bank-details')).toBe(false);
    fireEvent.click(within(details).getByRole('button', { name: 'Show' }));
    expect(await within(details).findByText('000123456789')).toBeInTheDocument();
  });

  test('buttons follow the batch actions and the reader rights', async () => {
    setScreenWidth(390);
    serve(batch({ state: 'paid', actions: [] }), sessionWith(['pagos']));
    renderApp('/pagos/7');
    expect(await screen.findByRole('heading', { level: 1, name: 'Payment batch 3' })).toBeInTheDocument();
    expect(screen.getByText('Paid', { selector: '.MuiChip-label' })).toBeInTheDocument();
    expect(screen.queryByRole('toolbar', { name: 'Batch actions' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Mark paid' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'NACHA file' })).not.toBeInTheDocument();
    // Without pagos_cuentas, no way to the full bank details.
    expect(screen.queryByRole('button', { name: /Show full details/ })).not.toBeInTheDocument();
  });
});
