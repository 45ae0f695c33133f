// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, test, vi } from 'vitest';
import { setLanguage } from '../../i18n/index.js';
import { reloadPage } from '../../lib/browser.js';
import { writeCookie } from '../../lib/cookies.js';
import { jsonResponse, mockFetch, mockSettingsFetch, renderApp, sessionFixture, settingsFixture } from '../../test/utils.js';

vi.mock('../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));

describe('BlankLayout', () => {
  beforeEach(() => vi.mocked(reloadPage).mockClear());

  test('shows the loading text until the settings arrive', async () => {
    let answer: (response: Response) => void = () => {};
    // The settings are held back; the session (asked for once they arrive) answers at once.
    mockFetch((url) =>
      url.endsWith('/settings') ? new Promise<Response>((resolve) => (answer = resolve)) : jsonResponse(sessionFixture),
    );
    renderApp('/home');
    expect(screen.getByTestId('loading-project')).toHaveTextContent('Loading project...');
    answer(jsonResponse(settingsFixture));
    expect(await screen.findByRole('heading', { name: 'Welcome, Demo Coordinator' })).toBeInTheDocument();
    expect(screen.queryByTestId('loading-project')).not.toBeInTheDocument();
  });

  test('the loading text is translated', async () => {
    await setLanguage('es');
    mockFetch(() => new Promise<Response>(() => {}));
    renderApp('/home');
    expect(screen.getByTestId('loading-project')).toHaveTextContent('Cargando proyecto...');
  });

  test('asks for the project named by the projectid cookie, else the default one', async () => {
    const fetchMock = mockSettingsFetch();
    writeCookie('projectid', 'other', 60);
    renderApp('/home');
    await screen.findByRole('heading', { name: 'Welcome, Demo Coordinator' });
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/projects/other/settings');
  });

  test('a failed load shows the configuration dialog whose Retry reloads the page', async () => {
    mockFetch(() => jsonResponse({ error: { code: 'NOT_FOUND', message: 'Project not found' } }, 404));
    renderApp('/home');
    const dialog = await screen.findByRole('dialog', { name: 'The configuration could not be loaded' });
    expect(dialog).toBeInTheDocument();
    expect(screen.queryByTestId('loading-project')).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(reloadPage).toHaveBeenCalledTimes(1);
  });

  test('the failure dialog in Spanish', async () => {
    await setLanguage('es');
    mockFetch(() => jsonResponse({ error: { code: 'NOT_FOUND', message: 'No existe' } }, 404));
    renderApp('/home');
    expect(await screen.findByRole('dialog', { name: 'No se pudo cargar la configuración' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reintentar' })).toBeInTheDocument();
  });

  test('applies the project title and favicon to the document', async () => {
    const link = document.createElement('link');
    link.id = 'favicon';
    document.head.append(link);
    mockSettingsFetch({ ...settingsFixture, title: 'Other Agency', favicon: '/files/other/favicon.png' });
    renderApp('/home');
    await waitFor(() => expect(document.title).toBe('Other Agency'));
    expect(link.getAttribute('href')).toBe('/files/other/favicon.png');
    link.remove();
  });
});
