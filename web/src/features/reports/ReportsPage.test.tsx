// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import type { SessionInfo } from '../../../../core/auth.js';
import i18n from '../../i18n/index.js';
import { saveBlob } from '../../lib/api.js';
import { jsonResponse, mockFetch, renderApp, sessionFixture, sessionWith, setScreenWidth, settingsFixture } from '../../test/utils.js';
import type { PivotAnswer, SavedReportItem } from './api.js';
import { actionsByUser, casesByState, daysByTeam, savedReport, statusByTask, taskRow } from './fixtures.js';

vi.mock('../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));
vi.mock(import('../../lib/api.js'), async (original) => ({ ...(await original()), saveBlob: vi.fn() }));
// jsdom draws no canvas or SVG layout: the chart is its text alternative here (chartOption.test.ts checks what ECharts gets).
vi.mock('./chart/ReportChart.js', () => ({
  ReportChart: ({ summary, kind, data }: { summary: string; kind: string; data: { categories: string[]; series: unknown[] } }) => (
    <div role="img" aria-label={summary} data-kind={kind} data-categories={data.categories.join('|')} data-series={data.series.length} />
  ),
}));

interface ServeOptions {
  session?: SessionInfo;
  pivot?: (url: URL) => PivotAnswer | Response;
  saved?: SavedReportItem[];
  exportFails?: boolean;
}

/** The API the reports page talks to. */
function serve({ session = sessionFixture, pivot = () => statusByTask, saved = [], exportFails = false }: ServeOptions = {}) {
  return mockFetch((raw, init) => {
    const method = init?.method ?? 'GET';
    const url = new URL(raw, 'http://x');
    if (raw.endsWith('/settings')) return jsonResponse(settingsFixture);
    if (raw === '/api/auth/session') return jsonResponse(session);
    if (url.pathname === '/api/protocols') return jsonResponse({ items: [{ id: 1, name: 'Rental' }], total: 1 });
    if (url.pathname === '/api/teams') return jsonResponse({ items: [{ id: 3, name: 'Document review', active: true }], total: 1 });
    if (url.pathname === '/api/team-members/user-options') return jsonResponse([]);
    if (/^\/api\/reports\/[a-z-]+\/pivot$/.test(url.pathname)) return pivot(url) instanceof Response ? (pivot(url) as Response) : jsonResponse(pivot(url));
    if (url.pathname === '/api/reports/task-details/rows') return jsonResponse({ items: [taskRow(), taskRow({ id: 42, name: 'Review', code: 'review', state: 'PENDING', decidedAt: null, decidedById: null, decidedByName: null, days: 3.25 })], total: 2 });
    if (url.pathname === '/api/reports/tracking-by-user/rows') {
      return jsonResponse({ items: [{ usuario_id: 12, nombre: 'Beto Reviewer', caseId: 7, application_number: '2026-11-000007', accion: 'task_accepted', tipo: 'task', total: 4 }], total: 1 });
    }
    if (url.pathname === '/api/reports/saved' && method === 'GET') return jsonResponse({ items: saved });
    if (url.pathname === '/api/reports/saved' && method === 'POST') return jsonResponse(savedReport({ id: 9, ...JSON.parse(String(init?.body)) }), 201);
    if (url.pathname.startsWith('/api/reports/saved/') && method === 'DELETE') return new Response(null, { status: 204 });
    if (/^\/api\/reports\/[a-z-]+\/export$/.test(url.pathname)) {
      if (exportFails) return jsonResponse({ error: { code: 'INTERNAL', message: 'A problem has occurred.' } }, 500);
      return new Response('Task,Pending,Accepted,Total\n', { headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="status-by-task.csv"' } });
    }
    return jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);
  });
}

/** Every request to `path` made so far. */
const calls = (fetchMock: ReturnType<typeof serve>, path: string) =>
  fetchMock.mock.calls.map(([url, init]) => ({ url: new URL(String(url), 'http://x'), init })).filter((c) => c.url.pathname === path);
const lastQuery = (fetchMock: ReturnType<typeof serve>, path: string) => calls(fetchMock, path).at(-1)?.url.searchParams;

const chooseOption = async (combobox: HTMLElement, name: string | RegExp) => {
  fireEvent.mouseDown(combobox);
  fireEvent.click(await screen.findByRole('option', { name }));
};

const cellTexts = (row: HTMLElement) => [...row.querySelectorAll('th, td')].map((c) => c.textContent);

describe('/reportes', () => {
  test('draws the pivot of the report with its row, column and grand totals, and its chart', async () => {
    setScreenWidth(1366);
    const fetchMock = serve();
    renderApp('/reportes');
    expect(await screen.findByRole('heading', { level: 1, name: 'Reports' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Status by task: Count by Task and State' });
    const rows = within(table).getAllByRole('row');
    expect(cellTexts(rows[0] as HTMLElement)).toEqual(['Task / State', 'Pending', 'Accepted', 'Total']);
    expect(cellTexts(rows[1] as HTMLElement)).toEqual(['Rental · Intake', '3', '5', '8']);
    // An empty crossing is a zero that leads nowhere.
    expect(cellTexts(rows[2] as HTMLElement)).toEqual(['Rental · Review', '2', '0', '2']);
    expect(cellTexts(rows[3] as HTMLElement)).toEqual(['Total', '5', '5', '10']);
    expect(within(rows[2] as HTMLElement).getAllByRole('link')).toHaveLength(2);
    // The report's default layout was asked for.
    const query = lastQuery(fetchMock, '/api/reports/status-by-task/pivot');
    expect(query?.get('rows')).toBe('task');
    expect(query?.get('columns')).toBe('state');
    expect(query?.get('measure')).toBe('count');
    // The chart has a text alternative; a bar per task, a series per state.
    const chart = screen.getByRole('img', { name: 'Chart (Bars): Count by Task and State. The table lists the same figures.' });
    expect(chart).toHaveAttribute('data-categories', 'Rental · Intake|Rental · Review');
    expect(chart).toHaveAttribute('data-series', '2');
    // Every report the coordinator holds has its tab.
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['Status by task', 'Task details', 'Status by user', 'Tracking by case', 'Tracking by user']);
  });

  test('changing rows, columns and measure asks the server again and keeps the layout in the address', async () => {
    setScreenWidth(1366);
    const fetchMock = serve({ pivot: (url) => (url.searchParams.get('rows') === 'team' ? daysByTeam : statusByTask) });
    const { router } = renderApp('/reportes?report=status-by-task');
    await screen.findByRole('table', { name: 'Status by task: Count by Task and State' });

    await chooseOption(screen.getByRole('combobox', { name: 'Rows' }), 'Team');
    await waitFor(() => expect(lastQuery(fetchMock, '/api/reports/status-by-task/pivot')?.get('rows')).toBe('team'));
    await chooseOption(screen.getByRole('combobox', { name: 'Columns' }), 'None (one total)');
    await waitFor(() => expect(lastQuery(fetchMock, '/api/reports/status-by-task/pivot')?.has('columns')).toBe(false));
    await chooseOption(screen.getByRole('combobox', { name: 'Measure' }), 'Average days');
    await waitFor(() => expect(lastQuery(fetchMock, '/api/reports/status-by-task/pivot')?.get('measure')).toBe('avgDays'));
    const address = new URLSearchParams(router.state.location.search);
    expect(Object.fromEntries(address)).toMatchObject({ report: 'status-by-task', rows: 'team', columns: '', measure: 'avgDays' });

    // Days keep their decimals; the "no team" group has no list to open.
    const table = await screen.findByRole('table', { name: 'Status by task: Average days by Team' });
    const rows = within(table).getAllByRole('row');
    expect(cellTexts(rows[0] as HTMLElement)).toEqual(['Team', 'Total']);
    expect(cellTexts(rows[1] as HTMLElement)).toEqual(['Document review', '2.5']);
    expect(cellTexts(rows[2] as HTMLElement)).toEqual(['No team', '1.25']);
    expect(within(rows[2] as HTMLElement).queryByRole('link')).not.toBeInTheDocument();
    expect(cellTexts(rows[3] as HTMLElement)).toEqual(['Total', '2']);

    // The chart follows its picker.
    await chooseOption(screen.getByRole('combobox', { name: 'Chart' }), 'Pie');
    expect(await screen.findByRole('img', { name: /^Chart \(Pie\)/ })).toHaveAttribute('data-kind', 'pie');
    expect(new URLSearchParams(router.state.location.search).get('chart')).toBe('pie');
    await chooseOption(screen.getByRole('combobox', { name: 'Chart' }), 'No chart');
    await waitFor(() => expect(screen.queryByRole('img', { name: /^Chart/ })).not.toBeInTheDocument());
  });

  test('each figure drills down to the list that shows what it counted, reachable with the keyboard', async () => {
    setScreenWidth(1366);
    serve({ pivot: (url) => (url.pathname.includes('tracking-by-case') ? casesByState : url.pathname.includes('tracking-by-user') ? actionsByUser : statusByTask) });
    const { router } = renderApp('/reportes?from=2026-11-01');
    const table = await screen.findByRole('table', { name: 'Status by task: Count by Task and State' });
    const cell = within(table).getByRole('link', { name: '5: Rental · Intake, Accepted. Open the list' });
    expect(cell).toHaveAttribute('href', '/tasks?protocolId=1&code=intake&state=ACCEPTED');
    expect(cell.tabIndex).toBe(0);
    expect(within(table).getByRole('link', { name: '10: Grand total. Open the list' })).toHaveAttribute('href', '/tasks');
    expect(within(table).getByRole('link', { name: '5: Total, Pending. Open the list' })).toHaveAttribute('href', '/tasks?state=PENDING');

    fireEvent.click(screen.getByRole('tab', { name: 'Tracking by case' }));
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('report')).toBe('tracking-by-case'));
    // The filters the other report knows stay.
    expect(new URLSearchParams(router.state.location.search).get('from')).toBe('2026-11-01');
    fireEvent.click(await screen.findByRole('button', { name: 'Pivot' }));
    const cases = await screen.findByRole('table', { name: 'Tracking by case: Average days by Protocol and State' });
    expect(within(cases).getByRole('link', { name: '4.5: Rental, Pending. Open the list' })).toHaveAttribute('href', '/cases?protocolId=1&state=PENDING');

    fireEvent.click(screen.getByRole('tab', { name: 'Tracking by user' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Pivot' }));
    const users = await screen.findByRole('table', { name: 'Tracking by user: Count by Person and Action' });
    expect(within(users).getByRole('columnheader', { name: 'Task accepted' })).toBeInTheDocument();
    const actions = within(users).getByRole('link', { name: '4: Beto Reviewer, Task accepted. Open the list' });
    expect(actions).toHaveAttribute('href', '/reportes?report=tracking-by-user&view=rows&userId=12&action=task_accepted');

    // Followed, it opens the rows of that person's actions, the person named in the filter.
    fireEvent.click(actions);
    const rows = await screen.findByRole('table', { name: 'Tracking by user: Rows' });
    expect(await within(rows).findByRole('link', { name: 'Open application 2026-11-000007' })).toHaveAttribute('href', '/cases/7');
    expect(within(rows).getByText('Task accepted')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Person who acted' })).toHaveValue('Beto Reviewer');
    expect(screen.getByRole('combobox', { name: 'Action' })).toHaveTextContent('Task accepted');
  });

  test('filters go into the address and the request; a shared address opens filtered', async () => {
    setScreenWidth(1366);
    const fetchMock = serve();
    const { router } = renderApp('/reportes?report=status-by-task&state=PENDING&protocolId=1&from=2026-10-01');
    await screen.findByRole('table', { name: 'Status by task: Count by Task and State' });
    let query = lastQuery(fetchMock, '/api/reports/status-by-task/pivot');
    expect(query?.getAll('state')).toEqual(['PENDING']);
    expect(query?.get('protocolId')).toBe('1');
    expect(query?.get('from')).toBe('2026-10-01');
    expect(await screen.findByRole('combobox', { name: 'Protocol' })).toHaveTextContent('Rental');
    expect(screen.getByRole('combobox', { name: 'Task state' })).toHaveTextContent('Pending');

    await chooseOption(screen.getByRole('combobox', { name: 'Team' }), 'Document review');
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('teamId')).toBe('3'));
    await waitFor(() => expect(lastQuery(fetchMock, '/api/reports/status-by-task/pivot')?.get('teamId')).toBe('3'));
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-10-31' } });
    await waitFor(() => expect(lastQuery(fetchMock, '/api/reports/status-by-task/pivot')?.get('to')).toBe('2026-10-31'));
    query = lastQuery(fetchMock, '/api/reports/status-by-task/pivot');
    expect(query?.get('teamId')).toBe('3');
    expect(query?.get('rows')).toBe('task');

    fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).toString()).toBe('report=status-by-task'));
    await waitFor(() => expect(lastQuery(fetchMock, '/api/reports/status-by-task/pivot')?.toString()).toBe('rows=task&columns=state&measure=count'));
  });

  test('a refused layout says why, with a way to try again', async () => {
    setScreenWidth(1366);
    const tooLarge = () => jsonResponse({ error: { code: 'REPORT_TOO_LARGE', message: 'This layout gives 2500 rows and 3 columns.' } }, 400);
    serve({ pivot: tooLarge });
    renderApp('/reportes?rows=createdDay');
    expect(await screen.findByText('This layout gives 2500 rows and 3 columns.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  test('the task details rows: paged and sorted by the server, each task and application a link', async () => {
    setScreenWidth(1366);
    const fetchMock = serve();
    const { router } = renderApp('/reportes?report=task-details&teamId=3');
    const table = await screen.findByRole('table', { name: 'Task details: Rows' });
    expect(await within(table).findByRole('link', { name: 'Intake' })).toHaveAttribute('href', '/tasks/41');
    expect(within(table).getAllByText('Beto Reviewer').length).toBeGreaterThan(0);
    expect(within(table).getByText('3.25')).toBeInTheDocument();
    let query = lastQuery(fetchMock, '/api/reports/task-details/rows');
    expect(query?.get('teamId')).toBe('3');
    expect(query?.get('page')).toBe('1');
    fireEvent.click(within(table).getByRole('button', { name: 'Days' }));
    await waitFor(() => expect(lastQuery(fetchMock, '/api/reports/task-details/rows')?.get('sortBy')).toBe('days'));
    query = lastQuery(fetchMock, '/api/reports/task-details/rows');
    expect(query?.get('descending')).toBe('false');
    expect(new URLSearchParams(router.state.location.search).get('sortBy')).toBe('days');
  });

  test('from one report’s rows to another’s: the old rows are not drawn under the new columns while the new ones load', async () => {
    setScreenWidth(1366);
    serve();
    renderApp('/reportes?report=task-details');
    await screen.findByRole('table', { name: 'Task details: Rows' });
    fireEvent.click(screen.getByRole('tab', { name: 'Tracking by user' }));
    const table = await screen.findByRole('table', { name: 'Tracking by user: Rows' });
    expect(await within(table).findByText('2026-11-000007')).toBeInTheDocument();
    expect(screen.queryByText('Please reload the page')).not.toBeInTheDocument();
  });

  test('downloads the view on screen: its filters and layout, as the chosen format', async () => {
    setScreenWidth(1366);
    vi.mocked(saveBlob).mockClear();
    const fetchMock = serve();
    renderApp('/reportes?report=status-by-task&rows=team&columns=&measure=avgDays&teamId=3');
    await screen.findByRole('table', { name: /^Status by task/ });
    fireEvent.click(screen.getByRole('button', { name: 'Download' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'CSV (.csv)' }));
    await waitFor(() => expect(saveBlob).toHaveBeenCalledTimes(1));
    expect(vi.mocked(saveBlob).mock.calls[0]?.[1]).toBe('status-by-task.csv');
    const query = lastQuery(fetchMock, '/api/reports/status-by-task/export');
    expect(Object.fromEntries(query ?? [])).toEqual({ teamId: '3', view: 'pivot', format: 'csv', rows: 'team', measure: 'avgDays' });
    expect(await screen.findByText('The report was downloaded')).toBeInTheDocument();
  });

  test('a failed download asks to click Download again', async () => {
    setScreenWidth(1366);
    vi.mocked(saveBlob).mockClear();
    serve({ exportFails: true });
    renderApp('/reportes');
    await screen.findByRole('table', { name: /^Status by task/ });
    fireEvent.click(screen.getByRole('button', { name: 'Download' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Excel (.xlsx)' }));
    expect(await screen.findByText('The download failed: A problem has occurred. Click Download again.')).toBeInTheDocument();
    expect(saveBlob).not.toHaveBeenCalled();
  });

  test('without excel_reports export there is no download, and only the reports the user holds show', async () => {
    setScreenWidth(1366);
    serve({ session: sessionWith(['menuReportes', 'tareas_reports', 'wf_tareas']) });
    renderApp('/reportes?report=tracking-by-case');
    // A report the user may not open falls back to the first one they may.
    await screen.findByRole('table', { name: /^Status by task/ });
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['Status by task', 'Task details', 'Status by user']);
    expect(screen.queryByRole('button', { name: 'Download' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Saved reports' })).toBeInTheDocument();
  });

  test('saves the report on screen with a team, applies a saved one into the address, and deletes one after a confirmation', async () => {
    setScreenWidth(1366);
    const fetchMock = serve({
      saved: [savedReport(), savedReport({ id: 6, name: 'Team view', ownerId: 8, ownerName: 'Ana Lead', teamId: 3, teamName: 'Document review', actions: [] })],
      pivot: (url) => (url.searchParams.get('rows') === 'team' ? daysByTeam : statusByTask),
    });
    const { router } = renderApp('/reportes?report=status-by-task&protocolId=1&chart=line');
    await screen.findByRole('table', { name: /^Status by task/ });
    fireEvent.click(screen.getByRole('button', { name: 'Saved reports' }));
    const dialog = await screen.findByRole('dialog', { name: 'Saved reports: Status by task' });

    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Name' }), { target: { value: 'Rental tasks' } });
    await chooseOption(within(dialog).getByRole('combobox', { name: 'Share with' }), 'Document review');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save this report' }));
    await waitFor(() => {
      const post = calls(fetchMock, '/api/reports/saved').find((c) => c.init?.method === 'POST');
      expect(JSON.parse(String(post?.init?.body))).toEqual({
        name: 'Rental tasks',
        report: 'status-by-task',
        filters: { protocolId: '1' },
        layout: { view: 'pivot', rows: 'task', columns: 'state', measure: 'count', chart: 'line' },
        teamId: 3,
      });
    });
    expect(await screen.findByText('Saved as “Rental tasks”')).toBeInTheDocument();

    // Someone else's shared report can be applied, not deleted.
    const shared = await within(dialog).findByRole('button', { name: /^Team view/ });
    expect(shared).toHaveTextContent('Shared by Ana Lead with Document review');
    expect(within(dialog).queryByRole('button', { name: 'Delete saved report Team view' })).not.toBeInTheDocument();

    // Applying one puts its filters and layout in the address.
    fireEvent.click(within(dialog).getByRole('button', { name: /^Intake by team/ }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: /^Saved reports/ })).not.toBeInTheDocument());
    const address = new URLSearchParams(router.state.location.search);
    expect(address.getAll('state')).toEqual(['PENDING', 'ACCEPTED']);
    expect(Object.fromEntries(address)).toMatchObject({ report: 'status-by-task', protocolId: '1', view: 'pivot', rows: 'team', columns: '', measure: 'avgDays', chart: 'pie' });
    await screen.findByRole('table', { name: 'Status by task: Average days by Team' });

    // Deleting asks first.
    fireEvent.click(screen.getByRole('button', { name: 'Saved reports' }));
    const again = await screen.findByRole('dialog', { name: 'Saved reports: Status by task' });
    fireEvent.click(await within(again).findByRole('button', { name: 'Delete saved report Intake by team' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete saved report' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(calls(fetchMock, '/api/reports/saved/5').some((c) => c.init?.method === 'DELETE')).toBe(true));
  });

  test('in Spanish', async () => {
    setScreenWidth(1366);
    await i18n.changeLanguage('es');
    serve();
    renderApp('/reportes');
    expect(await screen.findByRole('heading', { level: 1, name: 'Reportes' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Estado por tarea: Cantidad por Tarea y Estado' });
    expect(cellTexts(within(table).getAllByRole('row')[0] as HTMLElement)).toEqual(['Tarea / Estado', 'Pendiente', 'Aceptada', 'Total']);
    expect(within(table).getByRole('link', { name: '5: Rental · Intake, Aceptada. Abrir la lista' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Seguimiento por usuario' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Descargar' })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Medida' })).toHaveTextContent('Cantidad');
  });

  test('on a phone (320 px) the filters fold, and the pivot scrolls inside its own box', async () => {
    setScreenWidth(320);
    serve();
    renderApp('/reportes');
    const table = await screen.findByRole('table', { name: 'Status by task: Count by Task and State' });
    // The filters sit behind one button.
    expect(screen.getByRole('button', { name: 'Filters' })).toHaveAttribute('aria-expanded', 'false');
    // The table's box is a named, focusable region that scrolls; the first column and the header stay in view.
    const region = screen.getByRole('region', { name: 'Status by task: Count by Task and State' });
    expect(region).toContainElement(table);
    expect(region).toHaveAttribute('tabindex', '0');
    expect(getComputedStyle(region).overflow).toBe('auto');
    const firstColumn = within(table).getByRole('rowheader', { name: 'Rental · Intake' });
    expect(getComputedStyle(firstColumn).position).toBe('sticky');
    expect(getComputedStyle(within(table).getByRole('columnheader', { name: 'Pending' })).position).toBe('sticky');
    // The report tabs scroll rather than widen the page.
    expect(screen.getByRole('tablist', { name: 'Report' })).toBeInTheDocument();
  });
});
