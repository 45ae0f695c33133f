/** Answers of the reports API for the web tests, shaped by core/api/reports.ts. */
import type { DashboardAnswer, PivotAnswer, SavedReportItem, TaskRow } from './api.js';

const tasks = (query: Record<string, string | string[]>) => ({ list: 'tasks' as const, query });

/** Status by task over protocol 1 (Rental): Intake and Review by Pending and Accepted; Review has no accepted task. */
export const statusByTask: PivotAnswer = {
  report: 'status-by-task',
  rows: 'task',
  columns: 'state',
  measure: 'count',
  rowKeys: [
    { key: '1:intake', label: 'Rental · Intake' },
    { key: '1:review', label: 'Rental · Review' },
  ],
  columnKeys: [
    { key: 'PENDING', label: null },
    { key: 'ACCEPTED', label: null },
  ],
  cells: [
    { row: '1:intake', column: 'PENDING', value: 3, count: 3, drill: tasks({ protocolId: '1', code: 'intake', state: 'PENDING' }) },
    { row: '1:intake', column: 'ACCEPTED', value: 5, count: 5, drill: tasks({ protocolId: '1', code: 'intake', state: 'ACCEPTED' }) },
    { row: '1:review', column: 'PENDING', value: 2, count: 2, drill: tasks({ protocolId: '1', code: 'review', state: 'PENDING' }) },
  ],
  rowTotals: [
    { row: '1:intake', value: 8, count: 8, drill: tasks({ protocolId: '1', code: 'intake' }) },
    { row: '1:review', value: 2, count: 2, drill: tasks({ protocolId: '1', code: 'review' }) },
  ],
  columnTotals: [
    { column: 'PENDING', value: 5, count: 5, drill: tasks({ state: 'PENDING' }) },
    { column: 'ACCEPTED', value: 5, count: 5, drill: tasks({ state: 'ACCEPTED' }) },
  ],
  total: { value: 10, count: 10, drill: tasks({}) },
};

/** The same tasks by team, average days, without columns; one group has no team (it drills nowhere). */
export const daysByTeam: PivotAnswer = {
  report: 'status-by-task',
  rows: 'team',
  columns: null,
  measure: 'avgDays',
  rowKeys: [
    { key: '3', label: 'Document review' },
    { key: null, label: null },
  ],
  columnKeys: [],
  cells: [],
  rowTotals: [
    { row: '3', value: 2.5, count: 6, drill: tasks({ teamId: '3' }) },
    { row: null, value: 1.25, count: 4, drill: null },
  ],
  columnTotals: [],
  total: { value: 2, count: 10, drill: tasks({}) },
};

/** Tracking by case: applications by protocol and state. */
export const casesByState: PivotAnswer = {
  report: 'tracking-by-case',
  rows: 'protocol',
  columns: 'state',
  measure: 'avgDays',
  rowKeys: [{ key: '1', label: 'Rental' }],
  columnKeys: [{ key: 'PENDING', label: null }],
  cells: [{ row: '1', column: 'PENDING', value: 4.5, count: 2, drill: { list: 'cases', query: { protocolId: '1', state: 'PENDING' } } }],
  rowTotals: [{ row: '1', value: 4.5, count: 2, drill: { list: 'cases', query: { protocolId: '1' } } }],
  columnTotals: [{ column: 'PENDING', value: 4.5, count: 2, drill: { list: 'cases', query: { state: 'PENDING' } } }],
  total: { value: 4.5, count: 2, drill: { list: 'cases', query: {} } },
};

/** Tracking by user: actions of one person. */
export const actionsByUser: PivotAnswer = {
  report: 'tracking-by-user',
  rows: 'user',
  columns: 'action',
  measure: 'count',
  rowKeys: [{ key: '12', label: 'Beto Reviewer' }],
  columnKeys: [{ key: 'task_accepted', label: null }],
  cells: [{ row: '12', column: 'task_accepted', value: 4, count: 4, drill: { list: 'userActions', query: { userId: '12', action: 'task_accepted' } } }],
  rowTotals: [{ row: '12', value: 4, count: 4, drill: { list: 'userActions', query: { userId: '12' } } }],
  columnTotals: [{ column: 'task_accepted', value: 4, count: 4, drill: { list: 'userActions', query: { action: 'task_accepted' } } }],
  total: { value: 4, count: 4, drill: { list: 'userActions', query: {} } },
};

export const taskRow = (overrides: Partial<TaskRow> = {}): TaskRow => ({
  id: 41,
  code: 'intake',
  name: 'Intake',
  state: 'ACCEPTED',
  caseId: 7,
  caseNumber: '2026-11-000007',
  protocolId: 1,
  protocolName: 'Rental',
  responsibleId: 12,
  responsibleName: 'Beto Reviewer',
  teamId: 3,
  teamName: 'Document review',
  decidedById: 12,
  decidedByName: 'Beto Reviewer',
  createdAt: '2026-11-02T14:00:00.000Z',
  dueAt: '2026-11-05T14:00:00.000Z',
  decidedAt: '2026-11-04T14:00:00.000Z',
  days: 2,
  overdue: false,
  ...overrides,
});

export const savedReport = (overrides: Partial<SavedReportItem> = {}): SavedReportItem => ({
  id: 5,
  name: 'Intake by team',
  report: 'status-by-task',
  filters: { protocolId: '1', state: ['PENDING', 'ACCEPTED'] },
  layout: { view: 'pivot', rows: 'team', columns: null, measure: 'avgDays', chart: 'pie' },
  teamId: null,
  teamName: null,
  ownerId: 2,
  ownerName: 'Demo Coordinator',
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-20T10:00:00.000Z',
  actions: ['edit', 'delete'],
  ...overrides,
});

export const dashboardFixture: DashboardAnswer = {
  myOpenTasks: { count: 4, drill: { list: 'pending', query: {} } },
  myOverdueTasks: { count: 1, drill: { list: 'pending', query: { overdue: 'true' } } },
  overdueTasks: { count: 9, drill: { list: 'tasks', query: { overdue: 'true', state: ['UNASSIGNED', 'PENDING'] } } },
  applicationsThisMonth: {
    from: '2026-11-01',
    to: '2026-11-30',
    total: 12,
    byState: [
      { state: 'PENDING', count: 8, drill: { list: 'cases', query: { from: '2026-11-01', to: '2026-11-30', state: 'PENDING' } } },
      { state: 'SUCCESS', count: 4, drill: { list: 'cases', query: { from: '2026-11-01', to: '2026-11-30', state: 'SUCCESS' } } },
    ],
    drill: { list: 'cases', query: { from: '2026-11-01', to: '2026-11-30' } },
  },
  decisionsPerDay: Array.from({ length: 30 }, (_, i) => ({ day: `2026-11-${String(i + 1).padStart(2, '0')}`, accepted: i === 29 ? 3 : 0, rejected: i === 28 ? 1 : 0 })),
  averageDaysPerTask: [
    { protocolId: 1, protocolName: 'Rental', code: 'intake', name: 'Intake', decided: 6, avgDays: 1.5, drill: tasks({ protocolId: '1', code: 'intake', state: ['ACCEPTED', 'REJECTED'] }) },
  ],
};
