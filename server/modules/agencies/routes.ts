/**
 * Agencies: the tenants themselves. An agency registers itself
 * (`/registro-entidad`, `/registro-entidad-premium`): public, behind the
 * captcha, with an emailed link whose confirmation makes the whole tenant and
 * signs its administrator in. The platform operator (`access: 'operator'`,
 * `users.platform_operator`, never a tenant role) lists agencies and creates
 * or edits one (`/crear-entidad/{id?}`): state, plan and limits.
 *
 * Each handler declares its access, parses with schema.ts, calls repo.ts or
 * commands.ts, and presents the answer.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { translate } from '../../i18n.js';
import { actorOf } from '../../plugins/session.js';
import { assertCaptcha } from '../auth/captcha.js';
import { SESSION_ABSOLUTE_HOURS, SESSION_COOKIE } from '../auth/sessions.js';
import { confirmRegistration, createAgency, registerAgency, updateAgency } from './commands.js';
import { findAgency, listAgencies } from './repo.js';
import * as s from './schema.js';

const tags = ['agencies'];

export const agencyRoutes: FastifyPluginAsyncZod = async (app) => {
  const secure = app.config.http.secureCookies;

  app.post(
    '/api/agencies/registrations',
    {
      config: { access: 'public', rateLimit: { max: 10, timeWindow: '1 minute' } },
      schema: { tags, summary: 'Register an agency: its confirmation link goes to the administrator by email', body: s.registrationBody, response: { 201: s.messageSchema } },
    },
    async (request, reply) => {
      const { captcha, passwordConfirm: _, ...input } = request.body;
      await assertCaptcha(app.db, captcha);
      await registerAgency(app.db, input, { publicUrl: app.config.http.publicUrl, smtpConfigured: app.mailer.smtpConfigured });
      app.mailer.kick();
      return reply.status(201).send({ message: translate(request.lang, 'agencies.register.mailed', { email: input.email }) });
    },
  );

  app.post(
    '/api/agencies/registrations/confirm',
    {
      config: { access: 'public', rateLimit: { max: 20, timeWindow: '1 minute' } },
      schema: { tags, summary: "Use a registration link: the agency is made and its administrator signed in", body: s.confirmBody, response: { 200: s.confirmedSchema } },
    },
    async (request, reply) => {
      const { sessionToken, entity, project } = await confirmRegistration(app.db, request.body.token);
      reply.setCookie(SESSION_COOKIE, sessionToken, { httpOnly: true, sameSite: 'lax', secure, path: '/', maxAge: SESSION_ABSOLUTE_HOURS * 3600 });
      return { entity, project };
    },
  );

  app.get(
    '/api/agencies',
    { config: { access: 'operator' }, schema: { tags, summary: 'Every agency (platform operator)', querystring: s.agencyListQuery, response: { 200: s.agencyListSchema } } },
    async (request) => listAgencies(app.db, actorOf(request), request.query),
  );

  app.get(
    '/api/agencies/:id',
    { config: { access: 'operator' }, schema: { tags, summary: 'One agency (platform operator)', params: s.idParams, response: { 200: s.agencySchema } } },
    async (request) => findAgency(app.db, actorOf(request), request.params.id),
  );

  app.post(
    '/api/agencies',
    { config: { access: 'operator' }, schema: { tags, summary: 'Create an agency (platform operator)', body: s.agencyCreateBody, response: { 201: s.agencySchema } } },
    async (request, reply) => {
      const actor = actorOf(request);
      const id = await createAgency(app.db, actor, request.body, { publicUrl: app.config.http.publicUrl, smtpConfigured: app.mailer.smtpConfigured });
      app.mailer.kick();
      return reply.status(201).send(await findAgency(app.db, actor, id));
    },
  );

  app.put(
    '/api/agencies/:id',
    {
      config: { access: 'operator' },
      schema: { tags, summary: 'Change an agency: name, state, plan and limits (platform operator)', params: s.idParams, body: s.agencyUpdateBody, response: { 200: s.agencySchema } },
    },
    async (request) => {
      const actor = actorOf(request);
      await updateAgency(app.db, actor, request.params.id, request.body);
      return findAgency(app.db, actor, request.params.id);
    },
  );
};
