/**
 * Reports (issue 19): the five reports of the spec (status by task, task
 * details, status by user, tracking by case, tracking by user), each a pivot
 * the reader lays out (rows, columns, measure; totals and a drill-down per
 * cell) and, for three, paged rows; any view downloaded as CSV or Excel; a
 * person's saved reports, which a team may share; and the staff home's
 * dashboard. Each report's routes declare its target; what is counted is
 * what the reader may see (policy.ts, applied in repo.ts).
 *
 * Each handler declares its target, parses with schema.ts, calls repo.ts (to
 * read), export.ts (to download) or commands.ts (to change), and presents
 * the answer. No SQL here. Every report read (pivots, rows, downloads, the
 * dashboard) goes through `app.read`: the read replica when there is one;
 * saved reports, small and just written, stay on the primary.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { REPORT_KINDS, REPORTS, type ReportKind } from '../../../core/api/reports.js';
import { actorOf } from '../../plugins/session.js';
import { changeSavedReport, createSavedReport, deleteSavedReport } from './commands.js';
import { type ExportQuery, exportReport } from './export.js';
import { caseComments, caseRows, dashboard, findSavedReport, listSavedReports, pivotReport, taskRows, userActions } from './repo.js';
import * as s from './schema.js';

const SUMMARIES: Record<ReportKind, string> = {
  'status-by-task': 'Status by task: protocol tasks x states',
  'task-details': 'Task details: every task with its case, responsible, team, dates, days taken and state',
  'status-by-user': 'Status by user: who holds or decided the tasks x states',
  'tracking-by-case': 'Tracking by case: per application, comments, last action and days in each state',
  'tracking-by-user': 'Tracking by user: per person, actions by kind',
};

/** Saved reports are part of the reports page. */
const SAVED = { access: { target: 'menuReportes', action: 'show' } } as const;

export const reportRoutes: FastifyPluginAsyncZod = async (app) => {
  // ---------------------------------------------------------------- each report: its pivot and its download

  for (const kind of REPORT_KINDS) {
    const { target, dataset } = REPORTS[kind];
    const access = { target, action: 'show' } as const;
    app.get(
      `/api/reports/${kind}/pivot`,
      {
        config: { access },
        schema: {
          tags: ['reports'],
          summary: `${SUMMARIES[kind]}: the pivot (rows, optional columns, a measure) with row, column and grand totals, each with its drill-down`,
          querystring: s.pivotQueries[dataset],
          response: { 200: s.pivotSchema },
        },
      },
      async (request) => app.read(request, (db) => pivotReport(db, actorOf(request), kind, request.query)),
    );

    app.get(
      `/api/reports/${kind}/export`,
      {
        config: { access },
        schema: {
          tags: ['reports'],
          summary: `${SUMMARIES[kind]}: a view as a CSV or Excel file, streamed (needs excel_reports export too)`,
          querystring: s.exportQueries[kind],
        },
      },
      async (request, reply) => {
        const file = await app.read(request, (db) => exportReport(db, actorOf(request), kind, request.query as ExportQuery));
        return reply
          .header('content-type', file.contentType)
          .header('content-disposition', `attachment; filename="${file.filename}"`)
          .header('cache-control', 'no-store')
          .send(file.body);
      },
    );
  }

  // ---------------------------------------------------------------- the rows of the reports that have them

  app.get(
    '/api/reports/task-details/rows',
    {
      config: { access: { target: REPORTS['task-details'].target, action: 'show' } },
      schema: { tags: ['reports'], summary: 'Task details: every task the reader sees, filtered, paged', querystring: s.taskRowsQuery, response: { 200: s.taskRowsSchema } },
    },
    async (request) => app.read(request, (db) => taskRows(db, actorOf(request), request.query)),
  );

  app.get(
    '/api/reports/tracking-by-case/rows',
    {
      config: { access: { target: REPORTS['tracking-by-case'].target, action: 'show' } },
      schema: { tags: ['reports'], summary: 'Tracking by case: one row per application, paged', querystring: s.caseRowsQuery, response: { 200: s.caseRowsSchema } },
    },
    async (request) => app.read(request, (db) => caseRows(db, actorOf(request), request.query)),
  );

  app.get(
    '/api/reports/tracking-by-case/comments',
    {
      config: { access: { target: REPORTS['tracking-by-case'].target, action: 'show' } },
      schema: { tags: ['reports'], summary: "Tracking by case, the spec's shape: one row per comment of those applications, paged", querystring: s.caseCommentsQuery, response: { 200: s.caseCommentsSchema } },
    },
    async (request) => app.read(request, (db) => caseComments(db, actorOf(request), request.query)),
  );

  app.get(
    '/api/reports/tracking-by-user/rows',
    {
      config: { access: { target: REPORTS['tracking-by-user'].target, action: 'show' } },
      schema: { tags: ['reports'], summary: "Tracking by user, the spec's shape: per person, application and action, how many, paged", querystring: s.userActionsQuery, response: { 200: s.userActionsSchema } },
    },
    async (request) => app.read(request, (db) => userActions(db, actorOf(request), request.query)),
  );

  // ---------------------------------------------------------------- the staff home

  app.get(
    '/api/reports/dashboard',
    {
      config: { access: { target: 'wf_tareas', action: 'show' } },
      schema: {
        tags: ['reports'],
        summary: 'The staff home: my open and overdue tasks, overdue tasks, applications by state this month, decisions per day, average days per protocol task',
        response: { 200: s.dashboardSchema },
      },
    },
    async (request) => app.read(request, (db) => dashboard(db, actorOf(request))),
  );

  // ---------------------------------------------------------------- saved reports

  app.get(
    '/api/reports/saved',
    { config: SAVED, schema: { tags: ['reports'], summary: "The reader's saved reports and those shared with its teams", querystring: s.savedReportsQuery, response: { 200: s.savedReportListSchema } } },
    async (request) => listSavedReports(app.db, actorOf(request), request.query.report),
  );

  app.get(
    '/api/reports/saved/:id',
    { config: SAVED, schema: { tags: ['reports'], summary: 'One saved report', params: s.idParams, response: { 200: s.savedReportSchema } } },
    async (request) => findSavedReport(app.db, actorOf(request), request.params.id),
  );

  app.post(
    '/api/reports/saved',
    { config: SAVED, schema: { tags: ['reports'], summary: 'Save a report: its filters and layout, optionally shared with a team', body: s.savedReportBody, response: { 201: s.savedReportSchema } } },
    async (request, reply) => {
      const actor = actorOf(request);
      const id = await createSavedReport(app.db, actor, request.body);
      return reply.status(201).send(await findSavedReport(app.db, actor, id));
    },
  );

  app.put(
    '/api/reports/saved/:id',
    { config: SAVED, schema: { tags: ['reports'], summary: 'Change a saved report (its owner)', params: s.idParams, body: s.savedReportBody, response: { 200: s.savedReportSchema } } },
    async (request) => {
      const actor = actorOf(request);
      await changeSavedReport(app.db, actor, request.params.id, request.body);
      return findSavedReport(app.db, actor, request.params.id);
    },
  );

  app.delete(
    '/api/reports/saved/:id',
    { config: SAVED, schema: { tags: ['reports'], summary: 'Delete a saved report (its owner)', params: s.idParams, response: { 204: s.noContent } } },
    async (request, reply) => {
      await deleteSavedReport(app.db, actorOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
};
