// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, test, vi } from 'vitest';
import type { TaskTemplate } from '../../../../core/workflow/protocol.js';
import { setLanguage } from '../../i18n/index.js';
import { jsonResponse, mockFetch, renderApp, sessionFixture, setScreenWidth, settingsFixture } from '../../test/utils.js';
import type { ProtocolDetail } from './api.js';
import { protocolDetail, stubResizeObserver, task } from './testProtocol.js';

vi.mock('../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));

const detail = protocolDetail([task('intake', 'Intake review', { onAccept: [{ to: 'eligibility' }] }), task('eligibility', 'Eligibility', { onReject: { to: 'intake' } })]);

function serve(protocol: ProtocolDetail = detail, saved?: () => Response) {
  return mockFetch((url, init) => {
    if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
    if (url === '/api/auth/session') return jsonResponse(sessionFixture);
    if (url === '/api/protocols/1' && !init?.method) return jsonResponse(protocol);
    if (url === '/api/protocols/1' && init?.method === 'PUT') {
      if (saved) return saved();
      return jsonResponse(
        { error: { code: 'UNPROCESSABLE', message: 'The request could not be processed.', details: [{ path: 'tasks.eligibility.responsible', message: 'This team does not exist' }] } },
        422,
      );
    }
    if (url.startsWith('/api/forms?')) return jsonResponse({ items: [{ id: 1, code: 'application', name: 'Application' }], total: 1 });
    if (url.startsWith('/api/forms/1')) return jsonResponse({ definition: { fields: [{ name: 'housing_assistance', type: 'checkbox', label: 'Sección 8', label_en: 'Section 8' }] } });
    if (url.startsWith('/api/teams?')) return jsonResponse({ items: [{ id: 1, name: 'Intake', assignment: 'round_robin', active: true }], total: 1 });
    if (url.startsWith('/api/team-members/user-options')) return jsonResponse([]);
    return jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);
  });
}

beforeEach(() => {
  stubResizeObserver();
});

describe('/protocolos/:id', () => {
  test('an accept edge condition is checked as it is typed, with the position of the error', async () => {
    setScreenWidth(1366);
    serve();
    renderApp('/protocolos/1');
    fireEvent.click(await screen.findByRole('button', { name: 'Edit: Intake review' }));
    const dialog = await screen.findByRole('dialog', { name: 'Task: Intake review' });
    const condition = within(dialog).getByRole('textbox', { name: 'Condition (optional)' });
    fireEvent.change(condition, { target: { value: 'amount > ' } });
    expect(within(dialog).getByText('The condition is not valid at position 10')).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));
    expect(within(dialog).getByText('Fix the condition first')).toBeInTheDocument();
    fireEvent.change(condition, { target: { value: 'amount > 5000' } });
    expect(within(dialog).queryByText(/not valid at position/)).not.toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // The list and the banner follow the draft.
    expect(screen.getByText('Next: Eligibility [amount > 5000] · Reject: Not eligible')).toBeInTheDocument();
    expect(screen.getByText(/Unpublished changes: new cases still use version 1/)).toBeInTheDocument();
  });

  test('a 422 on save shows each problem next to the task it names, and in its dialog', async () => {
    setScreenWidth(1366);
    const fetchMock = serve();
    renderApp('/protocolos/1');
    await screen.findByRole('button', { name: 'Edit: Intake review' });
    fireEvent.change(screen.getByRole('textbox', { name: /^Name/ }), { target: { value: 'Small protocol 2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const row = (await screen.findByText('This team does not exist')).closest('li') as HTMLElement;
    expect(row).toHaveAttribute('data-task', 'eligibility');
    expect(screen.getAllByText('The protocol has 1 problem(s)').length).toBeGreaterThan(0);
    const body = JSON.parse(String(fetchMock.mock.calls.find(([url, init]) => url === '/api/protocols/1' && init?.method === 'PUT')?.[1]?.body));
    expect(body).toMatchObject({ code: 'small', name: 'Small protocol 2', mainFormId: 1, definition: { start: ['intake'] } });
    fireEvent.click(within(row).getByRole('button', { name: 'Edit: Eligibility' }));
    const dialog = await screen.findByRole('dialog', { name: 'Task: Eligibility' });
    expect(within(dialog).getByText('This team does not exist')).toBeInTheDocument();
  });

  test('the reject of a task offers going back, and says when the target does not come before it', async () => {
    setScreenWidth(1366);
    serve();
    renderApp('/protocolos/1');
    fireEvent.click(await screen.findByRole('button', { name: 'Edit: Intake review' }));
    const dialog = await screen.findByRole('dialog', { name: 'Task: Intake review' });
    fireEvent.click(within(dialog).getByRole('radio', { name: 'Back to an earlier task' }));
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: /Back to/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'Eligibility' }));
    expect(within(dialog).getByText('Eligibility does not come before this task yet: link it with an accept arrow first.')).toBeInTheDocument();
  });
  test('a task\'s expiration is counted in calendar days (as before) or business days, sent with the protocol', async () => {
    setScreenWidth(1366);
    const fetchMock = serve();
    renderApp('/protocolos/1');
    fireEvent.click(await screen.findByRole('button', { name: 'Edit: Intake review' }));
    const dialog = await screen.findByRole('dialog', { name: 'Task: Intake review' });
    // A task saved before the choice existed counts calendar days.
    expect(within(dialog).getByRole('radio', { name: 'Calendar days' })).toBeChecked();
    expect(within(dialog).getByText(/Business days skip weekends and holidays/)).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('radio', { name: 'Business days' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const row = screen.getByRole('button', { name: 'Edit: Intake review' }).closest('li') as HTMLElement;
    expect(within(row).getByText(/2 business day\(s\)/)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fetchMock.mock.calls.some(([url, init]) => url === '/api/protocols/1' && init?.method === 'PUT')).toBe(true));
    const body = JSON.parse(String(fetchMock.mock.calls.find(([url, init]) => url === '/api/protocols/1' && init?.method === 'PUT')?.[1]?.body));
    const tasks = body.definition.tasks as TaskTemplate[];
    expect(tasks.find((x) => x.code === 'intake')).toMatchObject({ expirationDays: 2, expirationUnit: 'business' });
    // The other task was not touched: still without a unit, so calendar days.
    expect(tasks.find((x) => x.code === 'eligibility')?.expirationUnit).toBeUndefined();
    // Opened again, the dialog shows the choice.
    fireEvent.click(screen.getByRole('button', { name: 'Edit: Intake review' }));
    expect(within(await screen.findByRole('dialog', { name: 'Task: Intake review' })).getByRole('radio', { name: 'Business days' })).toBeChecked();
  });

  test.each([
    ['en', 'Public page', 'Title (Spanish)', 'Who may apply (English)', 'Open the public page', 'Save'],
    ['es', 'Página pública', 'Título (español)', 'Quién puede solicitarlo (inglés)', 'Abrir la página pública', 'Guardar'],
  ] as const)('the public page: its texts in both languages are saved with the protocol, a refused one shows under its field (%s)', async (language, section, titleEs, eligibilityEn, open, save) => {
    await setLanguage(language);
    setScreenWidth(1366);
    const published = { ...detail, public: true, publicUrl: 'http://localhost:3000/publico/900100200/small', publicPage: { ...detail.publicPage, titleEn: 'Small programme' } };
    const fetchMock = serve(published, () =>
      jsonResponse({ error: { code: 'VALIDATION', message: 'Some values are not valid', details: [{ path: 'publicPage.eligibilityEs', message: 'The text is too long' }] } }, 400),
    );
    renderApp('/protocolos/1');
    const region = await screen.findByRole('region', { name: section });
    expect(within(region).getByRole('link', { name: open })).toHaveAttribute('href', published.publicUrl);
    expect(within(region).getAllByRole('textbox')).toHaveLength(6);
    fireEvent.change(within(region).getByRole('textbox', { name: titleEs }), { target: { value: ' Programa pequeño ' } });
    fireEvent.change(within(region).getByRole('textbox', { name: eligibilityEn }), { target: { value: 'Renters.\nOf the area.' } });
    fireEvent.click(screen.getByRole('button', { name: save }));
    expect(await within(region).findByText('The text is too long')).toBeInTheDocument();
    const body = JSON.parse(String(fetchMock.mock.calls.find(([url, init]) => url === '/api/protocols/1' && init?.method === 'PUT')?.[1]?.body));
    expect(body.publicPage).toEqual({ titleEn: 'Small programme', titleEs: 'Programa pequeño', descriptionEn: '', descriptionEs: '', eligibilityEn: 'Renters.\nOf the area.', eligibilityEs: '' });
  });

  test.each([
    ['en', 'English name', 'Edit', 'Task', 'Name', 'Name in English', 'Apply', 'Save'],
    ['es', 'Nombre en inglés', 'Editar', 'Tarea', 'Nombre', 'Nombre en inglés', 'Aplicar', 'Guardar'],
  ] as const)('names in both languages: the protocol and its tasks keep a name and an English name, saved with the protocol (%s)', async (language, protocolNameEn, edit, task, taskName, taskNameEn, apply, save) => {
    await setLanguage(language);
    setScreenWidth(1366);
    const fetchMock = serve({ ...detail, nameEn: 'Small programme' });
    renderApp('/protocolos/1');
    const english = await screen.findByRole('textbox', { name: protocolNameEn });
    expect(english).toHaveValue('Small programme');
    fireEvent.change(english, { target: { value: ' Small aid ' } });
    fireEvent.click(await screen.findByRole('button', { name: `${edit}: Intake review` }));
    const dialog = await screen.findByRole('dialog', { name: `${task}: Intake review` });
    fireEvent.change(within(dialog).getByRole('textbox', { name: new RegExp(`^${taskName}\\s*\\*?$`) }), { target: { value: 'Revisión de ingreso' } });
    fireEvent.change(within(dialog).getByRole('textbox', { name: taskNameEn }), { target: { value: 'Intake review' } });
    fireEvent.click(within(dialog).getByRole('button', { name: apply }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    fireEvent.click(screen.getByRole('button', { name: save }));
    await waitFor(() => expect(fetchMock.mock.calls.some(([url, init]) => url === '/api/protocols/1' && init?.method === 'PUT')).toBe(true));
    const body = JSON.parse(String(fetchMock.mock.calls.find(([url, init]) => url === '/api/protocols/1' && init?.method === 'PUT')?.[1]?.body));
    expect(body.nameEn).toBe('Small aid');
    expect((body.definition.tasks as TaskTemplate[]).find((x) => x.code === 'intake')).toMatchObject({ name: 'Revisión de ingreso', name_en: 'Intake review' });
  });

  test('the public page has no link while the protocol is not public', async () => {
    setScreenWidth(1366);
    serve();
    renderApp('/protocolos/1');
    const region = await screen.findByRole('region', { name: 'Public page' });
    expect(within(region).queryByRole('link')).not.toBeInTheDocument();
  });
});
