/**
 * Protocols: the workflows cases follow. The list (with the public URL), the
 * draft editor's API, publishing (frozen versions), export to one JSON file
 * with its forms, import (validated, all or nothing), a version as BPMN 2.0
 * and a BPMN 2.0 file as the draft, and the tasks of a protocol grouped by
 * state.
 *
 * Each handler declares its target, parses with schema.ts, calls repo.ts (to
 * read) or commands.ts (to change), and presents the answer. No SQL here.
 */
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '../../errors.js';
import { actorOf } from '../../plugins/session.js';
import { createProtocol, exportProtocolBpmn, importProtocol, importProtocolBpmn, publishProtocol, saveProtocol } from './commands.js';
import { deleteProtocol, listProtocols, protocolDetail, protocolFile, protocolTasks, taskOptions } from './repo.js';
import * as s from './schema.js';

export const protocolRoutes: FastifyPluginAsyncZod = async (app) => {
  const urls = { publicUrl: app.config.http.publicUrl };

  app.get(
    '/api/protocols',
    { config: { access: { target: 'wf_protocolos', action: 'show' } }, schema: { tags: ['protocols'], querystring: s.protocolListQuery, response: { 200: s.protocolListSchema } } },
    async (request) => listProtocols(app.db, actorOf(request), urls, request.query),
  );

  app.get(
    '/api/protocols/task-options',
    {
      config: { access: { target: 'wf_protocolos', action: 'show' } },
      schema: { tags: ['protocols'], summary: "The tenant's email templates of the task events and its roles, for a task's messages and escalation", response: { 200: s.protocolTaskOptionsSchema } },
    },
    async (request) => taskOptions(app.db, actorOf(request)),
  );

  app.get('/api/protocols/:id', { config: { access: { target: 'wf_protocolos', action: 'show' } }, schema: { tags: ['protocols'], params: s.idParams, response: { 200: s.protocolDetailSchema } } }, async (request) =>
    protocolDetail(app.db, actorOf(request), urls, request.params.id),
  );

  app.post(
    '/api/protocols',
    { config: { access: { target: 'wf_protocolos', action: 'create' } }, schema: { tags: ['protocols'], body: s.protocolBodySchema, response: { 201: s.protocolDetailSchema } } },
    async (request, reply) => {
      const actor = actorOf(request);
      const id = await createProtocol(app.db, actor, request.body, request.lang);
      return reply.status(201).send(await protocolDetail(app.db, actor, urls, id));
    },
  );

  app.put(
    '/api/protocols/:id',
    {
      config: { access: { target: 'wf_protocolos', action: 'update' } },
      schema: { tags: ['protocols'], summary: 'Save the draft (published versions do not change)', params: s.idParams, body: s.protocolBodySchema, response: { 200: s.protocolDetailSchema } },
    },
    async (request) => {
      const actor = actorOf(request);
      await saveProtocol(app.db, actor, request.params.id, request.body, request.lang);
      return protocolDetail(app.db, actor, urls, request.params.id);
    },
  );

  app.post(
    '/api/protocols/:id/publish',
    {
      config: { access: { target: 'wf_protocolos', action: 'update' } },
      schema: { tags: ['protocols'], summary: 'Freeze the draft as a new version; new cases use it, running ones keep theirs', params: s.idParams, response: { 200: s.protocolDetailSchema } },
    },
    async (request) => {
      const actor = actorOf(request);
      await publishProtocol(app.db, actor, request.params.id, request.lang);
      return protocolDetail(app.db, actor, urls, request.params.id);
    },
  );

  app.delete(
    '/api/protocols/:id',
    { config: { access: { target: 'wf_protocolos', action: 'delete' } }, schema: { tags: ['protocols'], params: s.idParams, response: { 204: s.noContent } } },
    async (request, reply) => {
      await deleteProtocol(app.db, actorOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/protocols/:id/export',
    { config: { access: { target: 'wf_protocolos', action: 'export' } }, schema: { tags: ['protocols'], summary: 'One JSON file with the protocol and its forms', params: s.idParams } },
    async (request, reply) => {
      const { code, file } = await protocolFile(app.db, actorOf(request), request.params.id);
      return reply
        .header('content-type', 'application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="protocol-${code}.json"`)
        .send(JSON.stringify(file, null, 2));
    },
  );

  app.post(
    '/api/protocols/import',
    {
      config: { access: { target: 'wf_protocolos', action: 'create' } },
      bodyLimit: 5 * 1024 * 1024,
      schema: { tags: ['protocols'], summary: 'Import an exported protocol with its forms: all of it, or nothing', body: s.protocolFileSchema, response: { 201: s.protocolDetailSchema } },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const id = await importProtocol(app.db, actor, request.body, request.lang);
      return reply.status(201).send(await protocolDetail(app.db, actor, urls, id));
    },
  );

  app.get(
    '/api/protocols/:id/bpmn',
    {
      config: { access: { target: 'wf_protocolos', action: 'export' } },
      schema: { tags: ['protocols'], summary: 'A version of the protocol (the draft without `version`) as BPMN 2.0 XML', params: s.idParams, querystring: s.bpmnExportQuery },
    },
    async (request, reply) => {
      const { fileName, xml } = await exportProtocolBpmn(app.db, actorOf(request), request.params.id, request.query.version, request.lang);
      return reply.header('content-type', 'application/xml; charset=utf-8').header('content-disposition', `attachment; filename="${fileName}"`).send(xml);
    },
  );

  // A BPMN file arrives as the raw body (XML), on this route only: any other route refuses one (415).
  await app.register(async (plain) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>();
    // The body stays a stream: the import reads it up to its size cap and stops there.
    scope.addContentTypeParser(s.BPMN_CONTENT_TYPES, (_req, payload, done) => done(null, payload));
    scope.post(
      '/api/protocols/:id/bpmn',
      {
        config: { access: { target: 'wf_protocolos', action: 'update' } },
        schema: {
          tags: ['protocols'],
          summary:
            'Make a BPMN 2.0 file (the raw XML as the body, up to 5 MB) the draft: all of it or nothing. Elements the engine cannot run are refused (422, details `unsupported.<id>`) unless `dropUnsupported=true`',
          params: s.idParams,
          querystring: s.bpmnImportQuery,
          response: { 200: s.bpmnImportResultSchema },
        },
      },
      async (request, reply) => {
        const actor = actorOf(request);
        const body = request.body as (NodeJS.ReadableStream & AsyncIterable<Uint8Array>) | undefined;
        if (!body || typeof body.pipe !== 'function') throw new AppError('UNSUPPORTED_MEDIA_TYPE');
        try {
          const dropped = await importProtocolBpmn(app.db, actor, request.params.id, body, { drop: request.query.dropUnsupported, lang: request.lang });
          return { ...(await protocolDetail(app.db, actor, urls, request.params.id)), dropped };
        } catch (e) {
          // A file refused half-way is not read to its end: the connection closes instead.
          if (e instanceof AppError && e.code === 'PAYLOAD_TOO_LARGE') reply.header('connection', 'close');
          throw e;
        }
      },
    );
  });

  app.get(
    '/api/protocols/:id/tasks',
    {
      config: { access: { target: 'wf_protocolos', action: 'show' } },
      schema: {
        tags: ['protocols'],
        summary: 'The tasks of a protocol grouped by rejected, pending, blocked, unassigned and accepted, with counts',
        params: s.idParams,
        querystring: s.protocolTasksQuery,
        response: { 200: s.protocolTasksSchema },
      },
    },
    async (request) => protocolTasks(app.db, actorOf(request), request.params.id, request.query),
  );
};
