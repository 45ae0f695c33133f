// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { saveBlob } from '../../../lib/api.js';
import { jsonResponse, mockFetch, renderApp, sessionFixture, sessionWith, setScreenWidth, settingsFixture } from '../../../test/utils.js';
import type { DryRunResult, ImportJob } from '../api.js';
import { caseItem, importJob, rentalProtocol } from './fixtures.js';

vi.mock('../../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));
vi.mock(import('../../../lib/api.js'), async (original) => ({ ...(await original()), saveBlob: vi.fn() }));

const badRows: DryRunResult['errors'] = [
  { line: 11, field: 'firstName', message: 'This field is required' },
  { line: 501, field: 'firstName', message: 'This field is required' },
  { line: 1000, field: 'email', message: 'Invalid email address' },
];

const runningJob: ImportJob = importJob({ status: 'running', processed: 500, rowsPerSecond: 120.4, secondsLeft: 80, startedAt: '2026-11-20T15:01:00.000Z' });
const doneJob: ImportJob = importJob({ status: 'done', processed: 1000, created: 997, skipped: 0, failed: 3, errors: badRows, finishedAt: '2026-11-20T15:03:00.000Z' });

/** `ended`: how the run ends once the test allows it; `dryRunRefusal`: the first check meets a refused column. */
function serve(session = sessionFixture, { ended = doneJob, dryRunRefusal = true }: { ended?: ImportJob; dryRunRefusal?: boolean } = {}) {
  let dryRuns = 0;
  let polls = 0;
  return mockFetch((url, init) => {
    const method = init?.method ?? 'GET';
    if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
    if (url === '/api/auth/session') return jsonResponse(session);
    if (url.startsWith('/api/cases?')) return jsonResponse({ items: [caseItem()], total: 1 });
    if (url === '/api/cases/search-fields') return jsonResponse({ protocols: [rentalProtocol] });
    if (url.startsWith('/api/teams?')) return jsonResponse({ items: [], total: 0 });
    if (url.startsWith('/api/team-members/user-options')) return jsonResponse([]);
    if (url.startsWith('/api/cases/imports?') && method === 'POST') return jsonResponse(importJob({ fileName: new URL(url, 'http://localhost').searchParams.get('fileName') ?? '' }), 201);
    if (url === '/api/cases/imports/31/dry-run') {
      // The first check meets the server's refusal of a column; the second passes.
      if (dryRunRefusal && dryRuns++ === 0) {
        return jsonResponse(
          { error: { code: 'VALIDATION', message: 'Some values are not valid', details: [{ path: 'mapping.apellido', message: 'lastName cannot be filled from a file: choose a field of the form' }] } },
          400,
        );
      }
      return jsonResponse({ valid: 997, alreadyImported: 0, errors: badRows } satisfies DryRunResult);
    }
    if (url === '/api/cases/imports/31/run' && method === 'POST') return jsonResponse(importJob({ status: 'running' }), 202);
    // Running until the test has seen the progress: a busy machine must not skip past it.
    if (url === '/api/cases/imports/31') return jsonResponse(polls++ < 1 || !importMayFinish ? runningJob : ended);
    if (url === '/api/cases/imports/31/rejected') {
      return new Response('ref,firstName,line,reasons\nEXT-11,,11,firstName: This field is required\n', {
        headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="applicants-rejected.csv"' },
      });
    }
    return jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);
  });
}

/** The import job's polls answer 'running' until the test allows it to finish. */
let importMayFinish = false;

const chooseOption = async (combobox: HTMLElement, name: string | RegExp) => {
  fireEvent.mouseDown(combobox);
  fireEvent.click(await screen.findByRole('option', { name }));
};

/** Opens the dialog from /cases and uploads `file`. */
async function upload(file: File) {
  renderApp('/cases');
  fireEvent.click(await screen.findByRole('button', { name: 'Import' }, { timeout: 30_000 }));
  const dialog = await screen.findByRole('dialog', { name: 'Import applications from CSV or Excel' });
  const input = dialog.querySelector<HTMLInputElement>('input[type="file"]');
  if (!input) throw new Error('no file input');
  fireEvent.change(input, { target: { files: [file] } });
  await within(dialog).findByText(`${file.name}: rows to import: 1000`);
  return dialog;
}

const csvFile = () => new File(['ref,firstName,apellido,renta,owner\nEXT-1,Nombre1,Apellido 1,501,\n'], 'applicants.csv', { type: 'text/csv' });
const requestBody = (fetchMock: ReturnType<typeof serve>, path: string) => JSON.parse(String(fetchMock.mock.calls.filter(([url]) => url === path).at(-1)?.[1]?.body));

describe('CSV and Excel import from /cases', () => {
  afterEach(() => {
    importMayFinish = false;
    vi.mocked(saveBlob).mockClear();
  });

  test('upload, map the columns, a dry run that lists the bad rows, then the run with progress and its report', async () => {
    setScreenWidth(1366);
    const fetchMock = serve();
    renderApp('/cases');
    fireEvent.click(await screen.findByRole('button', { name: 'Import' }, { timeout: 30_000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Import applications from CSV or Excel' });
    expect(within(dialog).getByText(/at most 1,000,000 rows or 200 MB/)).toBeInTheDocument();
    const file = new File(['ref,firstName,apellido,renta,owner\nEXT-1,Nombre1,Apellido 1,501,\n'], 'applicants.csv', { type: 'text/csv' });
    const input = dialog.querySelector<HTMLInputElement>('input[type="file"]');
    if (!input) throw new Error('no file input');
    fireEvent.change(input, { target: { files: [file] } });

    // Columns: the reference column is named and explained; same-named columns start mapped.
    expect(await within(dialog).findByText('applicants.csv: rows to import: 1000')).toBeInTheDocument();
    const upload = fetchMock.mock.calls.find(([url]) => String(url).startsWith('/api/cases/imports?'));
    expect(upload?.[0]).toBe('/api/cases/imports?protocolId=1&fileName=applicants.csv');
    expect(upload?.[1]?.body).toBe(file);
    expect(new Headers(upload?.[1]?.headers).get('content-type')).toBe('text/csv');
    expect(within(dialog).getByRole('combobox', { name: 'Reference column' })).toHaveTextContent('ref');
    expect(within(dialog).getByText(/importing the same file again creates nothing twice/)).toBeInTheDocument();
    expect(within(dialog).getByRole('combobox', { name: 'Field for the column firstName' })).toHaveTextContent('First name (required)');
    expect(within(dialog).getByRole('combobox', { name: 'Field for the column owner' })).toHaveTextContent('Ignore');
    await chooseOption(within(dialog).getByRole('combobox', { name: 'Field for the column apellido' }), 'Last name (required)');
    await chooseOption(within(dialog).getByRole('combobox', { name: 'Field for the column renta' }), 'Monthly rent (required)');

    // The server refuses a column: its message shows.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Check the file' }));
    const refused = await within(dialog).findAllByText('lastName cannot be filled from a file: choose a field of the form');
    // In the alert and under the column's field.
    expect(refused).toHaveLength(2);
    expect(within(dialog).getByRole('combobox', { name: 'Field for the column apellido' })).toHaveAttribute('aria-invalid', 'true');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Check the file' }));

    // Dry run: counts and each bad row with its line, field and message.
    expect(await within(dialog).findByText('Rows ready to import: 997')).toBeInTheDocument();
    expect(within(dialog).getByText('Rows with errors (will not be imported): 3')).toBeInTheDocument();
    const errors = within(dialog).getByRole('table', { name: 'Rows with errors: 3' });
    expect(within(errors).getAllByRole('row').map((r) => r.textContent)).toEqual([
      'LineFieldMessage',
      '11First nameThis field is required',
      '501First nameThis field is required',
      '1000emailInvalid email address',
    ]);
    const dry = fetchMock.mock.calls.filter(([url]) => url === '/api/cases/imports/31/dry-run').at(-1);
    expect(JSON.parse(String(dry?.[1]?.body))).toEqual({ mapping: { firstName: 'firstName', apellido: 'lastName', renta: 'payRent' }, refColumn: 'ref', mode: 'valid_rows' });
    // The choice of what to do with bad rows, valid rows first.
    const modes = within(dialog).getByRole('radiogroup', { name: 'Rows with errors' });
    expect(within(modes).getByRole('radio', { name: 'Import the valid rows (the rejected ones come back as a file)' })).toBeChecked();
    expect(within(modes).getByRole('radio', { name: 'All or nothing (import only if every row is valid)' })).not.toBeChecked();

    // The run: progress with its rate and time left while it goes, then the report.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Import 997 rows' }));
    const progress = await within(dialog).findByText('500 of 1,000 rows · 120 rows/s · about 1 min 20 s left', {}, { timeout: 15_000 });
    expect(progress).toHaveAttribute('aria-live', 'polite');
    expect(within(dialog).getByRole('progressbar', { name: 'Import progress' })).toHaveAttribute('aria-valuenow', '50');
    expect(within(dialog).queryByRole('button', { name: 'Download rejected rows' })).not.toBeInTheDocument();
    importMayFinish = true;
    expect(await within(dialog).findByText('Applications created: 997', {}, { timeout: 15_000 })).toBeInTheDocument();
    expect(within(dialog).getByText('Rows rejected: 3')).toBeInTheDocument();
    expect(within(within(dialog).getByRole('table', { name: 'Rows not imported: 3' })).getAllByRole('row')).toHaveLength(4);
    expect(JSON.parse(String(fetchMock.mock.calls.find(([url]) => url === '/api/cases/imports/31/run')?.[1]?.body))).toEqual({
      mapping: { firstName: 'firstName', apellido: 'lastName', renta: 'payRent' },
      refColumn: 'ref',
      mode: 'valid_rows',
    });

    // The rejected rows come back as a file, under the server's name.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Download rejected rows' }));
    await waitFor(() => expect(saveBlob).toHaveBeenCalledTimes(1));
    expect(fetchMock).toHaveBeenCalledWith('/api/cases/imports/31/rejected', expect.anything());
    expect(vi.mocked(saveBlob).mock.calls[0]?.[1]).toBe('applicants-rejected.csv');
    expect(await vi.mocked(saveBlob).mock.calls[0]?.[0].text()).toContain('EXT-11');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  test('all or nothing: the choice goes with the run, and a file with bad rows imports nothing and says why', async () => {
    setScreenWidth(1366);
    const rejected = importJob({ status: 'rejected', mode: 'all_or_nothing', processed: 1000, created: 0, failed: 3, errors: badRows });
    const fetchMock = serve(sessionFixture, { ended: rejected, dryRunRefusal: false });
    const dialog = await upload(csvFile());
    fireEvent.click(within(dialog).getByRole('button', { name: 'Check the file' }));
    expect(await within(dialog).findByText('Rows ready to import: 997')).toBeInTheDocument();

    fireEvent.click(within(dialog).getByRole('radio', { name: 'All or nothing (import only if every row is valid)' }));
    expect(within(dialog).getByText(/with the errors found, this import would import nothing/)).toBeInTheDocument();
    importMayFinish = true;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Import 997 rows' }));
    const message = await within(dialog).findByText(/^Nothing was imported: 3 rows are invalid, and the import was all or nothing/, {}, { timeout: 15_000 });
    expect(message.closest('[role="alert"]')).not.toBeNull();
    expect(within(dialog).queryByText(/Applications created/)).not.toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Download rejected rows' })).toBeInTheDocument();
    expect(requestBody(fetchMock, '/api/cases/imports/31/run')).toEqual({ mapping: { firstName: 'firstName' }, refColumn: 'ref', mode: 'all_or_nothing' });
  });

  test('an interrupted import says so and runs again from the dialog', async () => {
    setScreenWidth(1366);
    const interrupted = importJob({ status: 'interrupted', processed: 400, created: 400 });
    const fetchMock = serve(sessionFixture, { ended: interrupted, dryRunRefusal: false });
    const dialog = await upload(csvFile());
    fireEvent.click(within(dialog).getByRole('button', { name: 'Check the file' }));
    importMayFinish = true;
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Import 997 rows' }));
    expect(await within(dialog).findByText(/^The import stopped at 400 of 1,000 rows. Run it again: it resumes where it stopped/, {}, { timeout: 15_000 })).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Download rejected rows' })).not.toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Run again' }));
    await waitFor(() => expect(fetchMock.mock.calls.filter(([url]) => url === '/api/cases/imports/31/run')).toHaveLength(2));
  });

  test('an Excel workbook is offered, and sent as one', async () => {
    setScreenWidth(1366);
    const fetchMock = serve(sessionFixture, { dryRunRefusal: false });
    renderApp('/cases');
    fireEvent.click(await screen.findByRole('button', { name: 'Import' }, { timeout: 30_000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Import applications from CSV or Excel' });
    const input = dialog.querySelector<HTMLInputElement>('input[type="file"]');
    expect(input?.accept).toContain('.xlsx');
    expect(within(dialog).getByRole('button', { name: 'Choose a CSV or Excel file' })).toBeInTheDocument();
    // Some systems give a workbook no type: its name says what it is.
    fireEvent.change(input as HTMLInputElement, { target: { files: [new File(['PK'], 'applicants.xlsx')] } });
    await within(dialog).findByText('applicants.xlsx: rows to import: 1000');
    const sent = fetchMock.mock.calls.find(([url]) => String(url).startsWith('/api/cases/imports?'));
    expect(new Headers(sent?.[1]?.headers).get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  });

  test('the Imports page is a click away from the Import button', async () => {
    setScreenWidth(1366);
    serve();
    renderApp('/cases');
    expect(await screen.findByRole('link', { name: 'Imports' }, { timeout: 15_000 })).toHaveAttribute('href', '/cases/imports');
  });

  test('the Import button shows only to those who may create cases', async () => {
    setScreenWidth(1366);
    serve({ ...sessionWith(['wf_casos']), rules: { wf_casos: ['show'] } });
    renderApp('/cases');
    await screen.findByRole('table', { name: 'Applications' });
    expect(screen.queryByRole('button', { name: 'Import' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Export' })).not.toBeInTheDocument();
  });
});
