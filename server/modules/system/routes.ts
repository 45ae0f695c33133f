/**
 * System: liveness of the process and its database, readiness for a load
 * balancer, the running version, and the metrics for Prometheus. Health,
 * readiness and version are public: balancers and the browser's version check
 * call them; the metrics answer only when METRICS is on, to the bearer of
 * METRICS_TOKEN or, without one, to this machine.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors.js';
import { sendError } from '../../plugins/errors.js';
import { APP_VERSION } from '../../version.js';
import { databasePinger } from './repo.js';

const digest = (s: string) => createHash('sha256').update(s).digest();

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6. */
const isLoopback = (ip: string) => /^(::ffff:)?127\./.test(ip) || ip === '::1';

function mayScrape(request: FastifyRequest, token: string | undefined): AppError | null {
  if (!token) return isLoopback(request.ip) ? null : new AppError('FORBIDDEN');
  const given = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
  // Compared as digests of equal length, in constant time.
  return given && timingSafeEqual(digest(given), digest(token)) ? null : new AppError('UNAUTHORIZED');
}

export const systemRoutes: FastifyPluginAsyncZod = async (app) => {
  const database = databasePinger(app.db);
  app.addHook('onClose', () => database.close());

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
        await database.ping();
      } catch {
        throw new AppError('DB_UNAVAILABLE');
      }
      return { status: 'ok' as const, database: 'up' as const };
    },
  );

  app.get(
    '/api/ready',
    {
      config: { access: 'public' },
      schema: {
        tags: ['system'],
        summary: 'This instance takes traffic: 503 while it shuts down or its database is unreachable (for load balancers)',
        response: { 200: z.object({ status: z.literal('ready') }) },
      },
    },
    async (request, reply) => {
      // Answered, not thrown: a balancer asking every few seconds is no error to log.
      if (app.draining) return sendError(request, reply, new AppError('SHUTTING_DOWN'));
      try {
        await database.ping();
      } catch {
        return sendError(request, reply, new AppError('DB_UNAVAILABLE'));
      }
      return { status: 'ready' as const };
    },
  );

  app.get(
    '/api/metrics',
    {
      config: { access: 'public', ownBearer: true },
      schema: { tags: ['system'], summary: 'Metrics in the Prometheus text format (METRICS=on; Bearer METRICS_TOKEN, or loopback callers without one)', hide: true },
    },
    async (request, reply) => {
      const metrics = app.metrics;
      if (!metrics) throw new AppError('ROUTE_NOT_FOUND');
      const refused = mayScrape(request, app.config.metrics.token);
      if (refused?.code === 'UNAUTHORIZED') reply.header('www-authenticate', 'Bearer');
      if (refused) throw refused;
      const body = await metrics.registry.metrics();
      return reply.header('cache-control', 'no-store').type(metrics.registry.contentType).send(body);
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
