/**
 * Forms: definitions built in the form builder, kept as numbered versions.
 * Saving a form whose current version is in use (a task or case points at
 * it) makes a new version; those keep theirs (commands.ts). The server
 * checks submitted values with the same validator the browser runs
 * (core/forms), resolves the options of master selects and, through the
 * SSRF-guarded fetch, of external lists whose host an admin allowed
 * (fieldOptions.ts); the allowed hosts are kept here too.
 *
 * Each handler declares its target, parses with schema.ts, calls repo.ts (to
 * read) or commands.ts (to change), and presents the answer. No SQL here.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { scopeFieldsDeep } from '../../../core/forms/definition.js';
import { AppError } from '../../errors.js';
import { actorOf } from '../../plugins/session.js';
import { createForm, saveForm } from './commands.js';
import { checkFormValues, fieldOptions } from './fieldOptions.js';
import { addExternalHost, deleteExternalHost, deleteForm, findFormVersion, formView, listExternalHosts, listForms } from './repo.js';
import * as s from './schema.js';

export const formRoutes: FastifyPluginAsyncZod = async (app) => {
  const urls = { publicUrl: app.config.http.publicUrl };

  app.get(
    '/api/forms',
    { config: { access: { target: 'formularios', action: 'show' } }, schema: { tags: ['forms'], querystring: s.formListQuery, response: { 200: s.formListSchema } } },
    async (request) => listForms(app.db, actorOf(request), request.query),
  );

  app.get(
    '/api/forms/:id',
    { config: { access: { target: 'formularios', action: 'show' } }, schema: { tags: ['forms'], params: s.idParams, querystring: s.versionQuery, response: { 200: s.formViewSchema } } },
    async (request) => formView(app.db, actorOf(request), request.params.id, request.query.version),
  );

  app.post(
    '/api/forms',
    { config: { access: { target: 'formularios', action: 'create' } }, schema: { tags: ['forms'], body: s.createFormBody, response: { 201: s.formViewSchema } } },
    async (request, reply) => {
      const actor = actorOf(request);
      const id = await createForm(app.db, actor, request.body, request.lang);
      return reply.status(201).send(await formView(app.db, actor, id));
    },
  );

  app.put(
    '/api/forms/:id',
    {
      config: { access: { target: 'formularios', action: 'update' } },
      schema: { tags: ['forms'], summary: 'Save a definition: a new version when the current one is in use', params: s.idParams, body: s.saveFormBody, response: { 200: s.formViewSchema } },
    },
    async (request) => {
      const actor = actorOf(request);
      await saveForm(app.db, actor, request.params.id, request.body, request.lang);
      return formView(app.db, actor, request.params.id);
    },
  );

  app.delete(
    '/api/forms/:id',
    { config: { access: { target: 'formularios', action: 'delete' } }, schema: { tags: ['forms'], params: s.idParams, response: { 204: s.noContent } } },
    async (request, reply) => {
      await deleteForm(app.db, actorOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/forms/:id/check',
    {
      config: { access: 'session' },
      schema: {
        tags: ['forms'],
        summary: "Validate values with the server's copy of the form validator (the gate tasks and cases use)",
        params: s.idParams,
        body: s.checkValuesBody,
        response: { 200: s.checkedValuesSchema },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const form = await findFormVersion(app.db, actor, request.params.id, request.body.version);
      return checkFormValues(app.db, actor, urls, form, request.body.values, request.lang);
    },
  );

  app.get(
    '/api/forms/:id/options/:field',
    {
      config: { access: 'session', rateLimit: { max: 120, timeWindow: '1 minute' } },
      schema: {
        tags: ['forms'],
        summary: 'The options of a master select or an external list (fetched by the server; the browser never calls a foreign URL)',
        params: s.optionsParams,
        querystring: s.optionsQuery,
        response: { 200: s.fieldOptionsSchema },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const form = await findFormVersion(app.db, actor, request.params.id, request.query.version);
      const field = scopeFieldsDeep(form.definition.fields).find((f) => f.name === request.params.field);
      if (!field) throw new AppError('NOT_FOUND');
      return { options: await fieldOptions(app.db, actor, urls, field, request.query.parent) };
    },
  );

  // Hosts a tenant allows forms to fetch external option lists from.

  app.get(
    '/api/external-hosts',
    { config: { access: { target: 'menu_configuracion', action: 'show' } }, schema: { tags: ['forms'], response: { 200: s.externalHostSchema.array() } } },
    async (request) => listExternalHosts(app.db, actorOf(request)),
  );

  app.post(
    '/api/external-hosts',
    { config: { access: { target: 'menu_configuracion', action: 'update' } }, schema: { tags: ['forms'], body: s.externalHostBody, response: { 201: s.externalHostSchema } } },
    async (request, reply) => reply.status(201).send(await addExternalHost(app.db, actorOf(request), request.body.host)),
  );

  app.delete(
    '/api/external-hosts/:id',
    { config: { access: { target: 'menu_configuracion', action: 'update' } }, schema: { tags: ['forms'], params: s.idParams, response: { 204: s.noContent } } },
    async (request, reply) => {
      await deleteExternalHost(app.db, actorOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
};
