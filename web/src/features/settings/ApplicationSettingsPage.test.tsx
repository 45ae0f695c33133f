// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import type { SessionInfo } from '../../../../core/auth.js';
import type { ProjectSettings } from '../../../../core/project.js';
import i18n from '../../i18n/index.js';
import { jsonResponse, mockFetch, renderApp, sessionFixture, sessionWith, setScreenWidth, settingsFixture } from '../../test/utils.js';
import { keysFor } from '../../app/realtime/invalidation.js';

vi.mock('../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));

const application = {
  project: 'applications',
  projects: [{ uid: 'applications', title: 'Demo Housing Agency', isDefault: true }],
  title: 'Demo Housing Agency',
  description: 'Rental assistance',
  colors: { primary: '#0D47A1', secondary: '#757575', accent: '#9E9E9E', text: '#212121' },
  logo: null,
  favicon: null,
  supportPhone: '+1 (555) 010-0100',
  language: 'en',
  timeZone: 'America/New_York',
  idleTimeoutSeconds: 3000,
  autosaveSeconds: 300,
  newApplicationsDeadline: '2030-12-01T17:00:00',
  allowNewApplications: true,
  maintenance: false,
  blockIndexing: false,
};
const plan = { plan: 1, accountLimit: 50, accountsUsed: 46, accountsAvailable: 4, diskQuotaMb: 1024, filesMb: 10.5, databaseMb: 2.25, databaseMeasuredAt: '2026-11-24T12:00:00.000Z', warnings: ['accounts'] };

function serve(options: { session?: SessionInfo; put?: (body: Record<string, unknown>) => Response; shell?: () => ProjectSettings } = {}) {
  return mockFetch((url, init) => {
    if (url.endsWith('/settings')) return jsonResponse(options.shell?.() ?? settingsFixture);
    if (url === '/api/auth/session') return jsonResponse(options.session ?? sessionFixture);
    if (url === '/api/settings/plan') return jsonResponse(plan);
    if (url === '/api/settings/application' && !init?.method) return jsonResponse(application);
    if (url === '/api/settings/application' && init?.method === 'PUT') {
      const body = JSON.parse(String(init.body)) as Record<string, unknown>;
      return options.put ? options.put(body) : jsonResponse({ ...application, ...body, newApplicationsDeadline: body.newApplicationsDeadline ? `${body.newApplicationsDeadline}:00` : null });
    }
    return jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);
  });
}
const puts = (fetchMock: ReturnType<typeof mockFetch>) =>
  fetchMock.mock.calls.filter(([url, init]) => url === '/api/settings/application' && init?.method === 'PUT').map(([, init]) => JSON.parse(String(init?.body)));

describe('/configuracion', () => {
  test('shows every setting, previews the colours live with their WCAG AA contrast, and saves them all', async () => {
    setScreenWidth(1366);
    const fetchMock = serve();
    renderApp('/configuracion');
    const primary = await screen.findByRole('textbox', { name: 'Primary colour' });
    expect(primary).toHaveValue('#0D47A1');
    expect(screen.getByRole('textbox', { name: 'Application title' })).toHaveValue('Demo Housing Agency');
    expect(screen.getByRole('combobox', { name: 'Time zone' })).toHaveValue('America/New_York');
    expect(screen.getByLabelText(/Deadline for new applications/)).toHaveValue('2030-12-01T17:00');

    // The preview follows the colour as it is typed, and the contrast check with it.
    const preview = screen.getByRole('group', { name: 'Preview' });
    expect(within(preview).getByTestId('preview-app-bar')).toHaveStyle({ backgroundColor: '#0D47A1' });
    const whiteOnPrimary = within(preview).getByText(/White on the primary colour/).closest('li') as HTMLElement;
    expect(whiteOnPrimary).toHaveTextContent('8.63:1');
    expect(whiteOnPrimary).toHaveTextContent('Passes');
    fireEvent.change(primary, { target: { value: '#FFEB3B' } });
    expect(within(preview).getByTestId('preview-app-bar')).toHaveStyle({ backgroundColor: '#FFEB3B' });
    expect(within(preview).getByTestId('preview-button')).toHaveStyle({ backgroundColor: '#FFEB3B' });
    expect(whiteOnPrimary).toHaveTextContent('Fails');
    const textOnWhite = within(preview).getByText(/Text colour on white/).closest('li') as HTMLElement;
    expect(textOnWhite).toHaveTextContent('16.10:1');
    fireEvent.change(screen.getByRole('textbox', { name: 'Text colour' }), { target: { value: '#AAAAAA' } });
    expect(textOnWhite).toHaveTextContent('2.32:1');
    expect(textOnWhite).toHaveTextContent('Fails');
    expect(within(preview).getByTestId('preview-text')).toHaveStyle({ color: '#AAAAAA' });
    expect(screen.getByText('Unsaved changes')).toBeInTheDocument();

    fireEvent.change(primary, { target: { value: '#1565C0' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Text colour' }), { target: { value: '#212121' } });
    fireEvent.change(screen.getByLabelText(/Sign out after inactivity/), { target: { value: '1800' } });
    fireEvent.click(screen.getByRole('switch', { name: /Ask search engines not to index/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Settings saved')).toBeInTheDocument();
    expect(puts(fetchMock)).toEqual([
      {
        title: 'Demo Housing Agency', description: 'Rental assistance', colors: { ...application.colors, primary: '#1565C0' }, supportPhone: '+1 (555) 010-0100',
        language: 'en', timeZone: 'America/New_York', idleTimeoutSeconds: 1800, autosaveSeconds: 300, newApplicationsDeadline: '2030-12-01T17:00',
        allowNewApplications: true, maintenance: false, blockIndexing: true,
      },
    ]);
    // The plan: accounts near the limit are warned about.
    expect(screen.getByText('Accounts are past 90 % of the plan.')).toBeInTheDocument();
    expect(screen.getByText('46 of 50 used, 4 available')).toBeInTheDocument();
    expect(screen.getByText('12.75 MB of 1024 MB used')).toBeInTheDocument();
  });

  test('names a bad value before sending, and what the server refuses next to its field', async () => {
    setScreenWidth(1366);
    const fetchMock = serve({
      put: () => jsonResponse({ error: { code: 'VALIDATION', message: 'Some values are not valid', details: [{ path: 'supportPhone', message: 'Invalid phone number' }] } }, 400),
    });
    renderApp('/configuracion');
    fireEvent.change(await screen.findByRole('textbox', { name: 'Accent colour' }), { target: { value: 'orange' } });
    fireEvent.change(screen.getByLabelText(/Save drafts every/), { target: { value: '2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Write the colour as #RRGGBB')).toBeInTheDocument();
    expect(screen.getByText('The number must be at least 10')).toBeInTheDocument();
    expect(puts(fetchMock)).toEqual([]);

    fireEvent.change(screen.getByRole('textbox', { name: 'Accent colour' }), { target: { value: '#FFB300' } });
    fireEvent.change(screen.getByLabelText(/Save drafts every/), { target: { value: '60' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Invalid phone number')).toBeInTheDocument();
    expect(puts(fetchMock)).toHaveLength(1);
  });

  test('switching maintenance on asks first; cancelled, nothing is sent', async () => {
    setScreenWidth(1366);
    const fetchMock = serve();
    renderApp('/configuracion');
    fireEvent.click(await screen.findByRole('switch', { name: /Maintenance: pause new applications/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const dialog = await screen.findByRole('dialog', { name: 'Switch maintenance on?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(puts(fetchMock)).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Switch maintenance on?' })).getByRole('button', { name: 'Switch on and save' }));
    await waitFor(() => expect(puts(fetchMock)).toHaveLength(1));
    expect(puts(fetchMock)[0].maintenance).toBe(true);
  });

  test('read-only without update: fields disabled, no Save, no upload', async () => {
    setScreenWidth(1366);
    serve({ session: sessionWith(['menu_configuracion'], { rules: { menu_configuracion: ['show'] } }) });
    renderApp('/configuracion');
    expect(await screen.findByRole('textbox', { name: 'Primary colour' })).toBeDisabled();
    expect(screen.getByText('You may read these settings but not change them.')).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: /Maintenance/ })).toBeDisabled();
    expect(screen.getByRole('combobox', { name: 'Time zone' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Upload logo' })).not.toBeInTheDocument();
    // The preview and the contrast still show.
    expect(screen.getByText(/White on the primary colour/)).toBeInTheDocument();
  });

  test('in Spanish, on a phone', async () => {
    setScreenWidth(320);
    serve();
    await i18n.changeLanguage('es');
    renderApp('/configuracion');
    expect(await screen.findByRole('textbox', { name: 'Color primario' })).toHaveValue('#0D47A1');
    expect(within(screen.getByRole('main')).getAllByText('Configuración de la aplicación').length).toBeGreaterThan(0);
    expect(screen.getByText(/Blanco sobre el color primario/).closest('li')).toHaveTextContent('Cumple');
    expect(screen.getByRole('button', { name: 'Guardar' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Subir logo' })).toBeInTheDocument();
    expect(screen.getByText('Las cuentas superan el 90 % del plan.')).toBeInTheDocument();
    await act(() => i18n.changeLanguage('en'));
  });

  test('a saved change re-themes the open page: title, and a maintenance banner for everyone signed in', async () => {
    setScreenWidth(1366);
    let shell: ProjectSettings = { ...settingsFixture, title: 'Before' };
    serve({ shell: () => shell });
    const { queryClient } = renderApp('/home');
    await waitFor(() => expect(document.title).toBe('Before'));
    expect(screen.queryByTestId('maintenance-banner')).not.toBeInTheDocument();
    // What the realtime `project` change makes stale, as another tab's save would.
    shell = { ...settingsFixture, title: 'After', maintenance: true, blockIndexing: true };
    await act(async () => {
      for (const queryKey of keysFor({ kind: 'project', ids: [1], caseIds: [] })) await queryClient.invalidateQueries({ queryKey });
    });
    await waitFor(() => expect(document.title).toBe('After'));
    expect(await screen.findByTestId('maintenance-banner')).toHaveTextContent('Maintenance in progress');
    expect(document.querySelector('meta[name="robots"]')).toHaveAttribute('content', 'noindex, nofollow');
  });
});
