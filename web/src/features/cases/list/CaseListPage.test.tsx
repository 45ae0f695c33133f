// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import { encodeSearch } from '../../../../../core/cases/search.js';
import i18n from '../../../i18n/index.js';
import { saveBlob } from '../../../lib/api.js';
import { jsonResponse, mockFetch, renderApp, sessionFixture, sessionWith, setScreenWidth, settingsFixture } from '../../../test/utils.js';
import type { CaseCount, ExportJob, SavedSearch } from '../api.js';
import { caseItem, rentalProtocol } from './fixtures.js';

vi.mock('../../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));
vi.mock(import('../../../lib/api.js'), async (original) => ({ ...(await original()), saveBlob: vi.fn() }));

const items = [caseItem(), caseItem({ id: 8, number: '2026-11-000008', applicant: 'Mateo Rodríguez', state: 'SUCCESS', openTasks: 0 })];

interface ServeOptions {
  saved?: SavedSearch[];
  exportStates?: ExportJob[];
  /** The page's own reach and the count of its filters (GET /api/cases/count). */
  page?: { total: number; capped: boolean };
  count?: CaseCount;
}

/** The API of the list: every GET /api/cases answers the two cases; saved searches, exports and the rest as given. */
function serve({ saved = [], exportStates = [], page = { total: items.length, capped: false }, count = { total: items.length, capped: false } }: ServeOptions = {}) {
  let polls = 0;
  return mockFetch((url, init) => {
    const method = init?.method ?? 'GET';
    if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
    if (url === '/api/auth/session') return jsonResponse(sessionFixture);
    if (url.startsWith('/api/cases?')) return jsonResponse({ items, ...page });
    if (url.startsWith('/api/cases/count?')) return jsonResponse(count);
    if (url === '/api/cases/search-fields') return jsonResponse({ protocols: [rentalProtocol] });
    if (url.startsWith('/api/teams?')) return jsonResponse({ items: [{ id: 3, name: 'Document review', active: true }], total: 1 });
    if (url.startsWith('/api/team-members/user-options')) return jsonResponse([]);
    if (url === '/api/cases/saved-searches' && method === 'GET') return jsonResponse(saved);
    if (url === '/api/cases/saved-searches' && method === 'POST') return jsonResponse({ id: 6, ...JSON.parse(String(init?.body)) }, 201);
    if (url.startsWith('/api/cases/saved-searches/') && method === 'DELETE') return new Response(null, { status: 204 });
    if (url === '/api/cases/exports' && method === 'POST') return jsonResponse({ id: 'exp-1234567890abcdef' }, 202);
    if (url === '/api/cases/exports/exp-1234567890abcdef') return jsonResponse(exportStates[Math.min(polls++, exportStates.length - 1)]);
    if (url === '/api/cases/exports/exp-1234567890abcdef/file') {
      return new Response('number,state\n2026-11-000007,PENDING\n', { headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="cases-2026-11-22.csv"' } });
    }
    return jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);
  });
}

/** The query of every GET /api/cases (or of another path) made so far. */
const listCalls = (fetchMock: ReturnType<typeof serve>, path = '/api/cases') =>
  fetchMock.mock.calls.map(([url]) => new URL(String(url), 'http://x')).filter((u) => u.pathname === path);

const chooseOption = async (combobox: HTMLElement, name: string | RegExp) => {
  fireEvent.mouseDown(combobox);
  fireEvent.click(await screen.findByRole('option', { name }));
};

describe('/cases', () => {
  test('reads its filters from the address, asks the server with them, and writes a change back', async () => {
    setScreenWidth(1366);
    const fetchMock = serve();
    const { router } = renderApp('/cases?state=PENDING&search=Ortega&possibleDuplicated=true&page=2');
    const table = await screen.findByRole('table', { name: 'Applications' });
    expect(await within(table).findByRole('link', { name: 'Open application 2026-11-000007' })).toHaveAttribute('href', '/cases/7');
    // The address came back into the controls...
    expect(screen.getByRole('searchbox', { name: 'Search by number, name or document' })).toHaveValue('Ortega');
    expect(screen.getByRole('combobox', { name: 'State' })).toHaveTextContent('Pending');
    expect(screen.getByRole('combobox', { name: 'Possible duplicate' })).toHaveTextContent('Only possible duplicates');
    // ...and into the request.
    const first = listCalls(fetchMock)[0];
    expect(first?.searchParams.get('state')).toBe('PENDING');
    expect(first?.searchParams.get('search')).toBe('Ortega');
    expect(first?.searchParams.get('possibleDuplicated')).toBe('true');
    expect(first?.searchParams.get('page')).toBe('2');

    // A new filter goes into the address (back to page 1) and to the server.
    await chooseOption(screen.getByRole('combobox', { name: 'State' }), 'Completed');
    fireEvent.keyDown(screen.getByRole('listbox'), { key: 'Escape' });
    await waitFor(() => expect(router.state.location.search).toContain('state=SUCCESS'));
    const address = new URLSearchParams(router.state.location.search);
    expect(address.getAll('state')).toEqual(['PENDING', 'SUCCESS']);
    expect(address.get('page')).toBeNull();
    await waitFor(() => expect(listCalls(fetchMock).at(-1)?.searchParams.getAll('state')).toEqual(['PENDING', 'SUCCESS']));

    await chooseOption(screen.getByRole('combobox', { name: 'Team' }), 'Document review');
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('teamId')).toBe('3'));
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-11-01' } });
    await waitFor(() => expect(listCalls(fetchMock).at(-1)?.searchParams.get('from')).toBe('2026-11-01'));
    expect(listCalls(fetchMock).at(-1)?.searchParams.get('teamId')).toBe('3');

    // Clearing empties the address of filters.
    fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(screen.getByRole('searchbox', { name: 'Search by number, name or document' })).toHaveValue('');
  });

  test('a date typed digit by digit filters once, when it is whole; the field keeps what is typed; emptied, the filter goes', async () => {
    setScreenWidth(1366);
    const fetchMock = serve();
    const { router } = renderApp('/cases');
    await screen.findByRole('table', { name: 'Applications' });
    await waitFor(() => expect(listCalls(fetchMock).length).toBeGreaterThan(0));
    const before = listCalls(fetchMock).length;
    const from = screen.getByLabelText('From');
    // What Chromium reports while 01022026 is typed: the year grows digit by digit.
    for (const partial of ['0002-01-02', '0020-01-02', '0202-01-02']) {
      fireEvent.change(from, { target: { value: partial } });
      expect(from).toHaveValue(partial);
    }
    // Nothing was asked and the address is untouched: no list per digit.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(router.state.location.search).toBe('');
    expect(listCalls(fetchMock)).toHaveLength(before);

    fireEvent.change(from, { target: { value: '2026-01-02' } });
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('from')).toBe('2026-01-02'));
    await waitFor(() => expect(listCalls(fetchMock).at(-1)?.searchParams.get('from')).toBe('2026-01-02'));
    expect(listCalls(fetchMock).filter((u) => u.searchParams.has('from'))).toHaveLength(1);
    expect(from).toHaveValue('2026-01-02');

    // Left with a year of fewer than four digits, the field shows the date that applies.
    fireEvent.change(from, { target: { value: '0020-01-02' } });
    fireEvent.blur(from);
    expect(from).toHaveValue('2026-01-02');
    expect(new URLSearchParams(router.state.location.search).get('from')).toBe('2026-01-02');

    fireEvent.change(from, { target: { value: '' } });
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(from).toHaveValue('');
  });

  test('an advanced-search row on a form field becomes the filters parameter of the address and of the request', async () => {
    setScreenWidth(1366);
    const fetchMock = serve();
    const { router } = renderApp('/cases');
    await screen.findByRole('table', { name: 'Applications' });
    fireEvent.click(screen.getByRole('button', { name: 'Advanced search' }));
    const row = await screen.findByRole('group', { name: 'Condition 1' });
    await chooseOption(within(row).getByRole('combobox', { name: 'Column' }), 'Monthly rent');
    await chooseOption(within(row).getByRole('combobox', { name: 'Operator' }), 'between');
    // Half a range is refused here, before any request.
    fireEvent.change(within(row).getByRole('spinbutton', { name: 'From' }), { target: { value: '1000' } });
    const before = listCalls(fetchMock).length;
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await within(row).findByText('This field is required')).toBeInTheDocument();
    expect(listCalls(fetchMock)).toHaveLength(before);

    fireEvent.change(within(row).getByRole('spinbutton', { name: 'To' }), { target: { value: '1300' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add condition' }));
    const second = screen.getByRole('group', { name: 'Condition 2' });
    await chooseOption(within(second).getByRole('combobox', { name: 'Column' }), 'State');
    await chooseOption(within(second).getByRole('combobox', { name: 'Value' }), 'Pending');
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));

    const expected = encodeSearch([
      { column: 'data.payRent', op: 'between', value: ['1000', '1300'] },
      { column: 'state', op: 'eq', value: 'PENDING' },
    ]);
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('filters')).toBe(expected));
    await waitFor(() => expect(listCalls(fetchMock).at(-1)?.searchParams.get('filters')).toBe(expected));
    expect(screen.getByRole('button', { name: 'Advanced search (2)' })).toBeInTheDocument();
  });

  test("a master select is searched by choosing one of the master's items; without them, its code is typed", async () => {
    setScreenWidth(1366);
    const fetchMock = serve();
    const { router } = renderApp('/cases');
    await screen.findByRole('table', { name: 'Applications' });
    fireEvent.click(screen.getByRole('button', { name: 'Advanced search' }));
    const row = await screen.findByRole('group', { name: 'Condition 1' });
    await chooseOption(within(row).getByRole('combobox', { name: 'Column' }), 'City');
    await chooseOption(within(row).getByRole('combobox', { name: 'Operator' }), 'equals');
    await chooseOption(within(row).getByRole('combobox', { name: 'Value' }), 'Cali');
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    const expected = encodeSearch([{ column: 'data.municipio', op: 'eq', value: '76001' }]);
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('filters')).toBe(expected));
    await waitFor(() => expect(listCalls(fetchMock).at(-1)?.searchParams.get('filters')).toBe(expected));

    fireEvent.click(screen.getByRole('button', { name: 'Add condition' }));
    const second = await screen.findByRole('group', { name: 'Condition 2' });
    await chooseOption(within(second).getByRole('combobox', { name: 'Column' }), 'Neighbourhood');
    await chooseOption(within(second).getByRole('combobox', { name: 'Operator' }), 'equals');
    expect(within(second).getByRole('textbox', { name: 'Value' })).toBeInTheDocument();
  });

  test('a shared address with an advanced search opens with its rows, and the server’s refusal is shown', async () => {
    setScreenWidth(1366);
    const filters = encodeSearch([{ column: 'data.lastName', op: 'startsWith', value: 'Ort' }]);
    mockFetch((url) => {
      if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
      if (url === '/api/auth/session') return jsonResponse(sessionFixture);
      if (url === '/api/cases/search-fields') return jsonResponse({ protocols: [rentalProtocol] });
      if (url.startsWith('/api/cases?')) {
        return jsonResponse({ error: { code: 'VALIDATION', message: 'Some values are not valid', details: [{ path: 'filters.0.column', message: 'Unknown column in the search' }] } }, 400);
      }
      return jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);
    });
    renderApp(`/cases?filters=${encodeURIComponent(filters)}`);
    const row = await screen.findByRole('group', { name: 'Condition 1' });
    await waitFor(() => expect(within(row).getByRole('combobox', { name: 'Column' })).toHaveTextContent('Last name'));
    expect(within(row).getByRole('combobox', { name: 'Operator' })).toHaveTextContent('starts with');
    expect(within(row).getByRole('textbox', { name: 'Value' })).toHaveValue('Ort');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Some values are not valid');
    expect(alert).toHaveTextContent('Unknown column in the search');
    expect(screen.getByText('No application matches this search.')).toBeInTheDocument();
  });

  test('saves the current search, applies a saved one into the address, and deletes one after a confirmation', async () => {
    setScreenWidth(1366);
    const highRent = encodeSearch([{ column: 'data.payRent', op: 'gt', value: '1000' }]);
    const fetchMock = serve({ saved: [{ id: 5, name: 'High rent', query: { filters: highRent, state: ['PENDING', 'SUCCESS'] } }] });
    const { router } = renderApp('/cases?protocolId=1');
    await screen.findByRole('table', { name: 'Applications' });
    fireEvent.click(screen.getByRole('button', { name: 'Saved searches' }));
    const dialog = await screen.findByRole('dialog', { name: 'Saved searches' });

    // Save the search on screen.
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Name of this search' }), { target: { value: 'Rental only' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save current search' }));
    await waitFor(() => {
      const post = fetchMock.mock.calls.find(([url, init]) => url === '/api/cases/saved-searches' && init?.method === 'POST');
      expect(JSON.parse(String(post?.[1]?.body))).toEqual({ name: 'Rental only', query: { protocolId: '1' } });
    });

    // Apply one: its query replaces the address.
    fireEvent.click(await within(dialog).findByRole('button', { name: /^High rent/ }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Saved searches' })).not.toBeInTheDocument());
    const address = new URLSearchParams(router.state.location.search);
    expect(address.get('filters')).toBe(highRent);
    expect(address.getAll('state')).toEqual(['PENDING', 'SUCCESS']);
    expect(address.get('protocolId')).toBeNull();
    await waitFor(() => expect(listCalls(fetchMock).at(-1)?.searchParams.get('filters')).toBe(highRent));

    // Delete one: asked first.
    fireEvent.click(screen.getByRole('button', { name: 'Saved searches' }));
    const again = await screen.findByRole('dialog', { name: 'Saved searches' });
    fireEvent.click(await within(again).findByRole('button', { name: 'Delete saved search High rent' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete saved search' });
    expect(within(confirm).getByText('Delete the saved search High rent? The applications are not affected.')).toBeInTheDocument();
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(fetchMock.mock.calls.some(([url, init]) => url === '/api/cases/saved-searches/5' && init?.method === 'DELETE')).toBe(true));
  });

  test('exports the current result: progress while the server works, then the file downloads', async () => {
    setScreenWidth(1366);
    const running = (done: number): ExportJob => ({ id: 'exp-1234567890abcdef', state: 'running', format: 'csv', done, total: 10, filename: null, error: null });
    const fetchMock = serve({ exportStates: [running(5), { ...running(10), state: 'done', filename: 'cases-2026-11-22.csv' }] });
    renderApp('/cases?state=PENDING&state=SUCCESS&sortBy=serial&descending=false&page=3');
    await screen.findByRole('table', { name: 'Applications' });
    fireEvent.click(screen.getByRole('button', { name: 'Export' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'CSV (.csv)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Export to CSV' });
    expect(await within(dialog).findByText('Prepared 5 of 10 applications')).toBeInTheDocument();
    expect(within(dialog).getByRole('progressbar', { name: 'Export progress' })).toHaveAttribute('aria-valuenow', '50');
    await waitFor(() => expect(saveBlob).toHaveBeenCalledTimes(1));
    expect(vi.mocked(saveBlob).mock.calls[0]?.[1]).toBe('cases-2026-11-22.csv');
    expect(await vi.mocked(saveBlob).mock.calls[0]?.[0].text()).toContain('2026-11-000007');
    expect(await screen.findByText('The export was downloaded')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Export to CSV' })).not.toBeInTheDocument());
    const post = fetchMock.mock.calls.find(([url, init]) => url === '/api/cases/exports' && init?.method === 'POST');
    // The same query as the list, without the page.
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({ format: 'csv', query: { state: ['PENDING', 'SUCCESS'], sortBy: 'serial', descending: 'false' } });
  });

  test('a failed export says why', async () => {
    setScreenWidth(1366);
    serve({ exportStates: [{ id: 'exp-1234567890abcdef', state: 'failed', format: 'csv', done: 0, total: 10, filename: null, error: 'The export was interrupted' }] });
    renderApp('/cases');
    await screen.findByRole('table', { name: 'Applications' });
    fireEvent.click(screen.getByRole('button', { name: 'Export' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Excel (.xlsx)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Export to Excel' });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The export was interrupted');
  });

  test('pages are not counted: the count is asked once per filter, and past its cap the table says "more than"', async () => {
    setScreenWidth(1366);
    const fetchMock = serve({ page: { total: 10, capped: true }, count: { total: 1000, capped: true } });
    renderApp('/cases?state=PENDING');
    await screen.findByRole('table', { name: 'Applications' });
    expect(await screen.findByText('More than 1,000 applications match: narrow the search to see an exact count.')).toBeInTheDocument();
    expect(screen.getByText('1–10 of more than 1,000')).toBeInTheDocument();
    expect(listCalls(fetchMock)[0]?.searchParams.get('count')).toBe('false');
    const counts = listCalls(fetchMock, '/api/cases/count');
    expect(counts).toHaveLength(1);
    expect(counts[0]?.searchParams.get('state')).toBe('PENDING');
    expect(counts[0]?.searchParams.has('page')).toBe(false);

    // Another page or another order asks for rows only; another filter counts again.
    fireEvent.click(screen.getByRole('button', { name: 'Go to next page' }));
    await waitFor(() => expect(listCalls(fetchMock).at(-1)?.searchParams.get('page')).toBe('2'));
    fireEvent.click(screen.getByRole('button', { name: /^Number/ }));
    await waitFor(() => expect(listCalls(fetchMock).at(-1)?.searchParams.get('sortBy')).toBe('serial'));
    expect(listCalls(fetchMock, '/api/cases/count')).toHaveLength(1);
    await chooseOption(screen.getByRole('combobox', { name: 'State' }), 'Completed');
    await waitFor(() => expect(listCalls(fetchMock, '/api/cases/count')).toHaveLength(2));
  });

  test('an exact count is the total; without it the page tells only how far the rows reach', async () => {
    setScreenWidth(1366);
    serve({ page: { total: 10, capped: true }, count: { total: 734, capped: false } });
    renderApp('/cases');
    await screen.findByRole('table', { name: 'Applications' });
    expect(await screen.findByText('1–10 of 734')).toBeInTheDocument();
    expect(screen.queryByText(/More than/)).not.toBeInTheDocument();
  });

  test('in Spanish, and on a phone the rows are cards', async () => {
    setScreenWidth(390);
    await i18n.changeLanguage('es');
    serve();
    renderApp('/cases/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Radicaciones' })).toBeInTheDocument();
    const cards = await screen.findByRole('list', { name: 'Radicaciones' });
    expect(await within(cards).findByRole('link', { name: 'Abrir la radicación 2026-11-000008' })).toBeInTheDocument();
    expect(within(cards).getAllByText('Completada')).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Búsqueda avanzada' })).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  test("an applicant's list shows each application's status in plain words, as its page does", async () => {
    setScreenWidth(1366);
    const fetchMock = mockFetch((url) => {
      if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
      if (url === '/api/auth/session') return jsonResponse(sessionWith(['wf_casos', 'borradores'], { user: { ...sessionFixture.user, role: 'applicant' } }));
      if (url.startsWith('/api/cases?')) return jsonResponse({ items, total: items.length, capped: false });
      if (url.startsWith('/api/cases/count?')) return jsonResponse({ total: items.length, capped: false });
      if (url.startsWith('/api/cases/public-statuses?')) return jsonResponse({ items: [{ id: 7, status: 'returned' }, { id: 8, status: 'approved' }] });
      if (url === '/api/cases/search-fields') return jsonResponse({ protocols: [rentalProtocol] });
      if (url === '/api/cases/saved-searches') return jsonResponse([]);
      return jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);
    });
    renderApp('/cases');
    const table = await screen.findByRole('table', { name: 'Applications' });
    const row = (number: string) => within(table).getByRole('link', { name: `Open application ${number}` }).closest('tr') as HTMLElement;
    await within(table).findByText('Returned for correction');
    expect(within(row('2026-11-000007')).getByText('Returned for correction')).toBeInTheDocument();
    expect(within(row('2026-11-000008')).getByText('Approved')).toBeInTheDocument();
    expect(within(table).queryByText('Pending')).not.toBeInTheDocument();
    const asked = fetchMock.mock.calls.map(([url]) => String(url)).find((url) => url.startsWith('/api/cases/public-statuses'));
    expect(asked).toBe('/api/cases/public-statuses?ids=7,8');
  });

  test('staff read the internal states and ask for no plain-words statuses', async () => {
    setScreenWidth(1366);
    const fetchMock = serve();
    renderApp('/cases');
    const table = await screen.findByRole('table', { name: 'Applications' });
    expect(await within(table).findByText('Pending')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('public-statuses'))).toBe(false);
  });
});
