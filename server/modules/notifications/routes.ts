/**
 * In-app notifications: the signed-in person's own, newest first, marking
 * them read, and their choice of which events also come by email (or in a
 * daily digest). Each handler declares its access, calls repo.ts, and answers.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../plugins/session.js';
import { setPreferences } from './commands.js';
import { listNotifications, markAllRead, markRead, preferencesOf } from './repo.js';
import * as s from './schema.js';

export const notificationRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/notifications',
    { config: { access: 'session' }, schema: { tags: ['notifications'], summary: 'My newest notifications (50) and how many are unread', response: { 200: s.notificationListSchema } } },
    async (request) => listNotifications(app.db, actorOf(request)),
  );

  app.post(
    '/api/notifications/:id/read',
    { config: { access: 'session' }, schema: { tags: ['notifications'], summary: 'Mark one of my notifications read', params: s.idParams, response: { 204: s.noContent } } },
    async (request, reply) => {
      await markRead(app.db, actorOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/notifications/read-all',
    { config: { access: 'session' }, schema: { tags: ['notifications'], summary: 'Mark all my notifications read', response: { 200: s.readAllSchema } } },
    async (request) => ({ unread: await markAllRead(app.db, actorOf(request)) }),
  );

  app.get(
    '/api/notifications/preferences',
    { config: { access: 'session' }, schema: { tags: ['notifications'], summary: 'Which events also reach me by email, and whether as a daily digest', response: { 200: s.preferencesSchema } } },
    async (request) => preferencesOf(app.db, actorOf(request)),
  );

  app.put(
    '/api/notifications/preferences',
    {
      config: { access: 'session' },
      schema: { tags: ['notifications'], summary: 'Choose which events also reach me by email, and the daily digest', body: s.preferencesSchema, response: { 200: s.preferencesSchema } },
    },
    async (request) => setPreferences(app.db, actorOf(request), request.body),
  );
};
