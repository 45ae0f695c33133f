/**
 * The tenant's settings: its business calendar (working days and hours, the
 * time zone they are read in), which business-day due dates are counted on.
 * Holidays are the `festivos` master's items (the masters screens).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../plugins/session.js';
import { findCalendar, saveCalendar } from './repo.js';
import * as s from './schema.js';

export const settingsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/settings/calendar',
    {
      config: { access: { target: 'menu_configuracion', action: 'show' } },
      schema: { tags: ['settings'], summary: "The tenant's business calendar", response: { 200: s.businessCalendarSchema } },
    },
    async (request) => findCalendar(app.db, actorOf(request)),
  );

  app.put(
    '/api/settings/calendar',
    {
      config: { access: { target: 'menu_configuracion', action: 'update' } },
      schema: { tags: ['settings'], summary: "Change the tenant's business calendar", body: s.businessCalendarBody, response: { 200: s.businessCalendarSchema } },
    },
    async (request) => {
      const actor = actorOf(request);
      await saveCalendar(app.db, actor, request.body);
      return findCalendar(app.db, actor);
    },
  );
};
