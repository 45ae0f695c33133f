// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import { jsonResponse, mockFetch, renderApp, sessionFixture, settingsFixture } from '../../test/utils.js';
import type { CaseTimeline } from './api.js';
import { taskItem } from './fixtures.js';

vi.mock('../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));

const timeline = (tasks: CaseTimeline['tasks']): CaseTimeline => ({ caseId: 3, number: '2026-11-000003', state: 'PENDING', tasks });

function serve(answers: Array<() => Response>) {
  let call = 0;
  return mockFetch((url) => {
    if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
    if (url === '/api/auth/session') return jsonResponse(sessionFixture);
    if (url === '/api/cases/3/timeline') return (answers[Math.min(call++, answers.length - 1)] as () => Response)();
    return jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);
  });
}

describe('/tasks/case/:caseId', () => {
  test('each task with its responsible and dates as a list of facts; a rejected one says why', async () => {
    serve([
      () =>
        jsonResponse(
          timeline([
            { ...taskItem({ id: 4, name: 'Intake review', state: 'REJECTED', dueAt: null }), reason: 'Missing lease', decidedAt: '2026-11-22T10:00:00.000Z', decidedBy: 'Rafael Reviewer' },
            { ...taskItem(), reason: null, decidedAt: null, decidedBy: null },
          ]),
        ),
    ]);
    renderApp('/tasks/case/3');
    const list = await screen.findByRole('list', { name: 'Tasks of the case, oldest first' });
    const [first, second] = within(list).getAllByRole('listitem');
    expect(within(first!).getByRole('link', { name: 'Intake review' })).toHaveAttribute('href', '/tasks/4');
    const terms = (item: HTMLElement) => [...item.querySelectorAll('dt')].map((dt) => dt.textContent);
    expect(terms(first!)).toEqual(['Responsible', 'Created', 'Decided']);
    expect(within(first!).getByText(/by Rafael Reviewer$/)).toBeInTheDocument();
    expect(within(first!).getByText('Missing lease', { exact: false })).toBeInTheDocument();
    expect(terms(second!)).toEqual(['Responsible', 'Created', 'Due date']);
    expect(within(second!).getByText('Rafael Reviewer · Team Document review')).toBeInTheDocument();
  });

  test('no task yet says so; a failure says why, and Retry loads it again', async () => {
    serve([() => jsonResponse({ error: { code: 'FORBIDDEN', message: 'You may not see this case' } }, 403), () => jsonResponse(timeline([]))]);
    renderApp('/tasks/case/3');
    // The page's own alert, in the page once it is there (the toast says it too).
    await screen.findAllByText('You may not see this case');
    const main = screen.getByRole('main');
    expect(await within(main).findByRole('alert')).toHaveTextContent('You may not see this case');
    fireEvent.click(within(main).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('This case has no tasks yet')).toBeInTheDocument();
  });
});
