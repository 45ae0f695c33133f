// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import { jsonResponse, mockFetch, renderApp, sessionFixture, sessionWith, setScreenWidth, settingsFixture } from '../../test/utils.js';
import type { SessionInfo } from '../../../../core/auth.js';
import i18n from '../../i18n/index.js';

vi.mock('../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));

const calendar = { workDays: ['mon', 'tue', 'wed', 'thu', 'fri'], workStart: '08:00', workEnd: '17:00', timeZone: 'America/New_York', updatedAt: null };

function serve(session: SessionInfo = sessionFixture, put?: (body: Record<string, unknown>) => Response) {
  return mockFetch((url, init) => {
    if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
    if (url === '/api/auth/session') return jsonResponse(session);
    if (url === '/api/settings/calendar' && !init?.method) return jsonResponse(calendar);
    if (url === '/api/settings/calendar' && init?.method === 'PUT') {
      const body = JSON.parse(String(init.body)) as Record<string, unknown>;
      return put ? put(body) : jsonResponse({ ...body, updatedAt: '2026-11-24T12:00:00.000Z' });
    }
    return jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);
  });
}

const putBody = (fetchMock: ReturnType<typeof mockFetch>) =>
  JSON.parse(String(fetchMock.mock.calls.find(([url, init]) => url === '/api/settings/calendar' && init?.method === 'PUT')?.[1]?.body));

describe('/configuracion/calendario', () => {
  test('shows the calendar, links to the holidays master, and saves the working days and hours', async () => {
    setScreenWidth(1366);
    const fetchMock = serve();
    renderApp('/configuracion/calendario');
    expect(await screen.findByRole('checkbox', { name: 'Monday' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Saturday' })).not.toBeChecked();
    expect(screen.getByLabelText(/Working day starts/)).toHaveValue('08:00');
    expect(screen.getByRole('combobox', { name: 'Time zone' })).toHaveValue('America/New_York');
    expect(screen.getByRole('link', { name: 'Edit holidays' })).toHaveAttribute('href', '/main/festivos');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Saturday' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Monday' }));
    fireEvent.change(screen.getByLabelText(/Working day ends/), { target: { value: '16:30' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Business calendar saved')).toBeInTheDocument();
    expect(putBody(fetchMock)).toEqual({ workDays: ['tue', 'wed', 'thu', 'fri', 'sat'], workStart: '08:00', workEnd: '16:30', timeZone: 'America/New_York' });
  });

  test('checks the hours before sending, and shows what the server refuses next to its field', async () => {
    setScreenWidth(1366);
    const fetchMock = serve(sessionFixture, () =>
      jsonResponse({ error: { code: 'VALIDATION', message: 'Some values are not valid', details: [{ path: 'timeZone', message: 'You must choose an option' }] } }, 400),
    );
    renderApp('/configuracion/calendario');
    fireEvent.change(await screen.findByLabelText(/Working day ends/), { target: { value: '07:00' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The working day must end after it starts')).toBeInTheDocument();
    for (const day of ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday']) fireEvent.click(screen.getByRole('checkbox', { name: day }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Choose at least one working day')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PUT')).toBe(false);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Monday' }));
    fireEvent.change(screen.getByLabelText(/Working day ends/), { target: { value: '17:00' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const zone = await screen.findByText('You must choose an option');
    expect(zone.closest('.MuiFormControl-root')).toBeTruthy();
    await waitFor(() => expect(putBody(fetchMock).workDays).toEqual(['mon']));
  });

  test('someone who may only read it sees no Save button and cannot tick days', async () => {
    setScreenWidth(1366);
    const session = sessionWith(['menu_configuracion'], { rules: { menu_configuracion: ['show'] } });
    serve(session);
    renderApp('/configuracion/calendario');
    const monday = await screen.findByRole('checkbox', { name: 'Monday' });
    expect(monday).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    // Without the masters menu the holidays are named but not linked.
    expect(screen.queryByRole('link', { name: 'Edit holidays' })).not.toBeInTheDocument();
  });

  test('in Spanish', async () => {
    setScreenWidth(1366);
    serve();
    await i18n.changeLanguage('es');
    renderApp('/configuracion/calendario');
    expect(await screen.findByRole('checkbox', { name: 'Lunes' })).toBeChecked();
    const main = screen.getByRole('main');
    expect(within(main).getAllByText('Calendario laboral').length).toBeGreaterThan(0);
    expect(screen.getByRole('button', { name: 'Guardar' })).toBeInTheDocument();
  });
});
