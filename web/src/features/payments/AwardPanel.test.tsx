// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import { jsonResponse, mockFetch, renderApp, sessionFixture, setScreenWidth, settingsFixture } from '../../test/utils.js';
import type { TaskDetail } from '../tasks/api.js';
import { taskDetail } from '../tasks/fixtures.js';
import { award, caseAward } from './fixtures.js';

vi.mock('../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));

const overlap = { awardId: 40, caseId: 9, caseNumber: '2026-10-000001', state: 'paid', total: 2_400_00, months: ['2026-08'], reasons: ['same_unit'] };

function serve(task: TaskDetail, answer = caseAward({ previous: [award()] })) {
  return mockFetch((url, init) => {
    if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
    if (url === '/api/auth/session') return jsonResponse(sessionFixture);
    if (url === '/api/tasks/5' && !init?.method) return jsonResponse(task);
    if (url === '/api/cases/3/award') return jsonResponse(answer);
    if (url.startsWith('/api/cases/3/award/overlaps?')) {
      const q = new URL(url, 'http://x').searchParams;
      return jsonResponse({ months: q.get('months')?.split(',') ?? [], items: q.get('address') === '12 Oak Street' ? [overlap] : [] });
    }
    if (url === '/api/tasks/5/accept') return jsonResponse({ ok: true, created: [] });
    if (url.startsWith('/api/cases/3/comments')) return jsonResponse({ items: [], canComment: false, canUseStaffTools: false });
    return jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);
  });
}

describe('the award panel of the task page', () => {
  test('computes the total as typed, flags overlapping applications, holds back an award over a cap, and Accept sends the award', async () => {
    setScreenWidth(1366);
    const fetchMock = serve(taskDetail({ award: true, form: null }));
    renderApp('/tasks/5');
    const panel = await screen.findByRole('region', { name: 'Award' });
    expect(await within(panel).findByText(/up to 6 months of arrears/)).toBeInTheDocument();
    // The award it would replace is listed.
    expect(within(panel).getByText('Earlier award')).toBeInTheDocument();
    expect(within(panel).getByText('Replaced')).toBeInTheDocument();

    const month = within(panel).getByLabelText('Month');
    for (const m of ['2026-09', '2026-08']) {
      fireEvent.change(month, { target: { value: m } });
      fireEvent.click(within(panel).getByRole('button', { name: 'Add month' }));
    }
    const months = within(panel).getByRole('list', { name: 'Months of arrears' });
    // In order, each with its own remove button.
    expect(within(months).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Aug 2026Remove Aug 2026', 'Sep 2026Remove Sep 2026']);
    fireEvent.change(within(panel).getByRole('textbox', { name: 'Months ahead' }), { target: { value: '1' } });
    fireEvent.change(within(panel).getByRole('textbox', { name: /Monthly rent/ }), { target: { value: '1,200' } });
    fireEvent.change(within(panel).getByRole('textbox', { name: 'Utilities' }), { target: { value: '150' } });
    expect(within(panel).getByText('Total: $3,750.00')).toBeInTheDocument();
    expect(within(panel).getByText('3 months × $1,200.00 + $150.00 utilities')).toBeInTheDocument();

    // The duplicate-of-benefits check, once the address is typed.
    fireEvent.change(within(panel).getByRole('textbox', { name: /Property address/ }), { target: { value: '12 Oak Street' } });
    fireEvent.change(within(panel).getByRole('textbox', { name: 'Unit' }), { target: { value: '4B' } });
    const warning = await within(panel).findByRole('alert');
    expect(warning).toHaveTextContent('Possible duplicate of benefits: 1 other application');
    expect(within(warning).getByRole('link', { name: 'Application 2026-10-000001' })).toHaveAttribute('href', '/cases/9');
    expect(warning).toHaveTextContent('Overlapping months: Aug 2026');
    expect(warning).toHaveTextContent('same address and unit');
    const asked = fetchMock.mock.calls.map(([u]) => String(u)).filter((u) => u.startsWith('/api/cases/3/award/overlaps?'));
    expect(new URL(asked.at(-1) as string, 'http://x').searchParams.get('unit')).toBe('4B');

    // Over the rent cap: said at once, and Accept sends nothing.
    fireEvent.change(within(panel).getByRole('textbox', { name: /Monthly rent/ }), { target: { value: '3000' } });
    expect(within(panel).getByText('Monthly rent: $3,000.00 is over the limit of $2,500.00.')).toBeInTheDocument();
    const toolbar = await screen.findByRole('toolbar', { name: 'Decisions' });
    fireEvent.click(within(toolbar).getByRole('button', { name: 'Accept' }));
    expect(screen.queryByRole('dialog', { name: 'Accept the task?' })).not.toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([u]) => u === '/api/tasks/5/accept')).toBe(false);

    fireEvent.change(within(panel).getByRole('textbox', { name: /Monthly rent/ }), { target: { value: '1200' } });
    fireEvent.click(within(toolbar).getByRole('button', { name: 'Accept' }));
    const confirm = await screen.findByRole('dialog', { name: 'Accept the task?' });
    expect(confirm).toHaveTextContent('Award: $3,750.00 (pay to: Landlord).');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Accept' }));
    await waitFor(() => expect(fetchMock.mock.calls.some(([u]) => u === '/api/tasks/5/accept')).toBe(true));
    const call = fetchMock.mock.calls.find(([u]) => u === '/api/tasks/5/accept');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({
      version: 4,
      award: { arrearsMonths: ['2026-08', '2026-09'], aheadMonths: 1, monthlyRent: 120000, utilities: 15000, payeeKind: 'landlord', payeeId: null, propertyAddress: '12 Oak Street', unit: '4B' },
    });
  });

  test('a missing rent is said under its field; a reader without accept sees the award as facts', async () => {
    setScreenWidth(390);
    serve(taskDetail({ award: true, form: null }), caseAward());
    const first = renderApp('/tasks/5');
    const panel = await screen.findByRole('region', { name: 'Award' });
    fireEvent.click(within(await screen.findByRole('toolbar', { name: 'Decisions' })).getByRole('button', { name: 'Accept' }));
    // The rent and the address.
    expect(await within(panel).findAllByText('This field is required')).toHaveLength(2);
    expect(screen.queryByRole('dialog', { name: 'Accept the task?' })).not.toBeInTheDocument();
    first.unmount();

    serve(taskDetail({ award: true, form: null, actions: [] }), caseAward({ award: award({ state: 'approved', batchId: 7 }) }));
    renderApp('/tasks/5');
    const readOnly = await screen.findByRole('region', { name: 'Award' });
    expect(await within(readOnly).findByText('$3,600.00')).toBeInTheDocument();
    expect(within(readOnly).getByText('Landlord: Oak Street Rentals LLC')).toBeInTheDocument();
    expect(within(readOnly).getByRole('link', { name: 'View the batch' })).toHaveAttribute('href', '/pagos/7');
    expect(within(readOnly).queryByRole('textbox')).not.toBeInTheDocument();
  });
});
