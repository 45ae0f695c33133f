// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import { TARGETS } from '../../../../../core/targets.js';
import i18n from '../../../i18n/index.js';
import { jsonResponse, renderApp, sessionFixture, sessionWith } from '../../../test/utils.js';
import { taskItem } from '../../tasks/fixtures.js';
import type { CaseDetail, HistoryEvent } from '../api.js';
import { body, caseDetail, caseItem, fakeCases, serveCases } from './testServer.js';

vi.mock('../../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));

const history: HistoryEvent[] = [
  { id: 1, action: 'case_created', type: 'case', userName: 'Ana Applicant', taskName: null, detail: { fields: ['firstName'] }, at: '2026-11-20T14:00:00.000Z' },
  { id: 2, action: 'draft_saved', type: 'case', userName: 'Ana Applicant', taskName: null, detail: { fields: ['lastName', 'payRent'] }, at: '2026-11-20T14:05:00.000Z' },
  { id: 3, action: 'case_submit', type: 'case', userName: 'Ana Applicant', taskName: null, detail: { from: 'DRAFT', to: 'PENDING' }, at: '2026-11-21T14:00:00.000Z' },
  { id: 4, action: 'task_created', type: 'task', userName: null, taskName: 'Intake review', detail: {}, at: '2026-11-21T14:00:00.000Z' },
  { id: 5, action: 'field_changed', type: 'field', userName: 'Carla Coordinator', taskName: null, detail: { field: 'payRent', from: 1200, to: 1300 }, at: '2026-11-21T16:30:00.000Z' },
  { id: 6, action: 'owner_changed', type: 'case', userName: 'Carla Coordinator', taskName: null, detail: { from: 5, to: 3, fromName: 'Ana Applicant', toName: 'Rafael Reviewer' }, at: '2026-11-21T16:40:00.000Z' },
  { id: 7, action: 'party_invited', type: 'case', userName: 'Ana Applicant', taskName: null, detail: { party: 1, role: 'landlord', name: 'Lena Lessor' }, at: '2026-11-21T17:00:00.000Z' },
  { id: 8, action: 'award_set', type: 'case', userName: 'Carla Coordinator', taskName: 'Payment approval', detail: { awardId: 2, total: 250000 }, at: '2026-11-22T15:00:00.000Z' },
  { id: 9, action: 'payment_made', type: 'case', userName: 'Carla Coordinator', taskName: null, detail: { batchId: 4, batch: 3, amount: 250000, payee: 'Lena Lessor', method: 'ach' }, at: '2026-11-23T15:00:00.000Z' },
];

/** Serves one case (changed by the actions as the server would), its history, tasks and similar cases. */
function serveCase(detail: CaseDetail, session = sessionFixture) {
  const state = fakeCases();
  state.cases.set(detail.id, detail);
  const posted: Array<{ url: string; body: Record<string, unknown> }> = [];
  const fetchMock = serveCases(state, session, (url, init) => {
    if (url === `/api/cases/${detail.id}/history`) return jsonResponse(history);
    if (url === `/api/cases/${detail.id}/timeline`) {
      return jsonResponse({ caseId: detail.id, number: detail.number, state: detail.state, tasks: [{ ...taskItem({ name: 'Intake review', caseId: detail.id }), reason: null, decidedAt: null, decidedBy: null }] });
    }
    if (url === `/api/cases/${detail.id}/similar`) return jsonResponse([caseItem({ id: 7, number: '2026-10-000007', applicant: 'Lucía Ortega', state: 'SUCCESS' })]);
    const action = new RegExp(`^/api/cases/${detail.id}/(complete|close|activate|open)$`).exec(url);
    if (action && init?.method === 'POST') {
      posted.push({ url, body: body(init) });
      const next = { complete: 'SUCCESS', close: 'CLOSED', activate: 'PENDING', open: 'PENDING' }[action[1] as 'complete'] as CaseDetail['state'];
      state.cases.set(detail.id, { ...detail, state: next, actions: next === 'PENDING' ? ['complete', 'close'] : ['activate'] });
      return jsonResponse({ state: next });
    }
    if (url === `/api/cases/${detail.id}/owner` && init?.method === 'PUT') {
      posted.push({ url, body: body(init) });
      state.cases.set(detail.id, { ...detail, ownerId: 9, ownerName: 'Rafael Reviewer' });
      return jsonResponse({ ownerId: 9 });
    }
    if (url === `/api/cases/${detail.id}/participants` && init?.method === 'PUT') {
      posted.push({ url, body: body(init) });
      return jsonResponse(body(init));
    }
    if (url.startsWith('/api/team-members/user-options')) return jsonResponse([{ id: 9, name: 'Rafael Reviewer', email: 'reviewer@demo.test' }]);
    if (url === `/api/cases/${detail.id}/data` && init?.method === 'PUT') {
      const sent = body(init) as { data: Record<string, unknown>; version: number };
      posted.push({ url, body: sent });
      const current = state.cases.get(detail.id) as CaseDetail;
      if (sent.version !== current.version) {
        return jsonResponse({ error: { code: 'STALE_DRAFT', message: 'Someone else changed this application while you had it open. Reload and try again.' } }, 409);
      }
      state.cases.set(detail.id, { ...current, data: sent.data, version: current.version + 1 });
      return jsonResponse({ version: current.version + 1 });
    }
    return undefined;
  });
  return { fetchMock, posted, state };
}

const toolbar = () => screen.queryByRole('toolbar', { name: 'Application actions' });
const buttonsOf = (bar: HTMLElement | null) => (bar ? within(bar).queryAllByRole('button').map((b) => b.textContent) : []);

describe('/cases/:id', () => {
  test('shows the summary, the form data, the documents, the tasks, the history and similar applications', async () => {
    serveCase(caseDetail({ possibleDuplicated: true }));
    renderApp('/cases/42');
    expect(await screen.findByRole('heading', { level: 1, name: 'Application 2026-11-000042' })).toBeInTheDocument();
    const summary = screen.getByRole('region', { name: 'Summary' });
    for (const text of ['2026-11-000042', 'Rental assistance', 'Lucía Ortega', 'Ana Applicant', '11/21/2026', 'Yes']) expect(within(summary).getByText(text)).toBeInTheDocument();
    const data = screen.getByRole('region', { name: 'Application data' });
    expect(within(data).getByText('Ortega')).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Documents' })).getByRole('button', { name: 'Download lease.pdf' })).toBeInTheDocument();
    // Staff may review the documents together; nobody is in the room until they join it.
    expect(within(screen.getByRole('region', { name: 'Review documents together' })).getByRole('button', { name: 'Join review' })).toBeInTheDocument();
    expect(await within(screen.getByRole('region', { name: 'Tasks' })).findByRole('link', { name: 'Intake review' })).toHaveAttribute('href', '/tasks/5');
    const similar = screen.getByRole('region', { name: 'Similar applications' });
    expect(await within(similar).findByRole('link', { name: '2026-10-000007' })).toHaveAttribute('href', '/cases/7');
  });

  test('an open application links to a new ad-hoc task on it, for those who may create tasks', async () => {
    serveCase(caseDetail({ state: 'PENDING' }), sessionWith(TARGETS));
    const { unmount } = renderApp('/cases/42');
    const tasks = await screen.findByRole('region', { name: 'Tasks' });
    expect(within(tasks).getByRole('link', { name: 'New task' })).toHaveAttribute('href', '/tareas/nuevo?case=42');
    unmount();
    serveCase(caseDetail({ state: 'PENDING' }), sessionWith(TARGETS, { rules: Object.fromEntries(TARGETS.map((t) => [t, t === 'wf_tareas' ? ['show'] : ['show', 'create']])) }));
    renderApp('/cases/42');
    const again = await screen.findByRole('region', { name: 'Tasks' });
    expect(within(again).queryByRole('link', { name: 'New task' })).not.toBeInTheDocument();
  });

  test('a master select shows the name of the item, not its code', async () => {
    const form = caseDetail().form;
    serveCase(caseDetail({ form: form && { ...form, fields: [...form.fields, { name: 'municipio', type: 'master_select', master: 'municipios', label: 'Municipio', label_en: 'City' }] } }));
    renderApp('/cases/42');
    const data = await screen.findByRole('region', { name: 'Application data' });
    expect(within(data).getByText('City')).toBeInTheDocument();
    expect(within(data).getByText('Cali')).toBeInTheDocument();
    expect(within(data).queryByText('76001')).not.toBeInTheDocument();
  });

  test('the history lists every transition and field change with who and when, field names as the form labels them', async () => {
    serveCase(caseDetail());
    renderApp('/cases/42');
    const list = await screen.findByRole('list', { name: 'Events of the application, oldest first' });
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(9));
    const rows = within(list).getAllByRole('listitem').map((li) => li.textContent);
    expect(rows).toEqual([
      'Application startedFields: First name11/20/2026 09:00 · Ana Applicant',
      'Draft savedFields: Last name, Monthly rent11/20/2026 09:05 · Ana Applicant',
      'Application submitted and opened11/21/2026 09:00 · Ana Applicant',
      'Task Intake review created11/21/2026 09:00 · System',
      'Monthly rent changedFrom 1200 to 130011/21/2026 11:30 · Carla Coordinator',
      'Owner changedFrom Ana Applicant to Rafael Reviewer11/21/2026 11:40 · Carla Coordinator',
      'Party invited by emailLena Lessor11/21/2026 12:00 · Ana Applicant',
      'Award set$2,500.0011/22/2026 10:00 · Carla Coordinator',
      'Payment made$2,500.00 · Lena Lessor11/23/2026 10:00 · Carla Coordinator',
    ]);

    await act(async () => {
      await i18n.loadLanguages('es');
      await i18n.changeLanguage('es');
    });
    expect(await within(list).findByText('Renta mensual cambió')).toBeInTheDocument();
    expect(within(list).getByText('Parte invitada por correo')).toBeInTheDocument();
    expect(within(list).getByText('Campos: Apellidos, Renta mensual')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Historial' })).toBeInTheDocument();
  });

  test.each([
    ['every target', TARGETS, ['complete', 'close'], ['Complete', 'Close']],
    ['no complete target', TARGETS.filter((t) => t !== 'wf_completar_caso'), ['complete', 'close'], ['Close']],
    ['no close target', TARGETS.filter((t) => t !== 'wf_cerrar_caso'), ['complete', 'close'], ['Complete']],
    ['a completed case', TARGETS, ['activate'], ['Enable again']],
    ['a completed case without wf_activar_caso', TARGETS.filter((t) => t !== 'wf_activar_caso'), ['activate'], []],
    ['the applicant', ['wf_casos', 'borradores'], [], []],
  ] as const)('with %s the actions are %j', async (_name, targets, actions, buttons) => {
    serveCase(caseDetail({ actions: [...actions], state: actions.includes('activate' as never) ? 'SUCCESS' : 'PENDING' }), sessionWith(targets));
    renderApp('/cases/42');
    await screen.findByRole('heading', { level: 1, name: 'Application 2026-11-000042' });
    expect(buttonsOf(toolbar())).toEqual(buttons);
  });

  test("the applicant sees neither history nor tasks nor owner changes", async () => {
    serveCase(caseDetail({ canSeeHistory: false, canSeeSimilar: false, possibleDuplicated: true }), sessionWith(['wf_casos', 'borradores']));
    renderApp('/cases/42');
    await screen.findByRole('region', { name: 'Summary' });
    expect(screen.queryByRole('region', { name: 'History' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Tasks' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Similar applications' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Change owner' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Review documents together' })).not.toBeInTheDocument();
  });

  test("complete warns 'Once done it can't be changed'; Cancel does nothing, Complete does it and the action goes", async () => {
    const { posted } = serveCase(caseDetail({ actions: ['complete', 'close', 'changeOwner', 'participants'] }));
    renderApp('/cases/42');
    await waitFor(() => expect(buttonsOf(toolbar())).toEqual(['Complete', 'Close']));
    fireEvent.click(within(toolbar() as HTMLElement).getByRole('button', { name: 'Complete' }));
    let dialog = await screen.findByRole('dialog', { name: 'Complete application 2026-11-000042?' });
    expect(within(dialog).getByText("Once done it can't be changed. Its open tasks are closed.")).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(posted).toEqual([]);

    fireEvent.click(within(toolbar() as HTMLElement).getByRole('button', { name: 'Complete' }));
    dialog = await screen.findByRole('dialog', { name: 'Complete application 2026-11-000042?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Complete' }));
    expect(await screen.findByText('The application is completed')).toBeInTheDocument();
    expect(posted.map((p) => p.url)).toEqual(['/api/cases/42/complete']);
    await waitFor(() => expect(buttonsOf(toolbar())).toEqual(['Enable again']));
    expect(within(screen.getByRole('region', { name: 'Summary' })).getByText('Completed')).toBeInTheDocument();
  });

  test("close warns too, and 'Enable again' asks before it opens the case again", async () => {
    const { posted } = serveCase(caseDetail({ state: 'CLOSED', actions: ['activate'] }));
    renderApp('/cases/42');
    fireEvent.click(await screen.findByRole('button', { name: 'Enable again' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enable application 2026-11-000042 again?' });
    expect(within(dialog).getByText('It becomes pending again, so that its work can go on.')).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Enable again' }));
    expect(await screen.findByText('The application is enabled again')).toBeInTheDocument();
    expect(posted.map((p) => p.url)).toEqual(['/api/cases/42/activate']);
    fireEvent.click(await within(await waitFor(() => toolbar() as HTMLElement)).findByRole('button', { name: 'Close' }));
    expect(within(await screen.findByRole('dialog', { name: 'Close application 2026-11-000042?' })).getByText(/^Once done it can't be changed/)).toBeInTheDocument();
  });

  test('closing asks for an optional reason and sends it; Cancel sends nothing', async () => {
    const { posted } = serveCase(caseDetail({ actions: ['complete', 'close'] }));
    renderApp('/cases/42');
    await waitFor(() => expect(buttonsOf(toolbar())).toEqual(['Complete', 'Close']));
    fireEvent.click(within(toolbar() as HTMLElement).getByRole('button', { name: 'Close' }));
    let dialog = await screen.findByRole('dialog', { name: 'Close application 2026-11-000042?' });
    // Cancel holds the focus: Enter does not close the case by accident.
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(posted).toEqual([]);

    fireEvent.click(within(toolbar() as HTMLElement).getByRole('button', { name: 'Close' }));
    dialog = await screen.findByRole('dialog', { name: 'Close application 2026-11-000042?' });
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Reason (optional)' }), { target: { value: '  Withdrawn by the applicant  ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(await screen.findByText('The application is closed')).toBeInTheDocument();
    expect(posted).toEqual([{ url: '/api/cases/42/close', body: { reason: 'Withdrawn by the applicant' } }]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  test('staff correct the data of an open application: the form opens with its values, a bad value never leaves the browser, the save sends the version read', async () => {
    const { posted } = serveCase(caseDetail({ actions: ['complete', 'close', 'editData'] }));
    renderApp('/cases/42');
    const data = await screen.findByRole('region', { name: 'Application data' });
    fireEvent.click(within(data).getByRole('button', { name: 'Correct data' }));
    const rent = await within(data).findByRole('textbox', { name: 'Monthly rent' });
    expect(rent).toHaveValue('1200');
    expect(within(data).getByRole('textbox', { name: /^First name/ })).toHaveValue('Lucía');

    fireEvent.change(rent, { target: { value: '0' } });
    fireEvent.click(within(data).getByRole('button', { name: 'Save changes' }));
    expect(await within(data).findByText('The number must be at least 1')).toBeInTheDocument();
    expect(posted).toEqual([]);

    fireEvent.change(rent, { target: { value: '1350' } });
    fireEvent.click(within(data).getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('The changes are saved')).toBeInTheDocument();
    expect(posted).toHaveLength(1);
    expect(posted[0]).toMatchObject({ url: '/api/cases/42/data', body: { version: 3, data: { firstName: 'Lucía', lastName: 'Ortega', payRent: 1350 } } });
    // Back to reading, with the saved value.
    await waitFor(() => expect(within(data).queryByRole('button', { name: 'Save changes' })).not.toBeInTheDocument());
    expect(within(data).getByText('1350')).toBeInTheDocument();
  });

  test('a correction saved over someone else’s keeps what was typed and lets the user choose; Cancel asks before it discards', async () => {
    const { posted, state } = serveCase(caseDetail({ actions: ['editData'] }));
    renderApp('/cases/42');
    const data = await screen.findByRole('region', { name: 'Application data' });
    fireEvent.click(within(data).getByRole('button', { name: 'Correct data' }));
    const rent = await within(data).findByRole('textbox', { name: 'Monthly rent' });
    // Someone else saves first.
    state.cases.set(42, { ...(state.cases.get(42) as CaseDetail), data: { ...caseDetail().data, payRent: 1250 }, version: 4 });
    fireEvent.change(rent, { target: { value: '1400' } });
    fireEvent.click(within(data).getByRole('button', { name: 'Save changes' }));
    const alert = await within(data).findByRole('alert');
    expect(alert).toHaveTextContent('Someone else changed this application');
    expect(rent).toHaveValue('1400');

    fireEvent.click(within(alert).getByRole('button', { name: 'Keep my version' }));
    expect(await screen.findByText('The changes are saved')).toBeInTheDocument();
    expect(posted.map((p) => (p.body as { version: number }).version)).toEqual([3, 4]);

    // Cancel with changes asks first; unchanged, it just leaves.
    fireEvent.click(await within(data).findByRole('button', { name: 'Correct data' }));
    fireEvent.change(await within(data).findByRole('textbox', { name: 'Monthly rent' }), { target: { value: '999' } });
    fireEvent.click(within(data).getByRole('button', { name: 'Cancel' }));
    const confirm = await screen.findByRole('dialog', { name: 'Discard your changes?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(within(data).queryByRole('button', { name: 'Save changes' })).not.toBeInTheDocument());
    expect(posted).toHaveLength(2);
  });

  test('the owner changes through the user picker', async () => {
    const { posted } = serveCase(caseDetail({ actions: ['changeOwner'] }));
    renderApp('/cases/42');
    fireEvent.click(await screen.findByRole('button', { name: 'Change owner' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change owner' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Change owner' }));
    expect(await within(dialog).findByText('You must choose an option')).toBeInTheDocument();
    const picker = within(dialog).getByRole('combobox', { name: /New owner/ });
    fireEvent.change(picker, { target: { value: 'Raf' } });
    fireEvent.click(await screen.findByRole('option', { name: 'Rafael Reviewer (reviewer@demo.test)' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Change owner' }));
    expect(await screen.findByText('The owner was changed')).toBeInTheDocument();
    expect(posted).toEqual([{ url: '/api/cases/42/owner', body: { userId: 9 } }]);
    expect(await within(screen.getByRole('region', { name: 'Summary' })).findByText('Rafael Reviewer')).toBeInTheDocument();
  });

  test('participants: add one with the picker, remove another, save the list', async () => {
    const { posted } = serveCase(caseDetail({ actions: ['participants'], participants: [{ id: 4, name: 'Ivan Intake' }] }));
    renderApp('/cases/42');
    const region = await screen.findByRole('region', { name: 'Participants' });
    expect(within(region).getByText('Ivan Intake')).toBeInTheDocument();
    fireEvent.click(within(region).getByRole('button', { name: 'Edit participants' }));
    const dialog = await screen.findByRole('dialog', { name: 'Participants' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove Ivan Intake' }));
    expect(within(dialog).getByText('No participants')).toBeInTheDocument();
    fireEvent.change(within(dialog).getByRole('combobox', { name: 'Add a participant' }), { target: { value: 'Raf' } });
    fireEvent.click(await screen.findByRole('option', { name: 'Rafael Reviewer (reviewer@demo.test)' }));
    expect(within(within(dialog).getByRole('list', { name: 'Participants' })).getByText('Rafael Reviewer')).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Changes saved successfully')).toBeInTheDocument();
    expect(posted).toEqual([{ url: '/api/cases/42/participants', body: { userIds: [9] } }]);
  });
});
