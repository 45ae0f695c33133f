/**
 * Limits per account, beside the per-address ones (`config.rateLimit`,
 * @fastify/rate-limit keyed by the client's address). A route declares
 * `config.accountLimit: { max, timeWindow }`; once the session is known the
 * signed-in user's calls to that route are counted in the same store (the
 * table `rate_limits`, shared by every instance: plugins/rate-limit-store.ts),
 * and past the limit answered 429 RATE_LIMITED with Retry-After; with the
 * database gone, 503 DB_UNAVAILABLE like any other query. Many people can
 * share an address (a library, a household, a carrier's NAT), so the
 * address limit stays the looser one and the account limit the tighter.
 * (The plugin runs one limit per request through its own hook; a second
 * one goes through `createRateLimit`, which does not take that turn.)
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';

export interface AccountLimit {
  max: number;
  timeWindow: string | number;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    accountLimit?: AccountLimit;
  }
}

/** Registers the hook; call after @fastify/rate-limit and the session, before the routes. */
export function registerAccountLimits(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const limit = (route.config as { accountLimit?: AccountLimit } | undefined)?.accountLimit;
    if (!limit) return;
    const methods = Array.isArray(route.method) ? route.method.join(',') : route.method;
    const check = app.createRateLimit({
      max: limit.max,
      timeWindow: limit.timeWindow,
      keyGenerator: (request: FastifyRequest) => `account:${request.actor?.userId}:${methods}:${route.url}`,
    });
    const hook = async (request: FastifyRequest) => {
      if (!request.actor) return;
      const result = await check(request);
      if (!result.isAllowed && result.isExceeded) throw new AppError('RATE_LIMITED', { retryAfter: Math.max(1, Math.ceil(result.ttl / 1000)) });
    };
    const before = route.preHandler ? (Array.isArray(route.preHandler) ? route.preHandler : [route.preHandler]) : [];
    route.preHandler = [hook, ...before];
  });
}
