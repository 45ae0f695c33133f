// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import { jsonResponse, mockFetch, renderApp, sessionFixture, setScreenWidth, settingsFixture } from '../../test/utils.js';
import { payeeReport } from './fixtures.js';

vi.mock('../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));

describe('/reportes/beneficiarios', () => {
  test("lists the year's payees with their totals, marks those over the threshold, and links the Excel file of the year chosen", async () => {
    setScreenWidth(1366);
    const year = new Date().getFullYear();
    const fetchMock = mockFetch((url) => {
      if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
      if (url === '/api/auth/session') return jsonResponse(sessionFixture);
      const asked = /^\/api\/reports\/payees\?year=(\d+)$/.exec(url);
      if (asked) return jsonResponse(Number(asked[1]) === year ? payeeReport(year) : { year: Number(asked[1]), threshold: 600_00, items: [] });
      return jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);
    });
    renderApp('/reportes/beneficiarios');
    const table = await screen.findByRole('table', { name: `Payees paid in ${year}` });
    const oak = (await within(table).findByText('Oak Street Rentals LLC')).closest('tr') as HTMLElement;
    expect(within(oak).getByText('Landlord')).toBeInTheDocument();
    expect(within(oak).getByText('••••4321')).toBeInTheDocument();
    expect(within(oak).getByText('$7,200.00')).toBeInTheDocument();
    expect(within(oak).getByText('Over threshold')).toBeInTheDocument();
    const rosa = within(table).getByText('Rosa Tenant').closest('tr') as HTMLElement;
    expect(within(rosa).getByText('Under threshold')).toBeInTheDocument();
    expect(within(rosa).getByText('Missing')).toBeInTheDocument();

    const totals = screen.getByRole('region', { name: 'Totals of the year' });
    expect(totals).toHaveTextContent('Total paid$7,650.00');
    expect(totals).toHaveTextContent('Payees at or over $600.00' + '1');
    expect(screen.getByRole('link', { name: 'Download Excel' })).toHaveAttribute('href', `/api/reports/payees/export?year=${year}&format=xlsx`);

    // Another year: its own rows (none here) and its own file.
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Year' }));
    fireEvent.click(await screen.findByRole('option', { name: String(year - 1) }));
    expect(await screen.findByText(`Nobody was paid in ${year - 1}.`)).toBeInTheDocument();
    await waitFor(() => expect(fetchMock.mock.calls.some(([u]) => u === `/api/reports/payees?year=${year - 1}`)).toBe(true));
    expect(screen.getByRole('link', { name: 'Download Excel' })).toHaveAttribute('href', `/api/reports/payees/export?year=${year - 1}&format=xlsx`);
  });
});
