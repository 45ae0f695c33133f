// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import type { SessionInfo } from '../../../../core/auth.js';
import i18n from '../../i18n/index.js';
import { jsonResponse, mockFetch, renderApp, sessionFixture, sessionWith, setScreenWidth, settingsFixture } from '../../test/utils.js';
import type { TapeColumn, TapeConfig, TapeExport, TapeProtocol } from './api.js';
import { defaultConfig, protocols as protocolList, rentalConfig, tapeExport } from './fixtures.js';

vi.mock('../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));

interface ServeOptions {
  session?: SessionInfo;
  protocols?: TapeProtocol[] | (() => Response);
  config?: TapeConfig;
  /** The answer to a PUT of the columns, when not the saved columns. */
  saveAnswer?: (columns: TapeColumn[]) => Response;
  /** The caller's exports, asked each time the list is read (`call` counts the reads after a start). */
  exports?: (call: number) => TapeExport[];
}

/** The data tape API, with the columns kept between calls as the server keeps them. */
function serve({ session = sessionFixture, protocols = protocolList, config = rentalConfig, saveAnswer, exports }: ServeOptions = {}) {
  let current = config;
  let started: TapeExport | null = null;
  let readsAfterStart = 0;
  return mockFetch((raw, init) => {
    const method = init?.method ?? 'GET';
    const url = new URL(raw, 'http://x');
    if (raw.endsWith('/settings')) return jsonResponse(settingsFixture);
    if (raw === '/api/auth/session') return jsonResponse(session);
    if (url.pathname === '/api/data-tape/protocols') return typeof protocols === 'function' ? protocols() : jsonResponse({ items: protocols });
    if (url.pathname === '/api/data-tape/protocols/1/config') {
      if (method === 'PUT') {
        const { columns } = JSON.parse(String(init?.body)) as { columns: TapeColumn[] };
        if (saveAnswer) return saveAnswer(columns);
        current = { ...current, columns, saved: true, updatedAt: '2026-11-21T14:00:00.000Z', updatedBy: 'Demo Coordinator' };
        return jsonResponse(current);
      }
      if (method === 'DELETE') {
        current = defaultConfig;
        return jsonResponse(current);
      }
      return jsonResponse(current);
    }
    if (url.pathname === '/api/data-tape/protocols/2/config') return jsonResponse({ ...defaultConfig, protocolId: 2, protocolName: 'Home repairs' });
    if (url.pathname === '/api/data-tape/exports' && method === 'POST') {
      const body = JSON.parse(String(init?.body)) as { protocolId: number; format: 'csv' | 'xlsx'; headers: 'es' | 'en' | 'keys' };
      started = tapeExport({ id: 'newExport0123456789', ...body, state: 'running', done: 0, total: 0, columns: 0, filename: null, bytes: null, createdAt: '2026-11-21T15:00:00.000Z' });
      return jsonResponse(started, 202);
    }
    if (url.pathname === '/api/data-tape/exports') {
      const call = started ? readsAfterStart++ : -1;
      const items = exports ? exports(call) : [];
      return jsonResponse({ items });
    }
    if (/^\/api\/data-tape\/exports\/[\w-]+\/file$/.test(url.pathname)) {
      return new Response('Number,State\n', { headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="data-tape-rental-2026-11-21.csv"' } });
    }
    return jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);
  });
}

const calls = (fetchMock: ReturnType<typeof serve>, path: string, method = 'GET') =>
  fetchMock.mock.calls
    .map(([url, init]) => ({ url: new URL(String(url), 'http://x'), init }))
    .filter((c) => c.url.pathname === path && (c.init?.method ?? 'GET') === method);

/** The column list (the ordered list of the Columns section) and the names of its rows, in order. */
const columnList = () => within(screen.getByRole('region', { name: /^Columns/ })).getByRole('list');
const headersInOrder = () => within(columnList()).getAllByRole('textbox', { name: 'English header' }).map((input) => (input as HTMLInputElement).value);

describe('/reportes/data-tape', () => {
  test("loads the protocol of the address with its saved columns, who saved them, and how a repeat group's field is numbered", async () => {
    setScreenWidth(1366);
    serve();
    const { router } = renderApp('/reportes/data-tape?protocol=1');
    expect(await screen.findByRole('heading', { level: 1, name: 'Data tape' })).toBeInTheDocument();
    expect(await screen.findByRole('combobox', { name: 'Protocol' })).toHaveTextContent('Rental assistance');
    const region = await screen.findByRole('region', { name: 'Columns (3 columns)' });
    expect(within(region).getByText('Saved by Ana Lead on 11/20/2026 10:30.')).toBeInTheDocument();
    expect(headersInOrder()).toEqual(['Number', 'State', 'Member']);
    expect(within(columnList()).getAllByRole('textbox', { name: 'Spanish header' }).map((i) => (i as HTMLInputElement).value)).toEqual(['Número', 'Estado', 'Integrante']);
    // Each row says where its values come from; the repeat group's field becomes numbered columns.
    expect(within(region).getByText('Members – Name')).toBeInTheDocument();
    expect(within(region).getByText('One column per row of its group: Member 1, Member 2, …')).toBeInTheDocument();
    // Nothing changed yet: nothing to save.
    expect(within(region).getByRole('button', { name: 'Save columns' })).toBeDisabled();
    expect(within(region).queryByText('Not saved')).not.toBeInTheDocument();

    // Another protocol goes into the address; its tape is the default.
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Protocol' }));
    fireEvent.click(await screen.findByRole('option', { name: /^Home repairs/ }));
    await waitFor(() => expect(router.state.location.search).toBe('?protocol=2'));
    expect(await screen.findByText("Not saved yet: the tape has every column of the form, in form order, with the form's labels as headers.")).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Back to the default' })).not.toBeInTheDocument();
  });

  test('without a protocol in the address the first one opens', async () => {
    setScreenWidth(1366);
    serve();
    const { router } = renderApp('/reportes/data-tape');
    await screen.findByRole('region', { name: /^Columns/ });
    expect(router.state.location.search).toBe('?protocol=1');
  });

  test('edits a header and saves: the PUT carries every column in order, then Save rests', async () => {
    setScreenWidth(1366);
    const fetchMock = serve();
    renderApp('/reportes/data-tape?protocol=1');
    const region = await screen.findByRole('region', { name: /^Columns/ });
    const state = within(columnList()).getAllByRole('textbox', { name: 'Spanish header' })[1] as HTMLInputElement;
    fireEvent.change(state, { target: { value: 'Estado de la radicación ' } });
    expect(within(region).getByText('Not saved')).toBeInTheDocument();
    // The file panel says the file uses what is saved.
    expect(screen.getByText('The file is made with the saved columns: save your changes first to have them in it.')).toBeInTheDocument();
    const save = within(region).getByRole('button', { name: 'Save columns' });
    expect(save).toBeEnabled();
    fireEvent.click(save);
    await waitFor(() => expect(calls(fetchMock, '/api/data-tape/protocols/1/config', 'PUT')).toHaveLength(1));
    const put = calls(fetchMock, '/api/data-tape/protocols/1/config', 'PUT')[0];
    expect(JSON.parse(String(put?.init?.body))).toEqual({
      columns: [
        { source: 'case:number', header: 'Número', header_en: 'Number' },
        { source: 'case:state', header: 'Estado de la radicación', header_en: 'State' },
        { source: 'field:members.name', header: 'Integrante', header_en: 'Member' },
      ],
    });
    expect(await screen.findByText('The columns were saved')).toBeInTheDocument();
    expect(await within(region).findByText(/^Saved by Demo Coordinator on /)).toBeInTheDocument();
    await waitFor(() => expect(within(region).getByRole('button', { name: 'Save columns' })).toBeDisabled());
    expect(within(region).queryByText('Not saved')).not.toBeInTheDocument();
  });

  test('an emptied header is not sent; the summary leads to it', async () => {
    setScreenWidth(1366);
    const fetchMock = serve();
    renderApp('/reportes/data-tape?protocol=1');
    const region = await screen.findByRole('region', { name: /^Columns/ });
    const english = within(columnList()).getAllByRole('textbox', { name: 'English header' })[0] as HTMLInputElement;
    fireEvent.change(english, { target: { value: '  ' } });
    expect(within(region).getByText('This field is required')).toBeInTheDocument();
    fireEvent.click(within(region).getByRole('button', { name: 'Save columns' }));
    const summary = await within(region).findByRole('alert');
    fireEvent.click(within(summary).getByRole('button', { name: 'Column 1 (Número), English header: This field is required' }));
    expect(english).toHaveFocus();
    expect(calls(fetchMock, '/api/data-tape/protocols/1/config', 'PUT')).toHaveLength(0);
  });

  test("the server's refusal is shown: an unknown column named, nothing saved", async () => {
    setScreenWidth(1366);
    const refusal = () => jsonResponse({ error: { code: 'DATA_TAPE_UNKNOWN_COLUMN', message: '“field:gone” is not a column of this protocol\'s data tape.' } }, 400);
    serve({ saveAnswer: refusal });
    renderApp('/reportes/data-tape?protocol=1');
    const region = await screen.findByRole('region', { name: /^Columns/ });
    fireEvent.change(within(columnList()).getAllByRole('textbox', { name: 'English header' })[0] as HTMLInputElement, { target: { value: 'No.' } });
    fireEvent.click(within(region).getByRole('button', { name: 'Save columns' }));
    expect(await within(region).findByText('The columns were not saved: “field:gone” is not a column of this protocol\'s data tape.')).toBeInTheDocument();
    expect(within(region).getByText('Not saved')).toBeInTheDocument();
  });

  test('reorders with the keyboard-reachable buttons (the focus follows), removes, adds from the form, and Undo puts it back', async () => {
    setScreenWidth(1366);
    const fetchMock = serve();
    renderApp('/reportes/data-tape?protocol=1');
    const region = await screen.findByRole('region', { name: /^Columns/ });
    // The first column cannot go up, the last not down.
    expect(within(region).getByRole('button', { name: 'Move “Number” up' })).toBeDisabled();
    expect(within(region).getByRole('button', { name: 'Move “Member” down' })).toBeDisabled();

    fireEvent.click(within(region).getByRole('button', { name: 'Move “Member” up' }));
    expect(headersInOrder()).toEqual(['Number', 'Member', 'State']);
    expect(within(region).getByRole('button', { name: 'Move “Member” up' })).toHaveFocus();
    expect(within(region).getByRole('status')).toHaveTextContent('“Member” is now column 2 of 3');
    fireEvent.click(within(region).getByRole('button', { name: 'Move “Member” up' }));
    expect(headersInOrder()).toEqual(['Member', 'Number', 'State']);
    // At the top, Up is off: the focus moves to Down.
    expect(within(region).getByRole('button', { name: 'Move “Member” down' })).toHaveFocus();

    fireEvent.click(within(region).getByRole('button', { name: 'Remove “Number”' }));
    expect(headersInOrder()).toEqual(['Member', 'State']);
    expect(within(region).getByRole('button', { name: 'Remove “State”' })).toHaveFocus();

    // Added from the columns not in the tape yet: its default headers, at the end.
    const add = within(region).getByRole('combobox', { name: 'Add a column' });
    fireEvent.change(add, { target: { value: 'rent' } });
    fireEvent.click(await screen.findByRole('option', { name: /^Rent/ }));
    expect(headersInOrder()).toEqual(['Member', 'State', 'Rent']);
    expect(add).toHaveValue('');
    expect(within(region).getByRole('heading', { name: 'Columns (3 columns)' })).toBeInTheDocument();

    fireEvent.click(within(region).getByRole('button', { name: 'Save columns' }));
    await waitFor(() => expect(calls(fetchMock, '/api/data-tape/protocols/1/config', 'PUT')).toHaveLength(1));
    const put = calls(fetchMock, '/api/data-tape/protocols/1/config', 'PUT')[0];
    expect((JSON.parse(String(put?.init?.body)) as { columns: TapeColumn[] }).columns.map((c) => c.source)).toEqual(['field:members.name', 'case:state', 'field:rent']);

    // A later change can be undone without saving.
    await waitFor(() => expect(within(region).getByRole('button', { name: 'Save columns' })).toBeDisabled());
    fireEvent.click(within(region).getByRole('button', { name: 'Remove “Rent”' }));
    expect(headersInOrder()).toEqual(['Member', 'State']);
    fireEvent.click(within(region).getByRole('button', { name: 'Undo' }));
    expect(headersInOrder()).toEqual(['Member', 'State', 'Rent']);
  });

  test('back to the default asks first; Cancel keeps the saved columns', async () => {
    setScreenWidth(1366);
    const fetchMock = serve();
    renderApp('/reportes/data-tape?protocol=1');
    const region = await screen.findByRole('region', { name: /^Columns/ });
    fireEvent.click(within(region).getByRole('button', { name: 'Back to the default' }));
    let dialog = await screen.findByRole('dialog', { name: 'Back to the default columns?' });
    expect(dialog).toHaveTextContent('The saved columns and headers of Rental assistance will be forgotten');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls(fetchMock, '/api/data-tape/protocols/1/config', 'DELETE')).toHaveLength(0);

    fireEvent.click(within(region).getByRole('button', { name: 'Back to the default' }));
    dialog = await screen.findByRole('dialog', { name: 'Back to the default columns?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Back to the default' }));
    await waitFor(() => expect(calls(fetchMock, '/api/data-tape/protocols/1/config', 'DELETE')).toHaveLength(1));
    expect(await screen.findByText('The tape has the default columns again')).toBeInTheDocument();
    await waitFor(() => expect(headersInOrder()).toEqual(['Number', 'State', 'First name', 'Rent', 'Members – Name']));
    expect(within(region).getByRole('button', { name: 'Save columns' })).toBeDisabled();
    expect(within(region).queryByRole('button', { name: 'Back to the default' })).not.toBeInTheDocument();
  });

  test('leaving with unsaved columns asks first', async () => {
    setScreenWidth(1366);
    serve();
    const { router } = renderApp('/reportes/data-tape?protocol=1');
    await screen.findByRole('region', { name: /^Columns/ });
    fireEvent.click(screen.getByRole('button', { name: 'Remove “State”' }));
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Protocol' }));
    fireEvent.click(await screen.findByRole('option', { name: /^Home repairs/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Leave without saving?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(router.state.location.search).toBe('?protocol=1');
    expect(headersInOrder()).toEqual(['Number', 'Member']);
  });

  test('makes a file: the POST, its progress while it runs, then Download saves it', async () => {
    setScreenWidth(1366);
    const running = (done: number) => tapeExport({ id: 'newExport0123456789', state: 'running', done, total: 100, columns: 0, filename: null, bytes: null, createdAt: '2026-11-21T15:00:00.000Z' });
    const older = tapeExport({ id: 'olderExport012345678', format: 'xlsx', headers: 'es', filename: 'data-tape-rental-2026-11-20.xlsx' });
    const elsewhere = tapeExport({ id: 'repairsExport0123456', protocolId: 2, protocolName: 'Home repairs', filename: 'data-tape-repairs.csv' });
    const fetchMock = serve({
      exports: (call) => {
        if (call < 0) return [older, elsewhere];
        if (call === 0) return [running(40), older, elsewhere];
        return [tapeExport({ id: 'newExport0123456789', done: 100, total: 100, columns: 12, filename: 'data-tape-rental-2026-11-21.csv', bytes: 52_428, createdAt: '2026-11-21T15:00:00.000Z' }), older, elsewhere];
      },
    });
    renderApp('/reportes/data-tape?protocol=1');
    const panel = await screen.findByRole('region', { name: 'Make a file' });
    const files = await within(panel).findByRole('list', { name: 'Your files' });
    // Only this protocol's files, until every protocol is asked for.
    expect(within(files).getAllByRole('listitem')).toHaveLength(1);
    expect(within(files).getByText('Excel (.xlsx) · Spanish headers')).toBeInTheDocument();
    fireEvent.click(within(panel).getByRole('switch', { name: 'Every protocol' }));
    expect(within(files).getAllByRole('listitem')).toHaveLength(2);
    expect(within(files).getByText('Home repairs · CSV (.csv) · English headers')).toBeInTheDocument();
    fireEvent.click(within(panel).getByRole('switch', { name: 'Every protocol' }));

    // Excel and the reader's language are chosen at first.
    expect(within(panel).getByRole('radio', { name: 'Excel (.xlsx)' })).toBeChecked();
    expect(within(panel).getByRole('radio', { name: 'English headers' })).toBeChecked();
    fireEvent.click(within(panel).getByRole('radio', { name: 'CSV (.csv)' }));
    fireEvent.click(within(panel).getByRole('radio', { name: 'Keys (case_number, …)' }));
    fireEvent.click(within(panel).getByRole('button', { name: 'Make the file' }));
    await waitFor(() => expect(calls(fetchMock, '/api/data-tape/exports', 'POST')).toHaveLength(1));
    expect(JSON.parse(String(calls(fetchMock, '/api/data-tape/exports', 'POST')[0]?.init?.body))).toEqual({ protocolId: 1, format: 'csv', headers: 'keys' });

    // Running: how far it got, newest first.
    const progress = await within(panel).findByRole('progressbar', { name: 'Progress of the file' });
    expect(progress).toHaveAttribute('aria-valuenow', '40');
    expect(within(panel).getByText('Written 40 of 100 applications')).toBeInTheDocument();
    expect(within(within(files).getAllByRole('listitem')[0] as HTMLElement).getByText('Preparing')).toBeInTheDocument();

    // Polled until done: its details and its download.
    const download = await within(panel).findByRole('link', { name: 'Download data-tape-rental-2026-11-21.csv' }, { timeout: 10_000 });
    expect(within(panel).queryByRole('progressbar')).not.toBeInTheDocument();
    expect(download).toHaveAttribute('href', '/api/data-tape/exports/newExport0123456789/file');
    expect(within(panel).getByText('data-tape-rental-2026-11-21.csv · 100 applications · 12 columns · 51 kB')).toBeInTheDocument();
    // A plain link the browser streams to disk, with its name, and what to do when it fails.
    expect(download).toHaveAttribute('download', 'data-tape-rental-2026-11-21.csv');
    expect(download).toHaveAccessibleDescription('The file downloads through your browser. If the download fails, click Download again.');
    // Done: the list is not asked again.
    const reads = calls(fetchMock, '/api/data-tape/exports').length;
    await new Promise((resolve) => setTimeout(resolve, 1800));
    expect(calls(fetchMock, '/api/data-tape/exports')).toHaveLength(reads);
  });

  test("a failed file says why and has no link", async () => {
    setScreenWidth(1366);
    serve({
      exports: () => [
        tapeExport({ id: 'failedExport01234567', state: 'failed', done: 30, total: 100, filename: null, bytes: null, error: 'The data tape export was interrupted. Start it again.' }),
        tapeExport(),
      ],
    });
    renderApp('/reportes/data-tape?protocol=1');
    const files = await screen.findByRole('list', { name: 'Your files' });
    const [failed, done] = within(files).getAllByRole('listitem') as [HTMLElement, HTMLElement];
    expect(within(failed).getByText('Failed')).toBeInTheDocument();
    expect(within(failed).getByText('The data tape export was interrupted. Start it again.')).toBeInTheDocument();
    expect(within(failed).queryByRole('link')).not.toBeInTheDocument();
    expect(within(done).getByRole('link', { name: 'Download data-tape-rental-2026-11-20.csv' })).toHaveAttribute('href', '/api/data-tape/exports/x1AbCdEfGhIjKlMnOp/file');
  });

  test('without update the columns are read only; without export there is no file to make', async () => {
    setScreenWidth(1366);
    serve({ session: sessionWith(['reporte_data_tape'], { rules: { reporte_data_tape: ['show'] } }) });
    renderApp('/reportes/data-tape?protocol=1');
    const region = await screen.findByRole('region', { name: /^Columns/ });
    expect(within(region).getByText('You can see these columns; changing them needs permission to update the data tape.')).toBeInTheDocument();
    expect(within(region).getByText('Member')).toBeInTheDocument();
    expect(within(region).queryByRole('textbox')).not.toBeInTheDocument();
    expect(within(region).queryByRole('button')).not.toBeInTheDocument();
    expect(within(region).queryByRole('combobox')).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Make a file' })).not.toBeInTheDocument();
    // Without the reports menu there is no way back to /reportes to offer.
    expect(within(screen.getByRole('main')).queryByRole('link', { name: 'Reports' })).not.toBeInTheDocument();
  });

  test('with no published protocol it says so', async () => {
    setScreenWidth(1366);
    serve({ protocols: [] });
    renderApp('/reportes/data-tape');
    expect(await screen.findByText("There is no published protocol yet. A protocol's data tape can be made once the protocol is published.")).toBeInTheDocument();
  });

  test('a failed load offers Retry', async () => {
    setScreenWidth(1366);
    let fail = true;
    serve({ protocols: () => (fail ? jsonResponse({ error: { code: 'FORBIDDEN', message: 'The user does not have permission to the page' } }, 403) : jsonResponse({ items: protocolList })) });
    renderApp('/reportes/data-tape?protocol=1');
    expect(await screen.findByText('The user does not have permission to the page')).toBeInTheDocument();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('region', { name: /^Columns/ })).toBeInTheDocument();
  });

  test('/reportes leads to the data tape for those who hold it', async () => {
    setScreenWidth(1366);
    serve({ session: sessionWith(['menuReportes', 'reporte_data_tape']) });
    const { router } = renderApp('/reportes');
    fireEvent.click(await screen.findByRole('link', { name: 'Data tape' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/reportes/data-tape'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Data tape' })).toBeInTheDocument();
    expect(within(screen.getByRole('main')).getByRole('link', { name: 'Reports' })).toHaveAttribute('href', '/reportes');
  });

  test('in Spanish', async () => {
    setScreenWidth(390);
    await i18n.changeLanguage('es');
    serve({ exports: () => [tapeExport({ state: 'running', done: 12_000, total: 50_000 })] });
    renderApp('/reportes/data-tape?protocol=1');
    expect(await screen.findByRole('heading', { level: 1, name: 'Cinta de datos' })).toBeInTheDocument();
    const region = await screen.findByRole('region', { name: 'Columnas (3 columnas)' });
    expect(within(region).getByText('Guardadas por Ana Lead el 11/20/2026 10:30.')).toBeInTheDocument();
    expect(within(region).getAllByRole('textbox', { name: 'Encabezado en español' })).toHaveLength(3);
    expect(within(region).getByRole('button', { name: 'Subir «Integrante»' })).toBeInTheDocument();
    expect(within(region).getByText('Una columna por cada fila de su grupo: Integrante 1, Integrante 2, …')).toBeInTheDocument();
    expect(within(region).getByRole('button', { name: 'Guardar columnas' })).toBeDisabled();
    const panel = screen.getByRole('region', { name: 'Generar un archivo' });
    // Spanish readers get Spanish headers by default.
    expect(within(panel).getByRole('radio', { name: 'Encabezados en español' })).toBeChecked();
    expect(within(panel).getByRole('button', { name: 'Generar el archivo' })).toBeInTheDocument();
    expect(await within(panel).findByText('Escritas 12.000 de 50.000 radicaciones')).toBeInTheDocument();
    expect(within(panel).getByText('En preparación')).toBeInTheDocument();
  });
});
