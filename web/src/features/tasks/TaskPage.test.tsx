// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import { jsonResponse, mockFetch, renderApp, sessionFixture, setScreenWidth, settingsFixture } from '../../test/utils.js';
import { caseDetail } from '../cases/case/testServer.js';
import { taskDetail } from './fixtures.js';
import type { TaskDetail } from './api.js';

vi.mock('../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));

type Handler = (url: string, init?: RequestInit) => Response | undefined;

/** Serves the session and the task (a function, so a test can change it between calls); `extra` answers the rest. */
function serve(task: () => TaskDetail, extra: Handler = () => undefined) {
  return mockFetch((url, init) => {
    if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
    if (url === '/api/auth/session') return jsonResponse(sessionFixture);
    const answer = extra(url, init);
    if (answer) return answer;
    if (url === '/api/tasks/5' && !init?.method) return jsonResponse(task());
    // The page's comments thread (features/comments), empty here.
    if (url.startsWith('/api/cases/3/comments')) return jsonResponse({ items: [], canComment: false, canUseStaffTools: false });
    return jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);
  });
}

const toolbar = () => screen.findByRole('toolbar', { name: 'Decisions' });

describe('/tasks/:id', () => {
  test("a task whose application is back with its applicant says so, with the reason and what was asked", async () => {
    const correction = {
      id: 5, state: 'open' as const, reason: 'The lease is unsigned.', fields: ['payRent'], documents: [{ code: 'lease', name: 'Lease (all pages)' }],
      requestedBy: 'Demo Coordinator', requestedAt: '2026-11-21T16:00:00.000Z', resubmittedAt: null,
    };
    serve(() => taskDetail(), (url) => (url === '/api/cases/3' ? jsonResponse(caseDetail({ id: 3, correction })) : undefined));
    renderApp('/tasks/5');
    const notice = await screen.findByRole('region', { name: 'Returned for correction' });
    expect(within(notice).getByText('The lease is unsigned.')).toBeInTheDocument();
    expect(within(notice).getByText('Lease (all pages)')).toBeInTheDocument();
    expect(within(notice).getByText(/Waiting for the applicant/)).toBeInTheDocument();
    // The applicant's way in and staff's withdrawal are not offered here.
    expect(within(notice).queryByRole('button')).not.toBeInTheDocument();
    expect(within(notice).queryByRole('link')).not.toBeInTheDocument();
  });

  test('no notice when the case has no open request, or cannot be opened by the reader', async () => {
    serve(() => taskDetail());
    renderApp('/tasks/5');
    expect(await screen.findByRole('heading', { level: 1, name: 'Document verification' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('region', { name: 'Document detail' })).toBeInTheDocument());
    expect(screen.queryByRole('region', { name: 'Returned for correction' })).not.toBeInTheDocument();
  });

  test('shows the case, the form, what comes next and where a reject goes', async () => {
    serve(() => taskDetail());
    renderApp('/tasks/5');
    expect(await screen.findByRole('heading', { level: 1, name: 'Document verification' })).toBeInTheDocument();
    const summary = screen.getByRole('region', { name: 'Case' });
    expect(within(summary).getByText('2026-11-000003')).toBeInTheDocument();
    expect(within(summary).getByText('Ana Applicant')).toBeInTheDocument();
    expect(within(summary).getByText('Yes')).toBeInTheDocument();
    const next = screen.getByRole('region', { name: 'Next' });
    expect(within(next).getByText('Eligibility')).toBeInTheDocument();
    expect(within(next).getByText('amount > 5000')).toBeInTheDocument();
    expect(within(next).getByText('The case goes back to Intake review.')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Yes' })).toBeChecked();
    expect(within(screen.getByRole('region', { name: 'Document detail' })).getByText('María')).toBeInTheDocument();
  });

  describe('a repeat group of the document detail', () => {
    const household = {
      name: 'household',
      type: 'repeat' as const,
      label: 'Integrantes del hogar',
      label_en: 'Household members',
      children: [
        { name: 'memberName', type: 'text' as const, label: 'Nombre', label_en: 'Name' },
        { name: 'relationship', type: 'select' as const, label: 'Parentesco', label_en: 'Relationship', options: [{ value: 'self', label: 'Solicitante', label_en: 'Applicant' }] },
        { name: 'age', type: 'number' as const, label: 'Edad', label_en: 'Age' },
        { name: 'notes', type: 'text' as const, label: 'Notas', label_en: 'Notes', headers: false },
      ],
    };
    const withHousehold = () => {
      const task = taskDetail();
      return taskDetail({
        case: {
          ...task.case,
          mainForm: task.case.mainForm && { ...task.case.mainForm, fields: [...task.case.mainForm.fields, household] },
          data: { firstName: 'María', household: [{ memberName: 'Felipe Vargas', relationship: 'self', age: 35, notes: 'hidden' }, { memberName: 'Lucía Vargas', age: 9 }] },
        },
      });
    };

    test('is a table in its own scrolling box on a wide screen', async () => {
      setScreenWidth(1366);
      serve(withHousehold);
      renderApp('/tasks/5');
      const detail = await screen.findByRole('region', { name: 'Document detail' });
      const table = await within(detail).findByRole('table', { name: 'Household members' });
      expect(within(table).getAllByRole('columnheader').map((c) => c.textContent)).toEqual(['Name', 'Relationship', 'Age']);
      expect(within(table).getByRole('cell', { name: 'Felipe Vargas' })).toBeInTheDocument();
      expect(within(detail).getByRole('region', { name: 'Household members' })).toHaveAttribute('tabindex', '0');
    });

    test('on a phone, one block per row with each value under its column: no table to cut at the edge', async () => {
      setScreenWidth(390);
      serve(withHousehold);
      renderApp('/tasks/5');
      const detail = await screen.findByRole('region', { name: 'Document detail' });
      const rows = await within(detail).findByRole('list', { name: 'Household members' });
      expect(within(detail).queryByRole('table')).not.toBeInTheDocument();
      const [first, second] = within(rows).getAllByRole('listitem');
      expect(first).toHaveTextContent('Row 1');
      expect([...(first as HTMLElement).querySelectorAll('dt')].map((d) => d.textContent)).toEqual(['Name', 'Relationship', 'Age']);
      expect([...(first as HTMLElement).querySelectorAll('dd')].map((d) => d.textContent)).toEqual(['Felipe Vargas', 'Applicant', '35']);
      expect([...(second as HTMLElement).querySelectorAll('dd')].map((d) => d.textContent)).toEqual(['Lucía Vargas', 'Not given', '9']);
    });
  });

  test.each([
    [['accept', 'reject', 'save', 'assign', 'restart'], ['Accept', 'Reject', 'Save', 'Restart'], true],
    [['accept', 'reject'], ['Accept', 'Reject'], false],
    [['restart'], ['Restart'], false],
    [[], [], false],
  ] as const)('with actions %j the buttons are %j', async (actions, buttons, assign) => {
    serve(() => taskDetail({ actions: [...actions] }));
    renderApp('/tasks/5');
    const bar = await toolbar();
    const shown = within(bar)
      .queryAllByRole('button')
      .map((b) => b.textContent);
    expect(shown).toEqual(buttons);
    expect(screen.queryByRole('button', { name: 'Change responsible' }) !== null).toBe(assign);
    // Without save or accept the form is read-only.
    const editable = actions.some((a) => a === 'save' || a === 'accept');
    expect(screen.getByRole('radio', { name: 'No' })).toHaveProperty('disabled', !editable);
  });

  test('a reject needs a reason, says where the case goes, and sends the version', async () => {
    const fetchMock = serve(
      () => taskDetail(),
      (url) => (url === '/api/tasks/5/reject' ? jsonResponse({ ok: true, created: [9], notEligible: false }) : undefined),
    );
    renderApp('/tasks/5');
    fireEvent.click(within(await toolbar()).getByRole('button', { name: 'Reject' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject Document verification' });
    expect(within(dialog).getByText('The case goes back to Intake review.')).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await within(dialog).findByText('This field is required')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/tasks/5/reject')).toBe(false);
    fireEvent.change(within(dialog).getByRole('textbox', { name: /Reason/ }), { target: { value: '  The lease is unsigned.  ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await screen.findByText('The case went back with your reason')).toBeInTheDocument();
    const call = fetchMock.mock.calls.find(([url]) => url === '/api/tasks/5/reject');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ reason: 'The lease is unsigned.', data: { complete: 'yes', notes: '' }, version: 4 });
  });

  test("a reject of a task that ends the case names 'Not eligible'", async () => {
    serve(() => taskDetail({ onReject: { notEligible: true } }));
    renderApp('/tasks/5');
    fireEvent.click(within(await toolbar()).getByRole('button', { name: 'Reject' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText("The case ends as 'Not eligible'.")).toBeInTheDocument();
  });

  test('accept asks first, checks the form, and a 409 (someone else decided) shows the message and reloads the task', async () => {
    let version = 4;
    const fetchMock = serve(
      () => taskDetail({ version, data: {} }),
      (url) => {
        if (url !== '/api/tasks/5/accept') return undefined;
        version = 5;
        return jsonResponse({ error: { code: 'STALE_TASK', message: 'Someone else changed this task while you had it open. Reload and try again.' } }, 409);
      },
    );
    renderApp('/tasks/5');
    fireEvent.click(within(await toolbar()).getByRole('button', { name: 'Accept' }));
    // The form is not complete: the shared validator says so under the field, nothing is sent.
    expect(await screen.findByText('You must choose an option')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/tasks/5/accept')).toBe(false);
    fireEvent.click(within(await screen.findByRole('alert')).getByRole('button', { name: 'Close' }));
    fireEvent.click(screen.getByRole('radio', { name: 'Yes' }));
    fireEvent.click(within(await toolbar()).getByRole('button', { name: 'Accept' }));
    const confirm = await screen.findByRole('dialog', { name: 'Accept the task?' });
    expect(within(confirm).getByText(/goes on to: Eligibility, Supervisor approval/)).toBeInTheDocument();
    fireEvent.click(within(confirm).getByRole('button', { name: 'Accept' }));
    expect(await screen.findByText('Someone else changed this task while you had it open. Reload and try again.')).toBeInTheDocument();
    const call = fetchMock.mock.calls.find(([url]) => url === '/api/tasks/5/accept');
    const body = JSON.parse(String(call?.[1]?.body));
    expect(body.version).toBe(4);
    expect(body.data).toMatchObject({ complete: 'yes' });
    await waitFor(() => expect(fetchMock.mock.calls.filter(([url, init]) => url === '/api/tasks/5' && !init?.method).length).toBeGreaterThan(1));
  });

  test('an ad-hoc task shows its instructions and says that deciding it moves nothing else', async () => {
    const fetchMock = serve(
      () => taskDetail({ code: 'adhoc', name: 'Call the landlord', instructions: 'Confirm the rent amount', form: null, data: {}, next: [], onReject: null }),
      (url) => (url === '/api/tasks/5/reject' ? jsonResponse({ ok: true, created: [], notEligible: false }) : undefined),
    );
    renderApp('/tasks/5');
    expect(await screen.findByText('Confirm the rent amount')).toBeInTheDocument();
    expect(screen.getByText('Instructions:')).toBeInTheDocument();
    expect(screen.queryByText('Returned with this reason:')).not.toBeInTheDocument();
    const next = screen.getByRole('region', { name: 'Next' });
    expect(within(next).getByText('An ad-hoc task, outside the protocol: accepting or rejecting it moves nothing else.')).toBeInTheDocument();
    expect(within(next).queryByText(/Not eligible/)).not.toBeInTheDocument();
    fireEvent.click(within(await toolbar()).getByRole('button', { name: 'Accept' }));
    const confirm = await screen.findByRole('dialog', { name: 'Accept the task?' });
    expect(within(confirm).getByText('Accept Call the landlord? It is an ad-hoc task: nothing else moves.')).toBeInTheDocument();
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    fireEvent.click(within(await toolbar()).getByRole('button', { name: 'Reject' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject Call the landlord' });
    expect(within(dialog).getByText('An ad-hoc task: the application stays where it is.')).toBeInTheDocument();
    fireEvent.change(within(dialog).getByRole('textbox', { name: /Reason/ }), { target: { value: 'The landlord does not answer' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await screen.findByText('Task rejected')).toBeInTheDocument();
    const call = fetchMock.mock.calls.find(([url]) => url === '/api/tasks/5/reject');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ reason: 'The landlord does not answer', version: 4 });
  });

  test('a task that came back from a reject shows the reason', async () => {
    serve(() => taskDetail({ reason: 'The lease is missing its signature page.' }));
    renderApp('/tasks/5');
    expect(await screen.findByText('The lease is missing its signature page.')).toBeInTheDocument();
    expect(screen.getByText('Returned with this reason:')).toBeInTheDocument();
  });
});
