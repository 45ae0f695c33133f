/**
 * Email templates (`/plantillas-correo`, target plantillas_correo): per
 * tenant, a subject and a sanitised HTML body in English and Spanish for one
 * event, placeholders from a fixed catalogue, one default per event (what
 * notifications send through `renderTemplate` in commands.ts). Preview with
 * a real case's data, and a test sent to oneself.
 *
 * Each handler declares its target, parses with schema.ts, calls repo.ts or
 * commands.ts (both scoped to the actor's tenant), and presents the answer.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../plugins/session.js';
import { createTemplate, deleteTemplate, previewTemplate, sendTestTemplate, updateTemplate } from './commands.js';
import { caseOptions, findTemplate, listTemplates } from './repo.js';
import * as s from './schema.js';

const tags = ['templates'];

export const templateRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/mail-templates',
    { config: { access: { target: 'plantillas_correo', action: 'show' } }, schema: { tags, querystring: s.templateListQuery, response: { 200: s.templateListSchema } } },
    async (request) => listTemplates(app.db, actorOf(request), request.query),
  );

  app.get(
    '/api/mail-templates/case-options',
    {
      config: { access: { target: 'plantillas_correo', action: 'show' } },
      schema: { tags, summary: 'Cases of the tenant to preview a template with', querystring: s.templateCaseOptionsQuery, response: { 200: s.templateCaseOptionSchema.array() } },
    },
    async (request) => caseOptions(app.db, actorOf(request), request.query.search),
  );

  app.get(
    '/api/mail-templates/:id',
    { config: { access: { target: 'plantillas_correo', action: 'show' } }, schema: { tags, params: s.idParams, response: { 200: s.templateSchema } } },
    async (request) => findTemplate(app.db, actorOf(request), request.params.id),
  );

  app.post(
    '/api/mail-templates',
    { config: { access: { target: 'plantillas_correo', action: 'create' } }, schema: { tags, body: s.templateBody, response: { 201: s.templateSchema } } },
    async (request, reply) => {
      const actor = actorOf(request);
      const id = await createTemplate(app.db, actor, request.body);
      return reply.status(201).send(await findTemplate(app.db, actor, id));
    },
  );

  app.put(
    '/api/mail-templates/:id',
    { config: { access: { target: 'plantillas_correo', action: 'update' } }, schema: { tags, params: s.idParams, body: s.templateUpdateBody, response: { 200: s.templateSchema } } },
    async (request) => {
      const actor = actorOf(request);
      await updateTemplate(app.db, actor, request.params.id, request.body);
      return findTemplate(app.db, actor, request.params.id);
    },
  );

  app.delete(
    '/api/mail-templates/:id',
    { config: { access: { target: 'plantillas_correo', action: 'delete' } }, schema: { tags, params: s.idParams, response: { 204: s.noContent } } },
    async (request, reply) => {
      await deleteTemplate(app.db, actorOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/mail-templates/preview',
    {
      config: { access: { target: 'plantillas_correo', action: 'show' } },
      schema: { tags, summary: "The editor's template filled with a case's data, in English and Spanish", body: s.templatePreviewBody, response: { 200: s.templatePreviewSchema } },
    },
    async (request) => previewTemplate(app.db, actorOf(request), request.body, app.config.http.publicUrl),
  );

  app.post(
    '/api/mail-templates/send-test',
    {
      config: { access: { target: 'plantillas_correo', action: 'update' }, rateLimit: { max: 10, timeWindow: '1 minute' } },
      schema: { tags, summary: "Queue the editor's template, filled, to the signed-in user's own address", body: s.templateTestBody, response: { 202: s.templateTestSchema } },
    },
    async (request, reply) => {
      const sent = await sendTestTemplate(app.db, actorOf(request), request.body, { publicUrl: app.config.http.publicUrl, smtpConfigured: app.mailer.smtpConfigured });
      app.mailer.kick();
      return reply.status(202).send(sent);
    },
  );
};
