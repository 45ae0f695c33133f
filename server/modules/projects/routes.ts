/**
 * Projects: a tenant's branded portal (title, colours, logo) and its
 * behaviour settings. The browser loads one by the id in its `projectid`
 * cookie before anything else renders.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { notFound } from '../../errors.js';
import { findProjectSettings } from './repo.js';
import { projectIdParams, projectSettingsSchema } from './schema.js';

export const projectRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/projects/:id/settings',
    {
      config: { access: 'public' },
      schema: {
        tags: ['projects'],
        summary: "A project's public settings (`default` names the default project)",
        params: projectIdParams,
        response: { 200: projectSettingsSchema },
      },
    },
    async (request) => {
      const settings = await findProjectSettings(app.db, request.params.id);
      if (!settings) throw notFound();
      return settings;
    },
  );
};
