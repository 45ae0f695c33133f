/**
 * The outbox page's API (`/configuracion/correos`, target reenviarcorreos):
 * the tenant's messages newest first with their state and, for a failed
 * one, the reason; one message with its text body; resend a failed or kept
 * one (delivered once by the mail jobs).
 *
 * Each handler declares its target, parses with schema.ts, calls repo.ts or
 * commands.ts (both scoped to the actor's tenant), and presents the answer.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../plugins/session.js';
import { resendMessage } from './commands.js';
import { findMessage, listOutbox } from './repo.js';
import * as s from './schema.js';

const tags = ['mail'];

export const mailRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/mail/outbox',
    {
      config: { access: { target: 'reenviarcorreos', action: 'show' } },
      schema: { tags, summary: "The tenant's outgoing messages, newest first", querystring: s.outboxListQuery, response: { 200: s.outboxListSchema } },
    },
    async (request) => app.read(request, (db) => listOutbox(db, actorOf(request), request.query, app.mailer.smtpConfigured)),
  );

  app.get(
    '/api/mail/outbox/:id',
    {
      config: { access: { target: 'reenviarcorreos', action: 'show' } },
      schema: { tags, summary: 'One message with its plain-text body', params: s.idParams, response: { 200: s.outboxMessageSchema } },
    },
    async (request) => findMessage(app.db, actorOf(request), request.params.id, app.mailer.smtpConfigured),
  );

  app.post(
    '/api/mail/outbox/:id/resend',
    {
      config: { access: { target: 'reenviarcorreos', action: 'update' } },
      schema: { tags, summary: 'Put a failed or kept message back in the queue', params: s.idParams, response: { 200: s.outboxItemSchema } },
    },
    async (request) => {
      const actor = actorOf(request);
      await resendMessage(app.db, actor, request.params.id, app.mailer.smtpConfigured);
      app.mailer.kick();
      const { bodyText: _, ...item } = await findMessage(app.db, actor, request.params.id, app.mailer.smtpConfigured);
      return item;
    },
  );
};
