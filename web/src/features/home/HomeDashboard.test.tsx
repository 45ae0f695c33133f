// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { screen, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import type { SessionInfo } from '../../../../core/auth.js';
import i18n from '../../i18n/index.js';
import { jsonResponse, mockFetch, renderApp, sessionFixture, sessionWith, setScreenWidth, settingsFixture } from '../../test/utils.js';
import { dashboardFixture } from '../reports/fixtures.js';

vi.mock('../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));
// The chart loads ECharts in a chunk of its own; jsdom draws nothing, so it is its text alternative here.
vi.mock('../reports/chart/ReportChart.js', () => ({
  ReportChart: ({ summary, data }: { summary: string; data: { series: Array<{ values: number[] }> } }) => (
    <div role="img" aria-label={summary} data-values={data.series.map((s) => s.values.join(',')).join('|')} />
  ),
}));

function serve(session: SessionInfo, dashboard: () => Response = () => jsonResponse(dashboardFixture)) {
  return mockFetch((url) => {
    if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
    if (url === '/api/auth/session') return jsonResponse(session);
    if (url === '/api/reports/dashboard') return dashboard();
    return jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);
  });
}

describe('the staff home', () => {
  test('shows the figures of the dashboard, each linking to its list', async () => {
    setScreenWidth(1366);
    serve(sessionFixture);
    renderApp('/home');
    const section = await screen.findByRole('region', { name: 'Your work at a glance' });
    expect(await within(section).findByRole('link', { name: '4 My open tasks' })).toHaveAttribute('href', '/pendings');
    expect(within(section).getByRole('link', { name: '1 My overdue tasks' })).toHaveAttribute('href', '/pendings?overdue=true');
    expect(within(section).getByRole('link', { name: '9 Overdue tasks I can see' })).toHaveAttribute('href', '/tasks?overdue=true&state=UNASSIGNED&state=PENDING');
    // This month's applications, by state.
    expect(within(section).getByRole('link', { name: 'Applications this month: 12' })).toHaveAttribute('href', '/cases?from=2026-11-01&to=2026-11-30');
    expect(within(section).getByText('11/01/2026 to 11/30/2026')).toBeInTheDocument();
    expect(within(section).getByRole('link', { name: 'Pending: 8' })).toHaveAttribute('href', '/cases?from=2026-11-01&to=2026-11-30&state=PENDING');
    // The decisions of 30 days: in words, and a chart whose text alternative says the same.
    expect(within(section).getByText('3 accepted and 1 rejected.')).toBeInTheDocument();
    const chart = within(section).getByRole('img', { name: 'Decisions per day over the last 30 days: 3 accepted and 1 rejected.' });
    expect(chart.getAttribute('data-values')?.split('|').map((s) => s.split(',').length)).toEqual([30, 30]);
    // Average days per protocol task, each task linking to its decided tasks.
    const averages = within(section).getByRole('table', { name: 'Average days per protocol task (decided in the last 30 days)' });
    expect(within(averages).getByRole('link', { name: 'Intake' })).toHaveAttribute('href', '/tasks?protocolId=1&code=intake&state=ACCEPTED&state=REJECTED');
    expect(within(averages).getByText('1.5')).toBeInTheDocument();
    // The modules are still listed below.
    expect(screen.getByRole('heading', { level: 2, name: 'Your modules' })).toBeInTheDocument();
  });

  test('says so when there is nothing yet, and in Spanish', async () => {
    setScreenWidth(390);
    await i18n.changeLanguage('es');
    const empty = {
      ...dashboardFixture,
      applicationsThisMonth: { ...dashboardFixture.applicationsThisMonth, total: 0, byState: [] },
      decisionsPerDay: dashboardFixture.decisionsPerDay.map((d) => ({ ...d, accepted: 0, rejected: 0 })),
      averageDaysPerTask: [],
    };
    serve(sessionFixture, () => jsonResponse(empty));
    renderApp('/home');
    const section = await screen.findByRole('region', { name: 'Su trabajo de un vistazo' });
    expect(await within(section).findByText('Aún no hay radicaciones este mes.')).toBeInTheDocument();
    expect(within(section).getByText('No se decidió ninguna tarea en los últimos 30 días.')).toBeInTheDocument();
    expect(within(section).getByText('0 aceptadas y 0 rechazadas.')).toBeInTheDocument();
    // No decisions, no chart to load.
    expect(within(section).queryByRole('img')).not.toBeInTheDocument();
    expect(within(section).getByRole('link', { name: '4 Mis tareas abiertas' })).toBeInTheDocument();
  });

  test('on a phone (320 px) the three counts share a row and each task’s average reads as one line, not a squeezed table', async () => {
    setScreenWidth(320);
    serve(sessionFixture);
    renderApp('/home');
    const section = await screen.findByRole('region', { name: 'Your work at a glance' });
    const averages = await within(section).findByRole('list', { name: 'Average days per protocol task (decided in the last 30 days)' });
    expect(within(section).queryByRole('table')).not.toBeInTheDocument();
    expect(within(averages).getByRole('link', { name: 'Intake' })).toHaveAttribute('href', '/tasks?protocolId=1&code=intake&state=ACCEPTED&state=REJECTED');
    expect(within(averages).getByText('Rental · 6 decided · 1.5 days on average')).toBeInTheDocument();
    const counts = within(section).getByRole('link', { name: '4 My open tasks' }).closest('ul') as HTMLElement;
    expect(getComputedStyle(counts).gridTemplateColumns).toBe('repeat(3, minmax(0, 1fr))');
  });

  test('a dashboard that cannot load says why, with Retry; the rest of the home works', async () => {
    setScreenWidth(1366);
    serve(sessionFixture, () => jsonResponse({ error: { code: 'DB_UNAVAILABLE', message: 'The database is not answering.' } }, 503));
    renderApp('/home');
    const section = await screen.findByRole('region', { name: 'Your work at a glance' });
    expect(await within(section).findByText('The database is not answering.', {}, { timeout: 20_000 })).toBeInTheDocument();
    expect(within(section).getByRole('button', { name: 'Retry' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Your modules' })).toBeInTheDocument();
  });

  test('applicants keep the home of their modules, without figures', async () => {
    setScreenWidth(1366);
    const fetchMock = serve(sessionWith(['wf_casos', 'borradores'], { user: { ...sessionFixture.user, role: 'applicant' } }));
    renderApp('/home');
    expect(await screen.findByRole('heading', { level: 2, name: 'Your modules' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Your work at a glance' })).not.toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => String(url) === '/api/reports/dashboard')).toBe(false);
  });
});
