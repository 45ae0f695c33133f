// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, test, vi } from 'vitest';
import type { ProtocolDefinition } from '../../../../../core/workflow/protocol.js';
import { jsonResponse, mockFetch, renderApp, sessionFixture, setScreenWidth, settingsFixture } from '../../../test/utils.js';
import { protocolDetail, stubResizeObserver, task } from '../testProtocol.js';

vi.mock('../../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));

/** The parties and award caps of a protocol (issue 23), and the task dialog's award and party: what Save sends. */

const detail = protocolDetail([task('intake', 'Intake review', { onAccept: [{ to: 'approval' }] }), task('approval', 'Approval')]);

function serve() {
  return mockFetch((url, init) => {
    if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
    if (url === '/api/auth/session') return jsonResponse(sessionFixture);
    if (url === '/api/protocols/1' && !init?.method) return jsonResponse(detail);
    if (url === '/api/protocols/1' && init?.method === 'PUT') return jsonResponse({ ...detail, definition: JSON.parse(String(init.body)).definition, changedSincePublished: true });
    if (url.startsWith('/api/forms?'))
      return jsonResponse({
        items: [
          { id: 1, code: 'application', name: 'Application' },
          { id: 2, code: 'landlord', name: 'Landlord form' },
        ],
        total: 2,
      });
    if (url.startsWith('/api/forms/1')) return jsonResponse({ definition: { fields: [] } });
    if (url.startsWith('/api/teams?')) return jsonResponse({ items: [{ id: 1, name: 'Intake', assignment: 'round_robin', active: true }], total: 1 });
    if (url.startsWith('/api/team-members/user-options')) return jsonResponse([]);
    return jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);
  });
}

/** Picks `option` in the select labelled `label` (a select once the forms have come). */
async function choose(container: HTMLElement, label: string | RegExp, option: string) {
  const select = await within(container).findByRole('combobox', { name: label });
  fireEvent.mouseDown(select);
  fireEvent.click(await screen.findByRole('option', { name: option }));
}

beforeEach(() => {
  stubResizeObserver();
});

describe('protocol editor: parties and awards', () => {
  test('a landlord with its form and deadline, awards with a total cap, and the task that sets the award and waits for the landlord are saved (cents)', async () => {
    setScreenWidth(1366);
    const fetchMock = serve();
    renderApp('/protocolos/1');

    const parties = await screen.findByRole('region', { name: 'Parties' });
    fireEvent.click(within(parties).getByRole('button', { name: 'Add a party' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Landlord' }));
    const landlord = within(parties).getByRole('group', { name: 'Landlord' });
    await choose(landlord, 'Their form', 'Landlord form');
    fireEvent.change(within(landlord).getByRole('textbox', { name: /Days to complete their part/ }), { target: { value: '10' } });
    fireEvent.change(within(landlord).getByRole('textbox', { name: 'Remind every (days)' }), { target: { value: '' } });
    fireEvent.change(within(landlord).getByRole('textbox', { name: 'Attestation (English)' }), { target: { value: 'I confirm the tenancy.' } });
    fireEvent.click(within(landlord).getByRole('switch', { name: 'Pay the tenant directly after the deadline' }));
    // A role is added once.
    fireEvent.click(within(parties).getByRole('button', { name: 'Add a party' }));
    expect(screen.queryByRole('menuitem', { name: 'Landlord' })).not.toBeInTheDocument();
    fireEvent.keyDown(await screen.findByRole('menu'), { key: 'Escape' });

    const awards = screen.getByRole('region', { name: 'Awards' });
    fireEvent.click(within(awards).getByRole('switch', { name: 'This programme grants awards' }));
    const total = within(awards).getByRole('textbox', { name: /Total cap/ });
    expect(total).toHaveValue('');
    fireEvent.change(within(awards).getByRole('textbox', { name: 'Monthly rent cap' }), { target: { value: 'abc' } });
    expect(within(awards).getByText('Type an amount in dollars, such as 1200.50')).toBeInTheDocument();
    fireEvent.change(within(awards).getByRole('textbox', { name: 'Monthly rent cap' }), { target: { value: '2,000' } });
    fireEvent.change(total, { target: { value: '12500.50' } });
    expect(within(awards).getByText(/No task sets the award yet/)).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Edit: Approval' }));
    const dialog = await screen.findByRole('dialog', { name: 'Task: Approval' });
    fireEvent.click(within(dialog).getByRole('switch', { name: 'This task sets the award' }));
    await choose(dialog, 'Waits for the party', 'Landlord');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(within(awards).getByText('The award is set by Approval.')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fetchMock.mock.calls.some(([url, init]) => url === '/api/protocols/1' && init?.method === 'PUT')).toBe(true));
    const body = JSON.parse(String(fetchMock.mock.calls.find(([url, init]) => url === '/api/protocols/1' && init?.method === 'PUT')?.[1]?.body)) as { definition: ProtocolDefinition };
    expect(body.definition.parties).toEqual([
      { role: 'landlord', formId: 2, attestation: { en: 'I confirm the tenancy.', es: '' }, deadlineDays: 10, remindEveryDays: null, payTenantAfterDeadline: true },
    ]);
    expect(body.definition.awardCaps).toEqual({ maxArrearsMonths: 12, maxAheadMonths: 3, maxMonthlyRent: 2_000_00, maxUtilities: 0, maxTotal: 12_500_50 });
    expect(body.definition.tasks.find((x) => x.code === 'approval')).toMatchObject({ award: true, waitsForParty: 'landlord' });
    // The other task goes back as it came.
    expect(body.definition.tasks.find((x) => x.code === 'intake')).not.toHaveProperty('award');
    expect(body.definition.tasks.find((x) => x.code === 'intake')).not.toHaveProperty('waitsForParty');
  });
});
