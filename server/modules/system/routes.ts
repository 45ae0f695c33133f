/**
 * System: liveness of the process and its database, and the running version.
 * Both public: load balancers and the browser's version check call them.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors.js';
import { APP_VERSION } from '../../version.js';
import { pingDatabase } from './repo.js';

export const systemRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/health',
    {
      config: { access: 'public' },
      schema: {
        tags: ['system'],
        summary: 'The server and its database are up',
        response: { 200: z.object({ status: z.literal('ok'), database: z.literal('up') }) },
      },
    },
    async () => {
      try {
        await pingDatabase(app.db);
      } catch {
        throw new AppError('DB_UNAVAILABLE');
      }
      return { status: 'ok' as const, database: 'up' as const };
    },
  );

  app.get(
    '/api/version',
    {
      config: { access: 'public' },
      schema: { tags: ['system'], summary: 'The running version', response: { 200: z.object({ version: z.string() }) } },
    },
    async () => ({ version: APP_VERSION }),
  );
};
