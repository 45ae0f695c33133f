/**
 * Protocols: the workflows cases follow. The list (with the public URL), the
 * draft editor's API, publishing (frozen versions), export to one JSON file
 * with its forms, import (validated, all or nothing), and the tasks of a
 * protocol grouped by state.
 *
 * Each handler declares its target, parses with schema.ts, calls repo.ts (to
 * read) or commands.ts (to change), and presents the answer. No SQL here.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../plugins/session.js';
import { createProtocol, importProtocol, publishProtocol, saveProtocol } from './commands.js';
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
