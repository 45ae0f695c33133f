/**
 * The public entry (`/publico/{entity?}/{protocol?}` in the browser): the
 * entities that publish programmes, an entity's programmes, and one
 * programme with whether applications are open. Public on purpose, like the
 * sign-up and its captcha: nobody needs a session to read what an entity
 * publishes, and what is not published (policy.ts) is a 404 like what does
 * not exist.
 *
 * Each handler declares its access, parses with schema.ts, calls repo.ts and
 * presents the answer. No SQL here.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { indexingBlockedFor } from '../projects/repo.js';
import { NO_INDEX } from '../projects/routes.js';
import { listPublicEntities, publicEntity, publicProgramme } from './repo.js';
import * as s from './schema.js';

export const publicRoutes: FastifyPluginAsyncZod = async (app) => {
  // Generous for people, a cap for scrapers (as the public masters).
  const config = { access: 'public', rateLimit: { max: 120, timeWindow: '1 minute' } } as const;
  // An entity whose default project blocks indexing (issue 20): every answer about it says so to search engines.
  app.addHook('onSend', async (request, reply) => {
    const entity = (request.params as { entity?: string } | undefined)?.entity;
    if (entity && reply.statusCode < 400 && (await indexingBlockedFor(app.db, entity))) reply.header('x-robots-tag', NO_INDEX);
  });

  app.get(
    '/api/public/entities',
    {
      config,
      schema: { tags: ['public'], summary: 'The active entities with published public programmes', querystring: s.publicEntityListQuery, response: { 200: s.publicEntityListSchema } },
    },
    async (request) => listPublicEntities(app.db, request.query),
  );

  app.get(
    '/api/public/entities/:entity',
    {
      config,
      schema: {
        tags: ['public'],
        summary: "An entity's public page (by docnumber or slug): its programmes and whether it takes applications; 404 when nothing of it is public",
        params: s.publicEntityParams,
        response: { 200: s.publicEntitySchema },
      },
    },
    async (request) => publicEntity(app.db, request.params.entity),
  );

  app.get(
    '/api/public/entities/:entity/protocols/:code',
    {
      config,
      schema: {
        tags: ['public'],
        summary: "One programme's public page: a published public protocol of an active entity; 404 otherwise",
        params: s.publicProtocolParams,
        response: { 200: s.publicProgrammeDetailSchema },
      },
    },
    async (request) => publicProgramme(app.db, request.params.entity, request.params.code),
  );
};
