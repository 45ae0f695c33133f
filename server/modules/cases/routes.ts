/**
 * Cases (applications): the list with filters and the advanced search over
 * case columns and any form field; drafts ('Save, but come back later to
 * complete') and submitting them; one case with its data, documents, tasks
 * and history; the open / complete / close / enable-again actions, owner
 * and participants; returning an open application to its applicant for
 * correction and the applicant's resubmission (corrections.ts); similar
 * applications; saved searches; exports; the CSV import.
 *
 * Each handler declares its target, parses with schema.ts, calls repo.ts (to
 * read) or commands.ts (to change), and presents the answer. No SQL here.
 */
import { PassThrough } from 'node:stream';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { newApplicationsOpen } from '../../../core/dates.js';
import { AppError } from '../../errors.js';
import { translate } from '../../i18n.js';
import { actorOf } from '../../plugins/session.js';
import {
  bulkClose,
  bulkReassign,
  changeOwner,
  correctData,
  requestTransition,
  saveOwnDraft,
  setParticipants,
  startDraft,
  submitDraft,
} from './commands.js';
import { cancelCorrection, resubmitCorrection, returnForCorrection } from './corrections.js';
import { contentTypeOf, exportName, exportTable, failInterruptedExports, fileOf, startExport, XLSX_TYPE } from './export.js';
import { dryRunImport, dryRunSchema, failInterruptedImports, importJobSchema, importListQuery, importListSchema, importView, listImports, mappingBody, rejectedRowsCsv, startImport, uploadImport, uploadQuery } from './import.js';
import { TRANSITIONS } from './policy.js';
import { publicStatuses, publicTimeline } from './portal.js';
import {
  caseHistory,
  countCases,
  deleteDraft,
  deleteSavedSearch,
  exportContent,
  findCaseDetail,
  findDraft,
  findExport,
  findSimilar,
  listCases,
  listDrafts,
  listSavedSearches,
  projectOf,
  saveSearch,
  startableProtocols,
} from './repo.js';
import * as s from './schema.js';
import { searchFields, searchFieldsView } from './searchFields.js';


/**
 * Floods of applications (issue 18's abuse rules): per client address (the
 * looser: people share one) and per account. Autosaves are not limited
 * here; they only touch the caller's own draft.
 */
const NEW_DRAFT_LIMITS = { rateLimit: { max: 120, timeWindow: '1 minute' }, accountLimit: { max: 20, timeWindow: '1 minute' } };
const SUBMIT_LIMITS = { rateLimit: { max: 60, timeWindow: '1 minute' }, accountLimit: { max: 20, timeWindow: '1 minute' } };
/** A resubmission refused for a field still wrong is tried again at once: more tries than a submission. */
const RESUBMIT_LIMITS = { rateLimit: { max: 60, timeWindow: '1 minute' }, accountLimit: { max: 30, timeWindow: '1 minute' } };

export const caseRoutes: FastifyPluginAsyncZod = async (app) => {
  // ---------------------------------------------------------------- the list
  // The same list twice: /api/cases for those who work cases (wf_casos), /api/admin-cases for case
  // administration (admin_cases), which may be held alone. Visibility is the actor's either way.
  // The list, its count and the export at once read through `app.read`: the read replica when there is one.
  for (const [path, target] of [['/api/cases', 'wf_casos'], ['/api/admin-cases', 'admin_cases']] as const) {
    app.get(path, { config: { access: { target, action: 'show' } }, schema: { tags: ['cases'], querystring: s.pageQuery, response: { 200: s.caseListSchema } } }, async (request) =>
      app.read(request, (db) => listCases(db, actorOf(request), request.query)),
    );
    app.get(`${path}/count`, { config: { access: { target, action: 'show' } }, schema: { tags: ['cases'], querystring: s.filtersOnly, response: { 200: s.caseCountSchema } } }, async (request) =>
      app.read(request, (db) => countCases(db, actorOf(request), request.query)),
    );
    app.get(
      `${path}/search-fields`,
      { config: { access: { target, action: 'show' } }, schema: { tags: ['cases'], summary: "The published protocols and their main form's fields, for the advanced search", response: { 200: searchFieldsView } } },
      async (request) => searchFields(app.db, actorOf(request)),
    );
  }

  // ---------------------------------------------------------------- exports

  app.get(
    '/api/cases/export',
    {
      config: { access: { target: 'wf_casos', action: 'export' } },
      schema: {
        tags: ['cases'],
        summary: 'The current result as CSV or Excel at once (cells that a spreadsheet would run as formulas are neutralised); large results go through POST /api/cases/exports',
        querystring: s.exportFileQuery,
      },
    },
    async (request, reply) => {
      const { format, ...query } = request.query;
      const table = await app.read(request, (db) => exportTable(db, actorOf(request), query));
      return reply.header('content-type', contentTypeOf(format)).header('content-disposition', `attachment; filename="${exportName(format)}"`).send(await fileOf(format, table));
    },
  );

  /** An export as its screen shows it: the error, kept as a translation key, in the caller's language. */
  const exportView = async (request: { lang: 'en' | 'es' }, actor: ReturnType<typeof actorOf>, id: string) => {
    const job = await findExport(app.db, actor, id);
    return { ...job, error: job.error && translate(request.lang, job.error) };
  };

  app.post(
    '/api/cases/exports',
    {
      config: { access: { target: 'wf_casos', action: 'export' } },
      schema: {
        tags: ['cases'],
        summary: 'Export the current result in the background; follow it with GET /api/cases/exports/:id, then fetch /file',
        body: s.startExportBody,
        response: { 202: s.caseExportSchema },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const id = await startExport(app.db, app.jobs, actor, request.body);
      return reply.status(202).send(await exportView(request, actor, id));
    },
  );

  app.get(
    '/api/cases/exports/:id',
    { config: { access: { target: 'wf_casos', action: 'export' } }, schema: { tags: ['cases'], summary: 'An export and its progress', params: s.exportParams, response: { 200: s.caseExportSchema } } },
    async (request) => exportView(request, actorOf(request), request.params.id),
  );

  app.get(
    '/api/cases/exports/:id/file',
    { config: { access: { target: 'wf_casos', action: 'export' } }, schema: { tags: ['cases'], summary: 'The file of a finished export', params: s.exportParams } },
    async (request, reply) => {
      const actor = actorOf(request);
      const job = await findExport(app.db, actor, request.params.id);
      if (job.state !== 'done') throw new AppError('CONFLICT');
      return reply
        .header('content-type', contentTypeOf(job.format))
        .header('content-disposition', `attachment; filename="${job.filename}"`)
        .header('cache-control', 'no-store')
        .send(await exportContent(app.db, actor, job.id));
    },
  );

  // ---------------------------------------------------------------- bulk actions

  app.post(
    '/api/admin-cases/close',
    {
      config: { access: { target: 'admin_cases', action: 'update' } },
      schema: { tags: ['cases'], summary: 'Close many cases (each on its own; those that cannot be closed are reported)', body: s.bulkCloseBody, response: { 200: s.bulkResultSchema } },
    },
    async (request) => bulkClose(app.db, app.engine, actorOf(request), { ...request.body, lang: request.lang }),
  );

  app.post(
    '/api/admin-cases/reassign',
    {
      config: { access: { target: 'admin_cases', action: 'update' } },
      schema: { tags: ['cases'], summary: 'Give many cases to another owner', body: s.bulkReassignBody, response: { 200: s.bulkResultSchema } },
    },
    async (request) => bulkReassign(app.db, actorOf(request), { ...request.body, lang: request.lang }),
  );

  // ---------------------------------------------------------------- new cases and drafts

  app.get(
    '/api/cases/new-options',
    {
      config: { access: { target: 'borradores', action: 'show' } },
      schema: { tags: ['cases'], summary: 'What a new application can start from: published protocols and their main forms, and whether applications are open', response: { 200: s.newOptionsSchema } },
    },
    async (request) => {
      const actor = actorOf(request);
      const [project, protocols] = await Promise.all([projectOf(app.db, actor), startableProtocols(app.db, actor)]);
      return {
        open: newApplicationsOpen({ newApplicationsDeadline: project.new_applications_deadline, allowNewApplications: project.allow_new_applications }, new Date()),
        maintenance: project.maintenance,
        autosaveSeconds: project.autosave_seconds,
        protocols,
      };
    },
  );

  app.get(
    '/api/cases/drafts',
    { config: { access: { target: 'borradores', action: 'show' } }, schema: { tags: ['cases'], summary: 'My drafts', querystring: s.draftsQuery, response: { 200: s.caseListSchema.omit({ capped: true }) } } },
    async (request) => listDrafts(app.db, actorOf(request), request.query),
  );

  app.post(
    '/api/cases/drafts',
    {
      config: { access: { target: 'borradores', action: 'create_drafts' }, ...NEW_DRAFT_LIMITS },
      schema: { tags: ['cases'], summary: "Start an application: 'Save, but come back later to complete'", body: s.newDraftBody, response: { 201: s.draftSchema } },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const id = await startDraft(app.db, actor, request.body);
      return reply.status(201).send(await findDraft(app.db, actor, id));
    },
  );

  app.get('/api/cases/drafts/:id', { config: { access: { target: 'borradores', action: 'show' } }, schema: { tags: ['cases'], params: s.idParams, response: { 200: s.draftSchema } } }, async (request) =>
    findDraft(app.db, actorOf(request), request.params.id),
  );

  app.put(
    '/api/cases/drafts/:id',
    {
      config: { access: { target: 'borradores', action: 'create_drafts' } },
      schema: { tags: ['cases'], summary: 'Save a draft (autosave): kept as typed, checked only when submitted', params: s.idParams, body: s.saveDraftBody, response: { 200: s.savedDraftSchema } },
    },
    async (request) => {
      const actor = actorOf(request);
      return saveOwnDraft(app.db, actor, request.params.id, request.body);
    },
  );

  app.delete('/api/cases/drafts/:id', { config: { access: { target: 'borradores', action: 'create_drafts' } }, schema: { tags: ['cases'], params: s.idParams, response: { 204: s.noContent } } }, async (request, reply) => {
    await deleteDraft(app.db, actorOf(request), request.params.id);
    return reply.status(204).send(null);
  });

  app.post(
    '/api/cases/drafts/:id/submit',
    {
      config: { access: { target: 'wf_casos', action: 'create' }, ...SUBMIT_LIMITS },
      schema: { tags: ['cases'], summary: 'Submit a draft: checked, numbered, and its first task started', params: s.idParams, body: s.submitDraftBody, response: { 200: s.submittedSchema } },
    },
    async (request) => {
      const c = await submitDraft(app.db, app.engine, actorOf(request), request.params.id, { data: request.body.data, lang: request.lang });
      return { id: c.id, number: c.serial as string };
    },
  );

  // ---------------------------------------------------------------- one case

  app.get('/api/cases/:id', { config: { access: { target: 'wf_casos', action: 'show' } }, schema: { tags: ['cases'], params: s.idParams, response: { 200: s.caseDetailSchema } } }, async (request) =>
    findCaseDetail(app.db, actorOf(request), request.params.id),
  );

  app.get(
    '/api/cases/:id/history',
    {
      config: { access: { target: 'historialaplicacion', action: 'show' } },
      schema: { tags: ['cases'], summary: 'Every transition and field change, with who and when', params: s.idParams, response: { 200: s.caseEventSchema.array() } },
    },
    async (request) => caseHistory(app.db, actorOf(request), request.params.id),
  );

  app.get(
    '/api/cases/public-statuses',
    {
      config: { access: { target: 'wf_casos', action: 'show' } },
      schema: {
        tags: ['cases'],
        summary: 'The plain-words status of each named case the caller may read (a page of the applicant\'s list; others left out)',
        querystring: s.publicStatusesQuery,
        response: { 200: s.publicStatusesSchema },
      },
    },
    async (request) => publicStatuses(app.db, actorOf(request), request.query.ids),
  );

  app.get(
    '/api/cases/:id/public-timeline',
    {
      config: { access: { target: 'wf_casos', action: 'show' } },
      schema: {
        tags: ['cases'],
        summary: "Where an application stands in plain words and its public steps (no task names, staff or notes): the applicant's view",
        params: s.idParams,
        response: { 200: s.publicTimelineSchema },
      },
    },
    async (request) => publicTimeline(app.db, actorOf(request), request.params.id),
  );

  app.put(
    '/api/cases/:id/data',
    {
      config: { access: { target: 'wf_casos', action: 'update' } },
      schema: { tags: ['cases'], summary: "Correct an open case's data: checked by the form, every changed field recorded", params: s.idParams, body: s.correctDataBody, response: { 200: s.versionSchema } },
    },
    async (request) => ({ version: await correctData(app.db, actorOf(request), request.params.id, { ...request.body, lang: request.lang }) }),
  );

  // ---------------------------------------------------------------- returned for correction (issue 18)

  app.post(
    '/api/cases/:id/correction',
    {
      config: { access: { target: 'wf_casos', action: 'update' } },
      schema: {
        tags: ['cases'],
        summary: 'Return an open application to its applicant for correction: a reason and the form fields and checklist documents to fix; the applicant is emailed a link',
        params: s.idParams,
        body: s.returnForCorrectionBody,
        response: { 201: s.versionSchema },
      },
    },
    async (request, reply) => {
      const version = await returnForCorrection(app.db, app.engine, actorOf(request), request.params.id, { ...request.body, lang: request.lang });
      return reply.status(201).send({ version });
    },
  );

  app.post(
    '/api/cases/:id/correction/cancel',
    {
      config: { access: { target: 'wf_casos', action: 'update' } },
      schema: { tags: ['cases'], summary: "Withdraw the open request for correction", params: s.idParams, response: { 200: s.versionSchema } },
    },
    async (request) => ({ version: await cancelCorrection(app.db, app.engine, actorOf(request), request.params.id) }),
  );

  app.post(
    '/api/cases/:id/correction/resubmit',
    {
      config: { access: { target: 'wf_casos', action: 'create' }, ...RESUBMIT_LIMITS },
      schema: {
        tags: ['cases'],
        summary: 'The applicant sends the corrected application back: only the asked fields may change, each asked document needs its files; the workflow goes on where it was',
        params: s.idParams,
        body: s.resubmitCorrectionBody,
        response: { 200: s.versionSchema },
      },
    },
    async (request) => ({ version: await resubmitCorrection(app.db, app.engine, actorOf(request), request.params.id, { ...request.body, lang: request.lang }) }),
  );

  for (const { name, target } of TRANSITIONS) {
    app.post(
      `/api/cases/:id/${name}`,
      { config: { access: { target, action: 'confirm' } }, schema: { tags: ['cases'], params: s.idParams, body: s.transitionBody, response: { 200: s.stateSchema } } },
      async (request) => {
        const actor = actorOf(request);
        return { state: await requestTransition(app.db, app.engine, actor, request.params.id, name, { reason: request.body?.reason, lang: request.lang }) };
      },
    );
  }

  app.put(
    '/api/cases/:id/owner',
    { config: { access: { target: 'change_owner_case', action: 'update' } }, schema: { tags: ['cases'], params: s.idParams, body: s.ownerBody, response: { 200: s.ownerSchema } } },
    async (request) => {
      await changeOwner(app.db, actorOf(request), request.params.id, request.body.userId);
      return { ownerId: request.body.userId };
    },
  );

  app.put(
    '/api/cases/:id/participants',
    { config: { access: { target: 'wf_casos_participantes', action: 'update' } }, schema: { tags: ['cases'], params: s.idParams, body: s.participantsBody, response: { 200: s.participantsSchema } } },
    async (request) => ({ userIds: await setParticipants(app.db, actorOf(request), request.params.id, request.body.userIds) }),
  );

  app.get(
    '/api/cases/:id/similar',
    {
      config: { access: { target: 'aplicacionessimilares', action: 'show' } },
      schema: { tags: ['cases'], summary: 'Applications that share the identifying fields or the name', params: s.idParams, response: { 200: s.caseItemSchema.array() } },
    },
    async (request) => findSimilar(app.db, actorOf(request), request.params.id),
  );

  // ---------------------------------------------------------------- saved searches

  app.get('/api/cases/saved-searches', { config: { access: { target: 'wf_casos', action: 'show' } }, schema: { tags: ['cases'], response: { 200: s.savedSearchSchema.array() } } }, async (request) =>
    listSavedSearches(app.db, actorOf(request)),
  );

  app.post(
    '/api/cases/saved-searches',
    { config: { access: { target: 'wf_casos', action: 'show' } }, schema: { tags: ['cases'], body: s.saveSearchBody, response: { 201: s.savedSearchSchema } } },
    async (request, reply) => {
      // Checked as the list will take it when the search is opened: a search saved now works every time.
      const checked = s.exportQuery.safeParse(request.body.query);
      if (!checked.success) {
        throw new AppError('VALIDATION', {}, checked.error.issues.map((i) => ({ path: ['query', ...i.path].join('.'), message: i.message, params: (i as { params?: Record<string, unknown> }).params })));
      }
      return reply.status(201).send(await saveSearch(app.db, actorOf(request), request.body.name, request.body.query));
    },
  );

  app.delete('/api/cases/saved-searches/:id', { config: { access: { target: 'wf_casos', action: 'show' } }, schema: { tags: ['cases'], params: s.idParams, response: { 204: s.noContent } } }, async (request, reply) => {
    await deleteSavedSearch(app.db, actorOf(request), request.params.id);
    return reply.status(204).send(null);
  });

  // ---------------------------------------------------------------- bulk import (CSV or Excel)

  await app.register(async (plain) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>();
    // The body stays a stream: uploadImport spools it (its size checked as it comes) and reads it by content.
    scope.addContentTypeParser(['text/csv', 'application/csv', XLSX_TYPE, 'application/octet-stream'], (_req, payload, done) => done(null, payload));
    scope.post(
      '/api/cases/imports',
      {
        config: { access: { target: 'admin_cases', action: 'update' } },
        schema: { tags: ['cases'], summary: 'Upload a CSV or Excel file of cases (the raw file as the body) for a protocol: up to 1,000,000 rows or 200 MB', querystring: uploadQuery, response: { 201: importJobSchema } },
      },
      async (request, reply) => {
        const actor = actorOf(request);
        const body = request.body as NodeJS.ReadableStream | undefined;
        if (!body || typeof (body as { pipe?: unknown }).pipe !== 'function') throw new AppError('UNSUPPORTED_MEDIA_TYPE');
        // Through a PassThrough: a file refused half-way (past the limit) stops being read without destroying the
        // request, so the 413 still reaches the client; the connection then closes instead of draining the rest.
        const through = new PassThrough();
        body.pipe(through);
        try {
          const id = await uploadImport(app.db, actor, { ...request.query, body: through }, request.lang);
          return reply.status(201).send(await importView(app.db, actor, id));
        } catch (e) {
          body.unpipe(through);
          if (e instanceof AppError && e.code === 'PAYLOAD_TOO_LARGE') reply.header('connection', 'close');
          throw e;
        }
      },
    );
  });

  app.get(
    '/api/cases/imports',
    { config: { access: { target: 'admin_cases', action: 'update' } }, schema: { tags: ['cases'], summary: "The tenant's imports, newest first, with their progress", querystring: importListQuery, response: { 200: importListSchema } } },
    async (request) => listImports(app.db, actorOf(request), request.query),
  );

  app.get('/api/cases/imports/:id', { config: { access: { target: 'admin_cases', action: 'update' } }, schema: { tags: ['cases'], summary: 'An import and its progress', params: s.idParams, response: { 200: importJobSchema } } }, async (request) =>
    importView(app.db, actorOf(request), request.params.id),
  );

  app.get(
    '/api/cases/imports/:id/rejected',
    { config: { access: { target: 'admin_cases', action: 'update' } }, schema: { tags: ['cases'], summary: 'The rejected rows as CSV (the columns of the file, the line and the reasons), to fix and import again', params: s.idParams } },
    async (request, reply) => {
      const file = await rejectedRowsCsv(app.db, actorOf(request), request.params.id, request.lang);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${file.name.replace(/[^\w.-]+/g, '_')}"; filename*=UTF-8''${encodeURIComponent(file.name)}`)
        .send(file.body);
    },
  );

  app.post(
    '/api/cases/imports/:id/dry-run',
    {
      config: { access: { target: 'admin_cases', action: 'update' } },
      schema: { tags: ['cases'], summary: 'Check every row with the rules of the import, writing nothing', params: s.idParams, body: mappingBody, response: { 200: dryRunSchema } },
    },
    async (request) => dryRunImport(app.db, actorOf(request), request.params.id, request.body, request.lang),
  );

  app.post(
    '/api/cases/imports/:id/run',
    {
      config: { access: { target: 'admin_cases', action: 'update' } },
      schema: { tags: ['cases'], summary: 'Import the rows in the background (the valid ones, or all or nothing); follow it with GET', params: s.idParams, body: mappingBody, response: { 202: importJobSchema } },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      await startImport(app.db, app.jobs, actor, request.params.id, request.body, request.lang);
      return reply.status(202).send(await importView(app.db, actor, request.params.id));
    },
  );

  // Work claimed but left without a job says so instead of running for ever (an import can then be run again).
  app.addHook('onReady', async () => {
    await Promise.all([failInterruptedExports(app.db, app.jobs), failInterruptedImports(app.db, app.jobs)]);
  });
};
