/**
 * Projects: a tenant's branded portal (title, colours, logo) and its
 * behaviour settings. The browser loads one by the id in its `projectid`
 * cookie before anything else renders. Also what search engines are told:
 * `X-Robots-Tag` on a project that blocks indexing and `/robots.txt` (the
 * default project's flag), and the project's logo and favicon images
 * (uploaded on /configuracion, server/modules/settings/branding.ts).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { notFound } from '../../errors.js';
import { findBrandingFile, findProjectSettings } from './repo.js';
import { brandingFileParams, projectIdParams, projectSettingsSchema } from './schema.js';

/** Header of an answer search engines must not index. */
export const NO_INDEX = 'noindex, nofollow';

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
    async (request, reply) => {
      const settings = await findProjectSettings(app.db, request.params.id);
      if (!settings) throw notFound();
      if (settings.blockIndexing) reply.header('x-robots-tag', NO_INDEX);
      return settings;
    },
  );

  app.get(
    '/api/projects/:id/branding/:file',
    {
      config: { access: 'public', rateLimit: { max: 300, timeWindow: '1 minute' } },
      schema: { tags: ['projects'], summary: "A project's logo or favicon, while the project shows it", params: brandingFileParams },
    },
    async (request, reply) => {
      const [fileId, ext] = request.params.file.split('.');
      const file = await findBrandingFile(app.db, request.params.id, fileId, ext);
      if (!file) throw notFound();
      const body = await app.files.open(app.db, file.id);
      // Each upload is a new address, so it may be kept for good; checked by content at upload, never SVG.
      return reply
        .header('content-type', file.mime)
        .header('content-length', String(file.size))
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('content-security-policy', "default-src 'none'")
        .header('x-content-type-options', 'nosniff')
        .send(body);
    },
  );

  app.get(
    '/robots.txt',
    { config: { access: 'public' }, schema: { hide: true } },
    async (_request, reply) => {
      const settings = await findProjectSettings(app.db, 'default');
      // Landing pages (one application each) are never for search engines.
      const body = settings?.blockIndexing ? 'User-agent: *\nDisallow: /\n' : 'User-agent: *\nDisallow: /api/\nDisallow: /landing/\n';
      return reply.header('content-type', 'text/plain; charset=utf-8').header('cache-control', 'public, max-age=300').send(body);
    },
  );
};
