// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { saveBlob } from '../../../lib/api.js';
import { jsonResponse, mockFetch, renderApp, sessionFixture, sessionWith, setScreenWidth, settingsFixture } from '../../../test/utils.js';
import { createInvalidator } from '../../../app/realtime/invalidation.js';
import type { ImportSummary } from '../api.js';

vi.mock('../../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));
vi.mock(import('../../../lib/api.js'), async (original) => ({ ...(await original()), saveBlob: vi.fn() }));

const summary = (over: Partial<ImportSummary> = {}): ImportSummary => ({
  id: 31,
  protocolId: 1,
  protocolName: 'Rental assistance',
  fileName: 'applicants.csv',
  kind: 'csv',
  mode: 'valid_rows',
  status: 'done',
  total: 1000,
  processed: 1000,
  created: 990,
  skipped: 4,
  failed: 6,
  userName: 'Demo Coordinator',
  mine: true,
  createdAt: '2026-11-20T15:00:00.000Z',
  startedAt: '2026-11-20T15:01:00.000Z',
  finishedAt: '2026-11-20T15:03:00.000Z',
  rowsPerSecond: null,
  secondsLeft: null,
  ...over,
});

const running = summary({ id: 33, fileName: 'programme.xlsx', kind: 'xlsx', status: 'running', total: 250_000, processed: 100_000, created: 99_000, skipped: 0, failed: 1000, userName: 'Ana Pérez', mine: false, rowsPerSecond: 1500, secondsLeft: 100, finishedAt: null });
const rejected = summary({ id: 32, fileName: 'strict.csv', mode: 'all_or_nothing', status: 'rejected', created: 0, skipped: 0, failed: 12 });
const clean = summary({ id: 30, fileName: 'clean.csv', failed: 0, created: 1000, skipped: 0 });

/** The imports list answers `pages` in turn, the last one for ever after. */
function serve(pages: Array<{ items: ImportSummary[]; total: number }>) {
  let asked = 0;
  return mockFetch((url) => {
    if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
    if (url === '/api/auth/session') return jsonResponse(sessionFixture);
    if (url.startsWith('/api/cases/imports?')) return jsonResponse(pages[Math.min(asked++, pages.length - 1)]);
    if (url === '/api/cases/imports/32/rejected') {
      return new Response('ref,line,reasons\nEXT-9,10,email: Invalid email address\n', { headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="strict-rejected.csv"' } });
    }
    if (url === '/api/admin-cases/search-fields') return jsonResponse({ protocols: [] });
    return jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);
  });
}

const listCalls = (fetchMock: ReturnType<typeof serve>) => fetchMock.mock.calls.filter(([url]) => String(url).startsWith('/api/cases/imports?'));

describe('/cases/imports', () => {
  afterEach(() => vi.mocked(saveBlob).mockClear());

  test('lists the imports with their state, progress, counts and the rejected rows to download', async () => {
    setScreenWidth(1366);
    const fetchMock = serve([{ items: [running, rejected, clean], total: 3 }]);
    renderApp('/cases/imports');
    await screen.findByText('programme.xlsx');
    const table = screen.getByRole('table', { name: 'Imports' });
    expect(screen.getByRole('heading', { level: 1, name: 'Imports' })).toBeInTheDocument();
    expect(listCalls(fetchMock)[0]?.[0]).toBe('/api/cases/imports?page=1&pageSize=25');
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(4);
    expect(within(rows[0] as HTMLElement).getAllByRole('columnheader').map((c) => c.textContent)).toEqual([
      'File', 'Protocol', 'Uploaded', 'State', 'Progress', 'Created', 'Skipped (imported before)', 'Rejected', 'Actions',
    ]);

    // Running: a bar, the rows, the rate and the time left; its rejected rows wait for the end.
    const first = rows[1] as HTMLElement;
    expect(first).toHaveTextContent('programme.xlsx');
    expect(first).toHaveTextContent('Excel');
    expect(first).toHaveTextContent('Ana Pérez');
    expect(first).toHaveTextContent('Running');
    expect(within(first).getByText('100,000 of 250,000 rows · 1,500 rows/s · about 1 min 40 s left')).toHaveAttribute('aria-live', 'polite');
    expect(within(first).getByRole('progressbar', { name: 'Progress of programme.xlsx' })).toHaveAttribute('aria-valuenow', '40');
    expect(within(first).queryByRole('button')).not.toBeInTheDocument();

    const second = rows[2] as HTMLElement;
    expect(second).toHaveTextContent('strict.csv');
    expect(second).toHaveTextContent('all or nothing');
    expect(second).toHaveTextContent('Rejected');
    expect(second).toHaveTextContent('Rental assistance');
    // Nothing was rejected in the clean one: nothing to download.
    expect(within(rows[3] as HTMLElement).queryByRole('button')).not.toBeInTheDocument();

    fireEvent.click(within(second).getByRole('button', { name: 'Download the 12 rejected rows of strict.csv' }));
    await waitFor(() => expect(saveBlob).toHaveBeenCalledTimes(1));
    expect(vi.mocked(saveBlob).mock.calls[0]?.[1]).toBe('strict-rejected.csv');
  });

  test('fetches again when the server announces an import changed (any user\'s), and never on a timer', async () => {
    setScreenWidth(1366);
    const fetchMock = serve([
      { items: [running, clean], total: 2 },
      { items: [{ ...running, status: 'done', processed: 250_000, rowsPerSecond: null, secondsLeft: null, finishedAt: '2026-11-20T15:06:00.000Z' }, clean], total: 2 },
    ]);
    const { queryClient } = renderApp('/cases/imports');
    await screen.findByText(/1,500 rows\/s/);
    const table = screen.getByRole('table', { name: 'Imports' });
    // Running, and nothing said: no second request.
    await new Promise((resolve) => setTimeout(resolve, 2300));
    expect(listCalls(fetchMock)).toHaveLength(1);
    // The realtime 'import' change, as LiveUpdates hands it over.
    createInvalidator(queryClient, 0).changed({ kind: 'import', ids: [running.id], caseIds: [] });
    await waitFor(() => expect(within(table).getByText('250,000 of 250,000 rows')).toBeInTheDocument());
    expect(listCalls(fetchMock)).toHaveLength(2);
    expect(within(table).getAllByText('Done')).toHaveLength(2);
  });

  test('says so when there is no import yet, and never asks again', async () => {
    setScreenWidth(1366);
    const fetchMock = serve([{ items: [], total: 0 }]);
    renderApp('/cases/imports');
    expect(await screen.findByText('No imports yet. Import a CSV or Excel file from the applications list.')).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 2300));
    expect(listCalls(fetchMock)).toHaveLength(1);
  });

  test('on a phone each import is a card', async () => {
    setScreenWidth(375);
    serve([{ items: [running, rejected], total: 2 }]);
    renderApp('/cases/imports');
    await screen.findByText('strict.csv');
    const cards = screen.getByRole('list', { name: 'Imports' });
    const items = within(cards).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[1]).toHaveTextContent('strict.csv');
    expect(within(items[1] as HTMLElement).getByRole('button', { name: 'Download the 12 rejected rows of strict.csv' })).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  test('is closed to those without case administration', async () => {
    setScreenWidth(1366);
    mockFetch((url) => {
      if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
      if (url === '/api/auth/session') return jsonResponse({ ...sessionWith(['wf_casos']), rules: { wf_casos: ['show'] } });
      return jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);
    });
    renderApp('/cases/imports');
    await waitFor(() => expect(screen.queryByRole('table', { name: 'Imports' })).not.toBeInTheDocument());
    expect(await screen.findByRole('heading', { level: 1 })).not.toHaveTextContent('Imports');
  });
});
