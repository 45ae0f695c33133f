// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import i18n from '../../../i18n/index.js';
import { jsonResponse, renderApp } from '../../../test/utils.js';
import type { Draft } from '../api.js';
import { applicationForm, body, caseDetail, fakeCases, serveCases } from './testServer.js';

vi.mock('../../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));

const field = (name: RegExp) => screen.findByRole('textbox', { name });
const type = async (name: RegExp, value: string) => {
  const input = await field(name);
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
};
const calls = (mock: ReturnType<typeof serveCases>, url: string, method: string) =>
  mock.mock.calls.filter(([u, init]) => u === url && (init?.method ?? 'GET') === method);

const draft = (over: Partial<Draft> = {}): Draft => ({
  id: 12,
  protocolId: 1,
  protocolName: 'Rental assistance',
  formId: 3,
  form: applicationForm,
  data: { firstName: 'Lucía', lastName: 'Ortega' },
  version: 4,
  updatedAt: '2026-11-21T15:00:00.000Z',
  ...over,
});

describe('/cases/new', () => {
  test("'Save, but come back later to complete' keeps a draft; Drafts continues it with the values typed", async () => {
    const state = fakeCases();
    const fetchMock = serveCases(state);
    const { router } = renderApp('/cases/new');
    expect(await screen.findByRole('heading', { level: 1, name: 'New application' })).toBeInTheDocument();
    expect(await screen.findByText('Protocol: Rental assistance')).toBeInTheDocument();
    await type(/^First name/, 'Lucía');
    await type(/^Monthly rent/, '1200');
    fireEvent.click(screen.getByRole('button', { name: 'Save, but come back later to complete' }));

    // Kept as typed (not yet valid: the last name is missing), then the list of drafts.
    await waitFor(() => expect(router.state.location.pathname).toBe('/cases/drafts'));
    expect(await screen.findByText('Your draft was saved. Continue it from Drafts whenever you like.')).toBeInTheDocument();
    const [created] = calls(fetchMock, '/api/cases/drafts', 'POST');
    expect(body(created?.[1])).toMatchObject({ protocolId: 1, data: { firstName: 'Lucía', payRent: '1200' } });

    fireEvent.click(await screen.findByRole('link', { name: 'Continue the application of Lucía' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Application draft' })).toBeInTheDocument();
    expect(router.state.location.search).toBe('?draft=100');
    expect(await field(/^First name/)).toHaveValue('Lucía');
    expect(await field(/^Monthly rent/)).toHaveValue('1200');
  });

  test('autosaves at the project interval while the values change, and shows the status', async () => {
    const state = fakeCases();
    state.options.autosaveSeconds = 1;
    state.drafts.set(12, draft());
    const fetchMock = serveCases(state);
    renderApp('/cases/new?draft=12');
    await type(/^Last name/, 'Ortega Ruiz');
    await waitFor(() => expect(calls(fetchMock, '/api/cases/drafts/12', 'PUT')).toHaveLength(1), { timeout: 15_000 });
    const [put] = calls(fetchMock, '/api/cases/drafts/12', 'PUT');
    expect(body(put?.[1])).toEqual({ data: expect.objectContaining({ firstName: 'Lucía', lastName: 'Ortega Ruiz' }), version: 4 });
    expect(await within(screen.getByRole('toolbar', { name: 'Draft' })).findByText('Saved')).toBeInTheDocument();
    // Nothing changed since: no second save.
    await act(() => new Promise((resolve) => setTimeout(resolve, 1500)));
    expect(calls(fetchMock, '/api/cases/drafts/12', 'PUT')).toHaveLength(1);
  });

  test('Continue leads to "Check your answers"; Submit there shows the reference, what happens next, the possible-duplicate flag and a link to the case', async () => {
    const state = fakeCases({
      submit: (id, data) => {
        state.cases.set(id, caseDetail({ id, data, possibleDuplicated: true, applicant: 'Lucía Ortega' }));
        return jsonResponse({ id, number: '2026-11-000042' });
      },
    });
    const fetchMock = serveCases(state);
    const { router } = renderApp('/cases/new');
    await type(/^First name/, 'Lucía');
    await type(/^Last name/, 'Ortega');
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    // Every answer to check, nothing sent yet.
    const check = await screen.findByRole('heading', { level: 2, name: 'Check your answers before submitting your application' });
    await waitFor(() => expect(check).toHaveFocus());
    expect(screen.getByRole('region', { name: 'Your answers' })).toHaveTextContent(/First name\s*Lucía/);
    expect(screen.getByRole('button', { name: 'Change Last name' })).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => String(url).endsWith('/submit'))).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Submit application' }));
    expect(await screen.findByText('Your application number is 2026-11-000042')).toBeInTheDocument();
    expect(screen.getByText('We have sent you an email with this number and a link to your application.')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'What happens next' })).toHaveTextContent('We will email you when a decision has been made.');
    expect(await screen.findByText("Possible duplicate: another application shares this applicant's details.")).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open application 2026-11-000042' })).toHaveAttribute('href', '/cases/100');
    expect(screen.getByRole('link', { name: 'Open application 2026-11-000042' })).toHaveTextContent('View your application');
    // The draft was made first, then submitted with the checked values.
    const [submitted] = calls(fetchMock, '/api/cases/drafts/100/submit', 'POST');
    expect(body(submitted?.[1]).data).toMatchObject({ firstName: 'Lucía', lastName: 'Ortega' });
    expect(router.state.location.search).toBe('');
  });

  test('the form is checked before anything is submitted', async () => {
    const state = fakeCases();
    const fetchMock = serveCases(state);
    renderApp('/cases/new');
    await type(/^First name/, 'Lucía');
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('This field is required')).toBeInTheDocument();
    // The summary above the form names the problem and leads to its field.
    const summary = await screen.findByRole('alert', { name: '' }).catch(() => screen.getAllByRole('alert')[0] as HTMLElement);
    expect(screen.getByText('There is a problem')).toBeInTheDocument();
    const link = screen.getByRole('button', { name: 'Last name: This field is required' });
    expect(summary).toContainElement(link);
    (await field(/^First name/)).focus();
    fireEvent.click(link);
    await waitFor(async () => expect(await field(/^Last name/)).toHaveFocus());
    expect(screen.queryByRole('heading', { name: 'Check your answers before submitting your application' })).not.toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => String(url).endsWith('/submit'))).toBe(false);
  });

  test.each([
    ['DUPLICATE_CASE', 409, 'An application for this applicant already exists', 'Ya existe una radicación para este solicitante'],
    ['APPLICATIONS_CLOSED', 409, 'The creation of new applications has been disabled.', 'La creación de nuevas radicaciones ha sido deshabilitada.'],
    ['DOCUMENTS_REQUIRED', 422, "Can't make this action without documents in the application", 'No se puede realizar esta acción sin documentos en la radicación'],
  ])('a refused submit (%s) shows the message, in English and in Spanish, and loses nothing', async (code, status, english, spanish) => {
    const state = fakeCases({ submit: () => jsonResponse({ error: { code, message: i18n.language === 'es' ? spanish : english } }, status) });
    state.drafts.set(12, draft());
    serveCases(state);
    renderApp('/cases/new?draft=12');
    await type(/^Last name/, 'Ortega Ruiz');
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Submit application' }));
    expect(await screen.findByText(english)).toBeInTheDocument();
    expect(screen.getByText('Your application is kept as a draft: nothing you typed is lost.')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Your answers' })).toHaveTextContent('Ortega Ruiz');
    // What was typed was saved to the draft before submitting.
    expect(state.drafts.get(12)?.data.lastName).toBe('Ortega Ruiz');

    await act(async () => {
      await i18n.loadLanguages('es');
      await i18n.changeLanguage('es');
    });
    // Change goes back to the field, with every answer kept.
    fireEvent.click(screen.getByRole('button', { name: 'Cambiar Apellidos' }));
    await waitFor(async () => expect(await field(/^Apellidos/)).toHaveFocus());
    expect(await field(/^Apellidos/)).toHaveValue('Ortega Ruiz');
    await type(/^Apellidos/, 'Ortega Ruiz de León');
    fireEvent.click(screen.getByRole('button', { name: 'Continuar' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Revise sus respuestas antes de enviar la radicación' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Enviar radicación' }));
    expect(await screen.findByText(spanish)).toBeInTheDocument();
    expect(screen.getByText('Su radicación se conserva como borrador: no se perdió nada de lo que escribió.')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Sus respuestas' })).toHaveTextContent('Ortega Ruiz de León');
    expect(state.drafts.get(12)?.data.lastName).toBe('Ortega Ruiz de León');
  });

  test('after the deadline a new application cannot start: the message says so and no form shows', async () => {
    const state = fakeCases();
    state.options.open = false;
    serveCases(state);
    renderApp('/cases/new');
    expect(await screen.findByText('The creation of new applications has been disabled.')).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: /^First name/ })).not.toBeInTheDocument();
  });

  test('under maintenance the form does not show; the notice says why, in Spanish too', async () => {
    const state = fakeCases();
    state.options.maintenance = true;
    serveCases(state);
    renderApp('/cases/new');
    expect(await screen.findByText('Applications are paused for maintenance. Please try again later.')).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: /^First name/ })).not.toBeInTheDocument();
    await act(() => i18n.changeLanguage('es'));
    expect(await screen.findByText('Las radicaciones están en pausa por mantenimiento. Inténtelo más tarde.')).toBeInTheDocument();
    await act(() => i18n.changeLanguage('en'));
  });

  test("a draft changed elsewhere (stale version): nothing typed is lost, and 'Keep my version' saves it over the other", async () => {
    const state = fakeCases();
    state.drafts.set(12, draft());
    const fetchMock = serveCases(state);
    renderApp('/cases/new?draft=12');
    await field(/^First name/);
    // Another tab saves the draft meanwhile.
    (state.drafts.get(12) as Draft).version = 5;
    (state.drafts.get(12) as Draft).data = { firstName: 'Lucy', lastName: 'Ortega' };
    await type(/^Last name/, 'Ortega Ruiz');
    fireEvent.click(screen.getByRole('button', { name: 'Save, but come back later to complete' }));
    expect(await screen.findByText('Someone else changed this application while you had it open. Reload and try again.')).toBeInTheDocument();
    expect(screen.getByText(/Nothing you typed is lost: it is still in the form/)).toBeInTheDocument();
    expect(await field(/^Last name/)).toHaveValue('Ortega Ruiz');

    fireEvent.click(screen.getByRole('button', { name: 'Keep my version' }));
    await waitFor(() => expect(state.drafts.get(12)?.data).toMatchObject({ firstName: 'Lucía', lastName: 'Ortega Ruiz' }));
    const puts = calls(fetchMock, '/api/cases/drafts/12', 'PUT');
    expect(body(puts.at(-1)?.[1]).version).toBeUndefined();
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Keep my version' })).not.toBeInTheDocument());
  });

  test("a stale draft: 'Load the saved version' asks first, then shows the other version", async () => {
    const state = fakeCases();
    state.drafts.set(12, draft());
    serveCases(state);
    renderApp('/cases/new?draft=12');
    await field(/^First name/);
    Object.assign(state.drafts.get(12) as Draft, { version: 5, data: { firstName: 'Lucy', lastName: 'Ortega' } });
    await type(/^Last name/, 'Ortega Ruiz');
    fireEvent.click(screen.getByRole('button', { name: 'Save, but come back later to complete' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Load the saved version' }));
    const dialog = await screen.findByRole('dialog', { name: 'Load the saved version?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(await field(/^Last name/)).toHaveValue('Ortega Ruiz');
    fireEvent.click(screen.getByRole('button', { name: 'Load the saved version' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Load the saved version?' })).getByRole('button', { name: 'Load the saved version' }));
    await waitFor(async () => expect(await field(/^First name/)).toHaveValue('Lucy'));
    expect(await field(/^Last name/)).toHaveValue('Ortega');
    expect(screen.queryByRole('button', { name: 'Keep my version' })).not.toBeInTheDocument();
  });

  test('when several protocols are published, the user chooses one first', async () => {
    const state = fakeCases();
    state.options.protocols.push({ id: 2, name: 'Title clearance', caseType: 'RADICACION_PUBLICA', formId: 4, form: { ...applicationForm, description: 'Clear the title of a property' } });
    serveCases(state);
    renderApp('/cases/new');
    expect(await screen.findByText('Choose what you are applying for.')).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: /^First name/ })).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Start an application for Title clearance' }));
    expect(await screen.findByText('Protocol: Title clearance')).toBeInTheDocument();
    expect(await field(/^First name/)).toBeInTheDocument();
  });

  test('?protocol=ID (Apply on a public programme page) opens that form at once; an id the user may not start shows the choice', async () => {
    const state = fakeCases();
    state.options.protocols.push({ id: 2, name: 'Title clearance', caseType: 'RADICACION_PUBLICA', formId: 4, form: applicationForm });
    const fetchMock = serveCases(state);
    const { unmount } = renderApp('/cases/new?protocol=2');
    expect(await screen.findByText('Protocol: Title clearance')).toBeInTheDocument();
    await type(/^First name/, 'Lucía');
    fireEvent.click(screen.getByRole('button', { name: 'Save, but come back later to complete' }));
    await waitFor(() => expect(calls(fetchMock, '/api/cases/drafts', 'POST')).toHaveLength(1));
    expect(body(calls(fetchMock, '/api/cases/drafts', 'POST')[0]?.[1])).toMatchObject({ protocolId: 2 });
    unmount();

    renderApp('/cases/new?protocol=99');
    expect(await screen.findByText('Choose what you are applying for.')).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: /^First name/ })).not.toBeInTheDocument();
  });

  test('a stepper: Next sums up the step\'s problems above the form, each a link to its field; the answers are checked by step and Change opens the step at the field', async () => {
    const stepped: typeof applicationForm = {
      ...applicationForm,
      layout: 'stepper',
      fields: [
        {
          name: 'application', type: 'stepper', label: 'Solicitud', label_en: 'Application',
          children: [
            { name: 'who', type: 'step', label: 'Solicitante', label_en: 'Applicant', children: [applicationForm.fields[0], applicationForm.fields[1]] as typeof applicationForm.fields },
            { name: 'rent', type: 'step', label: 'Renta', label_en: 'Rent', children: [applicationForm.fields[2]] as typeof applicationForm.fields },
          ],
        },
      ],
    };
    const state = fakeCases();
    state.drafts.set(12, draft({ form: stepped, data: {} }));
    const fetchMock = serveCases(state);
    renderApp('/cases/new?draft=12');
    await field(/^First name/);
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('There is a problem')).toBeInTheDocument();
    const toLast = screen.getByRole('button', { name: 'Last name: This field is required' });
    expect(screen.getByRole('button', { name: 'First name: This field is required' })).toBeInTheDocument();
    fireEvent.click(toLast);
    await waitFor(async () => expect(await field(/^Last name/)).toHaveFocus());

    await type(/^First name/, 'Lucía');
    await type(/^Last name/, 'Ortega');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await type(/^Monthly rent/, '950');
    // A step that passed clears the summary.
    expect(screen.queryByText('There is a problem')).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));

    expect(await screen.findByRole('region', { name: 'Applicant' })).toHaveTextContent(/Last name\s*Ortega/);
    expect(screen.getByRole('region', { name: 'Rent' })).toHaveTextContent(/Monthly rent\s*950/);
    fireEvent.click(screen.getByRole('button', { name: 'Change First name' }));
    await waitFor(async () => expect(await field(/^First name/)).toHaveFocus());
    expect(screen.getByRole('heading', { name: 'Step 1 of 2: Applicant' })).toBeInTheDocument();
    expect(await field(/^First name/)).toHaveValue('Lucía');
    expect(fetchMock.mock.calls.some(([url]) => String(url).endsWith('/submit'))).toBe(false);
  });
});
