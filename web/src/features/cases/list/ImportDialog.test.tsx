// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import { jsonResponse, mockFetch, renderApp, sessionFixture, sessionWith, setScreenWidth, settingsFixture } from '../../../test/utils.js';
import type { DryRunResult, ImportJob } from '../api.js';
import { caseItem, importJob, rentalProtocol } from './fixtures.js';

vi.mock('../../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));

const badRows: DryRunResult['errors'] = [
  { line: 11, field: 'firstName', message: 'This field is required' },
  { line: 501, field: 'firstName', message: 'This field is required' },
  { line: 1000, field: 'email', message: 'Invalid email address' },
];

function serve(session = sessionFixture) {
  let dryRuns = 0;
  let polls = 0;
  const runningJob: ImportJob = importJob({ status: 'running', processed: 500 });
  const doneJob: ImportJob = importJob({ status: 'done', processed: 1000, created: 997, skipped: 0, failed: 3, errors: badRows });
  return mockFetch((url, init) => {
    const method = init?.method ?? 'GET';
    if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
    if (url === '/api/auth/session') return jsonResponse(session);
    if (url.startsWith('/api/cases?')) return jsonResponse({ items: [caseItem()], total: 1 });
    if (url === '/api/cases/search-fields') return jsonResponse({ protocols: [rentalProtocol] });
    if (url.startsWith('/api/teams?')) return jsonResponse({ items: [], total: 0 });
    if (url.startsWith('/api/team-members/user-options')) return jsonResponse([]);
    if (url.startsWith('/api/cases/imports?') && method === 'POST') return jsonResponse(importJob(), 201);
    if (url === '/api/cases/imports/31/dry-run') {
      // The first check meets the server's refusal of a column; the second passes.
      if (dryRuns++ === 0) {
        return jsonResponse(
          { error: { code: 'VALIDATION', message: 'Some values are not valid', details: [{ path: 'mapping.apellido', message: 'lastName cannot be filled from a file: choose a field of the form' }] } },
          400,
        );
      }
      return jsonResponse({ valid: 997, alreadyImported: 0, errors: badRows } satisfies DryRunResult);
    }
    if (url === '/api/cases/imports/31/run' && method === 'POST') return jsonResponse(importJob({ status: 'running' }), 202);
    // Running until the test has seen the progress: a busy machine must not skip past it.
    if (url === '/api/cases/imports/31') return jsonResponse(polls++ < 1 || !importMayFinish ? runningJob : doneJob);
    return jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);
  });
}

/** The import job's polls answer 'running' until the test allows it to finish. */
let importMayFinish = false;

const chooseOption = async (combobox: HTMLElement, name: string | RegExp) => {
  fireEvent.mouseDown(combobox);
  fireEvent.click(await screen.findByRole('option', { name }));
};

describe('CSV import from /cases', () => {
  test('upload, map the columns, a dry run that lists the bad rows, then the run with progress and its report', async () => {
    setScreenWidth(1366);
    const fetchMock = serve();
    renderApp('/cases');
    fireEvent.click(await screen.findByRole('button', { name: 'Import' }, { timeout: 15_000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Import applications from CSV' });
    const file = new File(['ref,firstName,apellido,renta,owner\nEXT-1,Nombre1,Apellido 1,501,\n'], 'applicants.csv', { type: 'text/csv' });
    const input = dialog.querySelector<HTMLInputElement>('input[type="file"]');
    if (!input) throw new Error('no file input');
    fireEvent.change(input, { target: { files: [file] } });

    // Columns: the reference column is named and explained; same-named columns start mapped.
    expect(await within(dialog).findByText('applicants.csv: rows to import: 1000')).toBeInTheDocument();
    const upload = fetchMock.mock.calls.find(([url]) => String(url).startsWith('/api/cases/imports?'));
    expect(upload?.[0]).toBe('/api/cases/imports?protocolId=1&fileName=applicants.csv');
    expect(upload?.[1]?.body).toBe(file);
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
    expect(JSON.parse(String(dry?.[1]?.body))).toEqual({ mapping: { firstName: 'firstName', apellido: 'lastName', renta: 'payRent' }, refColumn: 'ref' });

    // The run: progress while it goes, then the report.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Import 997 rows' }));
    expect(await within(dialog).findByText('Imported 500 of 1000 rows', {}, { timeout: 15_000 })).toBeInTheDocument();
    expect(within(dialog).getByRole('progressbar', { name: 'Import progress' })).toHaveAttribute('aria-valuenow', '50');
    importMayFinish = true;
    expect(await within(dialog).findByText('Applications created: 997', {}, { timeout: 15_000 })).toBeInTheDocument();
    expect(within(dialog).getByText('Rows that failed: 3')).toBeInTheDocument();
    expect(within(within(dialog).getByRole('table', { name: 'Rows not imported: 3' })).getAllByRole('row')).toHaveLength(4);
    const run = fetchMock.mock.calls.find(([url]) => url === '/api/cases/imports/31/run');
    expect(JSON.parse(String(run?.[1]?.body))).toEqual({ mapping: { firstName: 'firstName', apellido: 'lastName', renta: 'payRent' }, refColumn: 'ref' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
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
