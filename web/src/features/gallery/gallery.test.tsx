// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import i18n from '../../i18n/index.js';
import { jsonResponse, mockFetch, renderApp, sessionFixture, setScreenWidth, settingsFixture } from '../../test/utils.js';
import type { GalleryApp, Installed, InstallPlan } from './api.js';

vi.mock('../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));

const apps: GalleryApp[] = [
  {
    key: 'title-clearance',
    title: { en: 'Title clearance', es: 'Saneamiento de títulos' },
    description: { en: 'Owners ask for a clear title.', es: 'Los propietarios solicitan el saneamiento.' },
    contains: { forms: 2, masters: 1, protocols: 1, tasks: 4, teams: 2, mailTemplates: 1 },
    protocols: [{ code: 'title-clearance', name: 'Saneamiento de títulos', nameEn: 'Title clearance' }],
  },
];
const plan = (over: Partial<InstallPlan> = {}): InstallPlan => ({
  project: { uid: 'oficina-de-titulos', title: 'Oficina de Títulos', uidTaken: false },
  items: [
    { kind: 'form', code: 'title-clearance-request', name: 'Title clearance request', action: 'create', as: 'title-clearance-request' },
    { kind: 'form', code: 'title-search', name: 'Title search', action: 'rename', as: 'title-search-2' },
    { kind: 'team', code: 'closing', name: 'Closing', action: 'reuse', as: 'Closing' },
  ],
  problems: [],
  ok: true,
  ...over,
});
const installed: Installed = { ...plan(), projectId: 9, protocols: [{ id: 77, code: 'title-clearance', name: 'Title clearance', publicUrl: '/publico/900100200/title-clearance' }] };

function serve(options: { items?: GalleryApp[]; preview?: InstallPlan; install?: () => Response; importAnswer?: (body: { dryRun: boolean }) => Response } = {}) {
  return mockFetch((url, init) => {
    if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
    if (url === '/api/auth/session') return jsonResponse(sessionFixture);
    if (url === '/api/gallery') return jsonResponse({ items: options.items ?? apps });
    if (url.endsWith('/preview')) return jsonResponse(options.preview ?? plan());
    if (url.endsWith('/install')) return options.install ? options.install() : jsonResponse(installed, 201);
    if (url === '/api/projects/import' && options.importAnswer) return options.importAnswer(JSON.parse(String(init?.body)));
    return jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);
  });
}
async function inSpanish() {
  await i18n.loadLanguages('es');
  await i18n.changeLanguage('es');
}

describe('/vainilla-apps', () => {
  test('cards with what each application contains and a button to use it; export link', async () => {
    setScreenWidth(1366);
    serve();
    renderApp('/vainilla-apps');
    const card = await screen.findByRole('article', { name: 'Title clearance' });
    expect(within(card).getByText('Owners ask for a clear title.')).toBeInTheDocument();
    expect(within(card).getByText('Tasks')).toBeInTheDocument();
    expect(within(card).getByText('4')).toBeInTheDocument();
    const use = within(card).getByRole('link', { name: 'Use the application Title clearance' });
    expect(use).toHaveAttribute('href', '/vainilla/registrar-proyecto?app=title-clearance');
    // Export: the current project's file, by a plain link.
    expect(screen.getByRole('link', { name: 'Export' })).toHaveAttribute('href', '/api/projects/applications/export');
  });

  test('in Spanish on a phone, and the empty gallery says so', async () => {
    setScreenWidth(320);
    await inSpanish();
    serve({ items: [] });
    renderApp('/vainilla-apps');
    expect(await screen.findByText('No hay aplicaciones en la galería.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Galería de aplicaciones', level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Importar proyecto' })).toBeInTheDocument();
  });

  test('import: a file that is not JSON is refused at once; a good one is checked, reported and imported after confirming', async () => {
    setScreenWidth(1366);
    const calls: Array<{ dryRun: boolean }> = [];
    serve({
      importAnswer: (body) => {
        calls.push(body);
        return body.dryRun ? jsonResponse(plan()) : jsonResponse(installed, 201);
      },
    });
    renderApp('/vainilla-apps');
    const input = (await screen.findByTestId('gallery-import-file')) as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['not json'], 'x.json', { type: 'application/json' })] } });
    expect(await screen.findByText('The file is not a JSON file.')).toBeInTheDocument();
    fireEvent.change(input, { target: { files: [new File([JSON.stringify({ format: 'casebook.project/1' })], 'p.json', { type: 'application/json' })] } });
    expect(await screen.findByText('File: p.json')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Check the file' }));
    const report = await screen.findByRole('dialog', { name: 'What the import will do' });
    expect(within(report).getByText('Its code or name is taken: created as title-search-2')).toBeInTheDocument();
    fireEvent.click(within(report).getByRole('button', { name: 'Import' }));
    const confirm = await screen.findByRole('dialog', { name: 'Import the project?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Import' }));
    expect(await screen.findByRole('link', { name: 'Open the protocol Title clearance' })).toHaveAttribute('href', '/protocolos/77');
    expect(calls.map((c) => c.dryRun)).toEqual([true, false]);
  });

  test('import: a refused file shows the server report', async () => {
    setScreenWidth(1366);
    serve({
      importAnswer: () =>
        jsonResponse({ error: { code: 'BUNDLE_INVALID', message: 'The project file is not valid: see the report.', details: [{ path: 'protocols.x.mainForm', message: 'The form main is not in the file.' }] } }, 400),
    });
    renderApp('/vainilla-apps');
    const input = (await screen.findByTestId('gallery-import-file')) as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['{}'], 'p.json', { type: 'application/json' })] } });
    fireEvent.click(await screen.findByRole('button', { name: 'Check the file' }));
    const report = (await screen.findByText(/The form main is not in the file/)).closest('[role="alert"]') as HTMLElement;
    expect(within(report).getByText('The project file is not valid: see the report.')).toBeInTheDocument();
    expect(within(report).getByText('(protocols.x.mainForm)')).toBeInTheDocument();
  });
});

describe('/vainilla/registrar-proyecto', () => {
  test('suggests the uid from the title, reviews what will be created and the conflicts, then continues to confirm', async () => {
    setScreenWidth(1366);
    const fetchMock = serve();
    renderApp('/vainilla/registrar-proyecto?app=title-clearance');
    const titleField = await screen.findByRole('textbox', { name: /Project title/ });
    fireEvent.change(titleField, { target: { value: 'Oficina de Títulos' } });
    expect(screen.getByRole('textbox', { name: /Project address/ })).toHaveValue('oficina-de-titulos');
    // Enter submits the form.
    fireEvent.submit(titleField.closest('form') as HTMLFormElement);
    const created = await screen.findByRole('region', { name: 'What will be created' });
    expect(within(created).getByText('Title clearance request')).toBeInTheDocument();
    const conflicts = screen.getByRole('region', { name: 'Conflicts' });
    expect(within(conflicts).getByText('Your existing team Closing is used')).toBeInTheDocument();
    const call = fetchMock.mock.calls.find(([u]) => String(u).endsWith('/preview'));
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ uid: 'oficina-de-titulos', title: 'Oficina de Títulos' });
    expect(screen.getByRole('link', { name: 'Continue' })).toHaveAttribute('href', '/vainilla/confirmar-proyecto/title-clearance?uid=oficina-de-titulos&title=Oficina+de+T%C3%ADtulos');
  });

  test('in Spanish: a taken uid is shown and Continue is off; without an app it points to the gallery', async () => {
    setScreenWidth(320);
    await inSpanish();
    serve({ preview: plan({ project: { uid: 'taken', title: 'X', uidTaken: true }, ok: false, problems: [{ path: 'uid', message: 'La dirección de proyecto taken ya está en uso.' }] }) });
    const first = renderApp('/vainilla/registrar-proyecto?app=title-clearance');
    fireEvent.change(await screen.findByRole('textbox', { name: /Título del proyecto/ }), { target: { value: 'X' } });
    fireEvent.change(screen.getByRole('textbox', { name: /Dirección del proyecto/ }), { target: { value: 'taken' } });
    fireEvent.click(screen.getByRole('button', { name: 'Revisar' }));
    expect(await screen.findByText('La dirección de proyecto taken ya está en uso.')).toBeInTheDocument();
    expect(screen.getByText('La dirección taken ya está en uso: elija otra.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Continuar' })).toHaveAttribute('aria-disabled', 'true');
    first.unmount();
    renderApp('/vainilla/registrar-proyecto');
    expect(await screen.findByText('Primero elija una aplicación de la galería.')).toBeInTheDocument();
  });
});

describe('/vainilla/confirmar-proyecto/:id?', () => {
  test('confirm, then install, then links to the protocol and its public page', async () => {
    setScreenWidth(1366);
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const fetchMock = serve();
    fetchMock.mockImplementation(async (input: RequestInfo | URL) => {
      const url = String(input);
      if (url.endsWith('/install')) {
        await gate;
        return jsonResponse(installed, 201);
      }
      if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
      if (url === '/api/auth/session') return jsonResponse(sessionFixture);
      if (url === '/api/gallery') return jsonResponse({ items: apps });
      if (url.endsWith('/preview')) return jsonResponse(plan());
      return jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);
    });
    renderApp('/vainilla/confirmar-proyecto/title-clearance?uid=oficina-de-titulos&title=Oficina%20de%20T%C3%ADtulos');
    expect(await screen.findByRole('heading', { name: 'The project Oficina de Títulos (oficina-de-titulos) will be created with the application Title clearance.' })).toBeInTheDocument();
    const button = await screen.findByRole('button', { name: 'Create the project' });
    await waitFor(() => expect(button).toBeEnabled());
    fireEvent.click(button);
    const dialog = await screen.findByRole('dialog', { name: 'Create the project?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create the project' }));
    expect(await screen.findByText('Creating the project…')).toBeInTheDocument();
    release();
    expect(await screen.findByRole('link', { name: 'Open the protocol Title clearance' })).toHaveAttribute('href', '/protocolos/77');
    expect(screen.getByRole('link', { name: 'Public page' })).toHaveAttribute('href', '/publico/900100200/title-clearance');
    expect(fetchMock.mock.calls.filter(([u]) => String(u).endsWith('/install'))).toHaveLength(1);
  });

  test('in Spanish: a failed install says nothing was changed; with nothing chosen it points to the gallery', async () => {
    setScreenWidth(320);
    await inSpanish();
    serve({ install: () => jsonResponse({ error: { code: 'DUPLICATE', message: 'Ya existe un registro con ese uid.' } }, 409) });
    const first = renderApp('/vainilla/confirmar-proyecto/title-clearance?uid=x-1&title=X');
    const button = await screen.findByRole('button', { name: 'Crear el proyecto' });
    await waitFor(() => expect(button).toBeEnabled());
    fireEvent.click(button);
    fireEvent.click(within(await screen.findByRole('dialog', { name: '¿Crear el proyecto?' })).getByRole('button', { name: 'Crear el proyecto' }));
    expect(await screen.findByText(/No se creó el proyecto\. No se cambió nada\./)).toBeInTheDocument();
    first.unmount();
    renderApp('/vainilla/confirmar-proyecto');
    expect(await screen.findByText(/No hay nada que confirmar/)).toBeInTheDocument();
  });
});
